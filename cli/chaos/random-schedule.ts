/**
 * randomChaosSchedule decides a whole random chaos run up front, from its seed alone: one
 * disturbance every `intervalSeconds`, each a random action at a random target, each healed
 * before the run ends. Deciding first (rather than drawing as the run goes) means the answer
 * can show the whole plan, and the same seed replays the same run.
 */
import { type ChaosStep, RANDOM_CHAOS_ACTIONS, type RandomChaosAction } from '../../apiserver/api/kubesim/chaos.js';
import { createRandom, type Random } from '../../apiserver/api/machinery/random.js';

export interface RandomScheduleOptions {
  seed: number;
  /** Length of the run (cluster seconds). */
  durationSeconds: number;
  /** Between two disturbances (cluster seconds). Default 5. */
  intervalSeconds?: number;
  /** Supervised components a loop action may hit. */
  components: readonly string[];
  /** Nodes stop-node may hit. */
  nodes: readonly string[];
}

export const DEFAULT_CHAOS_INTERVAL_SECONDS = 5;

/** Latencies slow-api draws from (ms). */
const LATENCIES_MS = [100, 200, 300, 500, 800];

/** Actions that happen at once and need no time to heal. */
const INSTANT: ReadonlySet<RandomChaosAction> = new Set(['kill-loop', 'cut-watches']);

/** randomChaosSchedule returns the steps of a run, in time order (see the module comment).
 * Targets are drawn from sorted copies, so the order callers list them in does not matter. */
export function randomChaosSchedule(options: RandomScheduleOptions): ChaosStep[] {
  const random = createRandom(options.seed);
  const interval = options.intervalSeconds ?? DEFAULT_CHAOS_INTERVAL_SECONDS;
  const components = [...options.components].sort();
  const nodes = [...options.nodes].sort();
  const actions = RANDOM_CHAOS_ACTIONS.filter((action) => (action === 'stop-node' ? nodes.length > 0 : action === 'slow-api' || components.length > 0));
  const steps: ChaosStep[] = [];
  for (let at = 0; at < options.durationSeconds; at = round(at + interval)) {
    const action = pick(random, actions);
    const step: ChaosStep = { atSeconds: at, action, seconds: INSTANT.has(action) ? 0 : lasting(random, interval, options.durationSeconds - at) };
    if (action === 'stop-node') step.target = pick(random, nodes);
    else if (action === 'slow-api') step.latencyMs = pick(random, LATENCIES_MS);
    else step.target = pick(random, components);
    steps.push(step);
  }
  return steps;
}

/** lasting draws how long a disturbance lasts: half to one and a half intervals, to 0.1 s,
 * cut to what is left of the run so every disturbance is over when the run is. */
function lasting(random: Random, interval: number, left: number): number {
  const seconds = round(interval * (0.5 + random.next()));
  return Math.max(0.1, Math.min(seconds, round(left)));
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[random.int(items.length)]!;
}

/** round keeps a tenth of a second: schedules print cleanly and sums do not drift. */
function round(seconds: number): number {
  return Math.round(seconds * 10) / 10;
}
