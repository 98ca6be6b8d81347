/**
 * The wire types of chaos (docs/live-view.md): one request names an action, its target and
 * how long it lasts; the answer says what was done and what convergence to expect. Served by
 * `kubesim up` (cli/chaos/chaos-routes.ts), whose supervisor can kill and stop loops; posted by
 * `kubesim chaos` and the live view.
 *
 *   POST /apis/kubesim.io/v1alpha1/chaos   ChaosRequest → ChaosResult
 *
 * The supervisor's own API (`kubesim stop|start|status`) lives under COMPONENTS_PATH: it
 * manages processes, not objects, so it is not in the kubesim.io group.
 */
import { z } from 'zod';

export const CHAOS_API_VERSION = 'kubesim.io/v1alpha1';
export const CHAOS_PATH = '/apis/kubesim.io/v1alpha1/chaos';
/** The supervisor's component list; `/{name}/{start|stop}` acts on one. */
export const COMPONENTS_PATH = '/kubesim/v1/components';

/** CHAOS_ACTIONS: what chaos can do. `start-node` undoes `stop-node` before its time is up. */
export const CHAOS_ACTIONS = ['kill-loop', 'stop-loop', 'cut-watches', 'partition', 'stop-node', 'start-node', 'slow-api', 'random'] as const;
export type ChaosAction = (typeof CHAOS_ACTIONS)[number];

/** The actions a random run draws from (every one that disturbs; start-node only heals). */
export const RANDOM_CHAOS_ACTIONS = ['kill-loop', 'stop-loop', 'cut-watches', 'partition', 'stop-node', 'slow-api'] as const satisfies readonly ChaosAction[];
export type RandomChaosAction = (typeof RANDOM_CHAOS_ACTIONS)[number];

/** A day: longer chaos is a mistake in the units, not an experiment. */
const MAX_SECONDS = 86_400;

/** ChaosRequestSchema is a posted chaos request. Durations are cluster seconds. */
export const ChaosRequestSchema = z.strictObject({
  action: z.enum(CHAOS_ACTIONS),
  /** A component of the supervisor (kill-loop, stop-loop, cut-watches, partition; optional for
   * slow-api, which otherwise slows every client) or a node (stop-node, start-node). */
  target: z.string().min(1).optional(),
  /** How long it lasts. stop-loop and stop-node without it last until started again. */
  seconds: z.number().positive().max(MAX_SECONDS).optional(),
  /** slow-api: the latency added to each request (wall ms). */
  latencyMs: z.int().min(1).max(600_000).optional(),
  /** random: the seed of the schedule (drawn and reported when absent). */
  seed: z
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
  /** random: cluster seconds between two disturbances (default 5). */
  intervalSeconds: z.number().positive().max(MAX_SECONDS).optional(),
});
export type ChaosRequest = z.infer<typeof ChaosRequestSchema>;

/** ChaosStep is one disturbance of a random run, `atSeconds` after it started. */
export interface ChaosStep {
  atSeconds: number;
  action: RandomChaosAction;
  target?: string;
  seconds: number;
  latencyMs?: number;
}

/** ChaosResult says what a chaos request did and what the cluster should do about it. */
export interface ChaosResult {
  apiVersion: typeof CHAOS_API_VERSION;
  kind: 'ChaosResult';
  action: ChaosAction;
  target?: string;
  seconds?: number;
  /** What was done, e.g. "killed replicaset (pid 123)". */
  did: string;
  /** The convergence to expect, in words. */
  expect: string;
  /** The fault rule added, for cut-watches, partition and slow-api. */
  faultRule?: string;
  /** random: the seed and the whole schedule, decided up front. */
  seed?: number;
  schedule?: ChaosStep[];
}
