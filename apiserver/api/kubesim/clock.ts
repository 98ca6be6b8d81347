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

export { CLOCK_ADVANCE_MAX_MS, CLOCK_SPEED_MAX, CLOCK_SPEED_MIN, clockSpeedProblem } from '../machinery/clock-bounds.js';
// The clock object and its path live in clock-object.ts, which loads no zod: every component
// process follows the clock, and only the API server parses the requests below.
export { CLOCK_API_VERSION, CLOCK_PATH, type ClusterClockObject } from './clock-object.js';

/** AdvanceRequestSchema: how far to move cluster time, in ms or as Go duration text. */
export const AdvanceRequestSchema = z.object({ ms: z.number().nonnegative().optional(), duration: z.string().optional() }).strict();

/** SpeedRequestSchema: the new pace (cluster ms per wall ms). */
export const SpeedRequestSchema = z.object({ speed: z.number().positive() }).strict();
