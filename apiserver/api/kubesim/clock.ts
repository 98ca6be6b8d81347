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

export { CLOCK_ADVANCE_MAX_MS, CLOCK_SPEED_MAX, CLOCK_SPEED_MIN, clockSpeedProblem } from '../machinery/clock-bounds.js';

/** AdvanceRequestSchema: how far to move cluster time, in ms or as Go duration text. */
export const AdvanceRequestSchema = z.object({ ms: z.number().nonnegative().optional(), duration: z.string().optional() }).strict();

/** SpeedRequestSchema: the new pace (cluster ms per wall ms). */
export const SpeedRequestSchema = z.object({ speed: z.number().positive() }).strict();
