/**
 * The wire types of kubesim's cluster clock API (docs/cluster-time.md), served by the API
 * server under kubesim's own group (not in discovery) and read by component processes that
 * follow the clock (controllers/runtime/remote-clock.ts) and by `kubesim clock`:
 *
 *   GET  /apis/kubesim.io/v1alpha1/clock            → ClusterClock
 *   GET  /apis/kubesim.io/v1alpha1/clock?watch=1    → one ClusterClock JSON line now and per change
 *   POST /apis/kubesim.io/v1alpha1/clock/advance    {"ms": N} | {"duration": "90s"}
 *   POST /apis/kubesim.io/v1alpha1/clock/pause | /resume
 *   POST /apis/kubesim.io/v1alpha1/clock/speed      {"speed": N}
 */
import { z } from 'zod';

export const CLOCK_API_VERSION = 'kubesim.io/v1alpha1';
export const CLOCK_PATH = '/apis/kubesim.io/v1alpha1/clock';

/** ClusterClockObjectSchema is the clock as the server reports it. */
export const ClusterClockObjectSchema = z.object({
  apiVersion: z.literal(CLOCK_API_VERSION),
  kind: z.literal('ClusterClock'),
  /** Cluster time, RFC 3339 with milliseconds. */
  now: z.string(),
  nowMs: z.number(),
  speed: z.number().positive(),
  paused: z.boolean(),
  /** The mode the clock started in: real (running) or virtual (paused until advanced). */
  mode: z.enum(['real', 'virtual']),
  /** The server's wall time when `nowMs` was read (lets a follower add the transit time). */
  wallMs: z.number().optional(),
});
export type ClusterClockObject = z.infer<typeof ClusterClockObjectSchema>;

/** The pace the cluster clock may run at: from a thousandth of wall time to a thousand times
 * it (a day in under a minute and a half). Beyond these, timers and timestamps stop making
 * sense: 1e20 would put cluster time past what a timestamp can express within seconds. */
export const CLOCK_SPEED_MIN = 0.001;
export const CLOCK_SPEED_MAX = 1000;

/** The longest single advance: a year. Every timer due in between fires in order (heartbeats
 * every few seconds among them), so the bound keeps one request from running for hours. */
export const CLOCK_ADVANCE_MAX_MS = 366 * 24 * 60 * 60 * 1000;

/** clockSpeedProblem says what is wrong with a clock speed, or undefined when it is allowed;
 * every way of setting the speed (API, `kubesim up --speed`, startCluster) asks it. */
export function clockSpeedProblem(speed: unknown): string | undefined {
  if (typeof speed !== 'number' || !Number.isFinite(speed)) return 'must be a number';
  if (speed < CLOCK_SPEED_MIN || speed > CLOCK_SPEED_MAX) return `must be between ${CLOCK_SPEED_MIN} and ${CLOCK_SPEED_MAX}`;
  return undefined;
}

/** AdvanceRequestSchema: how far to move cluster time, in ms or as Go duration text. */
export const AdvanceRequestSchema = z.object({ ms: z.number().nonnegative().optional(), duration: z.string().optional() }).strict();

/** SpeedRequestSchema: the new pace (cluster ms per wall ms). */
export const SpeedRequestSchema = z.object({ speed: z.number().positive() }).strict();
