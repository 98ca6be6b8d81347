/**
 * The cluster clock's flags, shared by `kubesim up` (which checks them before starting
 * anything) and `kubesim apiserver` (whose process owns the clock). A restarted API server
 * of `kubesim up` also gets `--clock-state`: where its predecessor's clock stood, so cluster
 * time never goes back and a paused clock stays paused across the restart.
 */
import { clockSpeedProblem } from '../apiserver/api/machinery/clock-bounds.js';
import { CLOCK_MODES, type ClockMode, type ClockState, type ClusterClock, createClusterClock } from '../apiserver/api/machinery/cluster-clock.js';
import { type FlagSpec, type Flags, UsageError } from './args.js';

export const clusterClockFlags: Record<string, FlagSpec> = {
  speed: { type: 'number', description: 'cluster clock speed factor: 10 runs a 5-minute window in 30 s', default: 1 },
  clock: {
    type: 'string',
    description: 'real (time runs from the start) or virtual (time stands still until `kubesim clock advance` or `resume`)',
    default: 'real',
  },
};

/** checkClockFlags throws a UsageError for a bad --clock or --speed. */
export function checkClockFlags(flags: Flags): { mode: ClockMode; speed: number } {
  const mode = String(flags['clock']);
  if (!(CLOCK_MODES as readonly string[]).includes(mode)) throw new UsageError(`--clock must be real or virtual, got ${JSON.stringify(mode)}`);
  const speed = Number(flags['speed']);
  const speedProblem = clockSpeedProblem(speed);
  if (speedProblem) throw new UsageError(`--speed ${speedProblem}, got ${String(flags['speed'])}`);
  return { mode: mode as ClockMode, speed };
}

/** createClockFromFlags makes the clock the flags ask for, continuing from `resumeFrom` when given. */
export function createClockFromFlags(flags: Flags, resumeFrom?: ClockState): ClusterClock {
  const { mode, speed } = checkClockFlags(flags);
  if (!resumeFrom) return createClusterClock({ mode, speed });
  return createClusterClock({
    mode: resumeFrom.paused ? 'virtual' : 'real',
    speed: resumeFrom.speed,
    startMs: resumeFrom.nowMs,
    atWallMs: resumeFrom.wallMs,
  });
}

/** describeClock is the banner's words for the clock: nothing for a real clock at speed 1. */
export function describeClock(mode: ClockMode, speed: number): string {
  if (mode === 'virtual') return ', clock paused (virtual): move it with `npx kubesim clock advance 5m` or `npx kubesim clock resume`';
  return speed !== 1 ? `, clock ×${speed}` : '';
}
