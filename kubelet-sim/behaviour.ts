/**
 * Per-pod behaviour of simulated containers, chosen by `kubesim.io/*` annotations on the pod
 * (documented in docs/kubelet-sim.md). Parsed with zod at this trust boundary: a bad value
 * is reported and replaced by its default, never fatal — a typo must not wedge a pod.
 */
import { z } from 'zod';
import type { Pod } from '../apiserver/api/core/pod.js';
import { controllerRefOf } from '../apiserver/api/machinery/owner-references.js';
import { parseQuantity } from '../apiserver/api/quantity.js';
import type { DeepReadonly } from '../controllers/runtime/types.js';

/** BEHAVIOUR_PREFIX is the annotation prefix every behaviour key carries. */
export const BEHAVIOUR_PREFIX = 'kubesim.io/';

/** JOB_RUN_SECONDS is how long containers of a Job's pods run before exiting 0 when the pod
 * does not say otherwise: Jobs exist to complete. */
export const JOB_RUN_SECONDS = 1;

/**
 * PodBehaviour is what a pod's containers do in the simulation. Durations are cluster-time
 * milliseconds. Crash and run timings apply to every app container; init containers run for
 * initRunMs and exit 0.
 */
export interface PodBehaviour {
  imagePullMs: number;
  /** Creating and starting a container once its image is present. */
  startupMs: number;
  /** `error`: every pull fails (ErrImagePull, then ImagePullBackOff). */
  imagePull: 'ok' | 'error';
  /** `fail`: containers run but never become ready. */
  readiness: 'ok' | 'fail';
  /** Delay from start to ready; undefined = the container's readinessProbe.initialDelaySeconds, else 0. */
  readyAfterMs: number | undefined;
  /** Run time before a crash with exitCode; undefined = never crashes. */
  crashAfterMs: number | undefined;
  exitCode: number;
  /** Run time before a clean exit (code 0); undefined = runs until stopped. */
  runMs: number | undefined;
  initRunMs: number;
  /** Time a container takes to stop after SIGTERM (capped by the grace period). */
  stopMs: number;
  /** Period of the simulated access-log lines. */
  logIntervalMs: number;
  /** Simulated usage per container (Quantity strings), kept for the metrics pipeline. */
  cpu: string | undefined;
  memory: string | undefined;
}

/** DEFAULT_BEHAVIOUR makes an ordinary nginx pod Running and Ready in about a second. */
export const DEFAULT_BEHAVIOUR: Readonly<PodBehaviour> = Object.freeze({
  imagePullMs: 300,
  startupMs: 300,
  imagePull: 'ok',
  readiness: 'ok',
  readyAfterMs: undefined,
  crashAfterMs: undefined,
  exitCode: 1,
  runMs: undefined,
  initRunMs: 500,
  stopMs: 1000,
  logIntervalMs: 5000,
  cpu: undefined,
  memory: undefined,
});

const seconds = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?$/, 'must be a non-negative number of seconds')
  .transform((text) => Math.round(Number(text) * 1000));
const exitCode = z
  .string()
  .trim()
  .regex(/^\d+$/, 'must be an integer')
  .transform(Number)
  .refine((code) => code <= 255, 'must be between 0 and 255');
const quantity = z.string().refine((text) => {
  try {
    parseQuantity(text);
    return true;
  } catch {
    return false; // The refinement's message carries the complaint.
  }
}, 'must be a quantity such as 250m or 128Mi');

/** ANNOTATIONS maps each annotation (without the prefix) to its parser and the field it sets. */
const ANNOTATIONS = {
  'image-pull-seconds': { field: 'imagePullMs', schema: seconds },
  'startup-seconds': { field: 'startupMs', schema: seconds },
  'image-pull': { field: 'imagePull', schema: z.enum(['ok', 'error']) },
  readiness: { field: 'readiness', schema: z.enum(['ok', 'fail']) },
  'ready-after-seconds': { field: 'readyAfterMs', schema: seconds },
  'crash-after-seconds': { field: 'crashAfterMs', schema: seconds },
  'exit-code': { field: 'exitCode', schema: exitCode },
  'run-seconds': { field: 'runMs', schema: seconds },
  'init-seconds': { field: 'initRunMs', schema: seconds },
  'stop-seconds': { field: 'stopMs', schema: seconds },
  'log-interval-seconds': { field: 'logIntervalMs', schema: seconds.refine((ms) => ms > 0, 'must be positive') },
  cpu: { field: 'cpu', schema: quantity },
  memory: { field: 'memory', schema: quantity },
} as const satisfies Record<string, { field: keyof PodBehaviour; schema: z.ZodType }>;

/** BEHAVIOUR_ANNOTATIONS lists every recognised annotation key (with the prefix). */
export const BEHAVIOUR_ANNOTATIONS: readonly string[] = Object.keys(ANNOTATIONS).map((key) => BEHAVIOUR_PREFIX + key);

/** ParsedBehaviour is a pod's behaviour plus one message per annotation that was ignored. */
export interface ParsedBehaviour {
  behaviour: PodBehaviour;
  problems: string[];
}

/**
 * parseBehaviour reads a pod's `kubesim.io/*` annotations over DEFAULT_BEHAVIOUR. Unknown
 * `kubesim.io/` keys and invalid values are listed in `problems` and otherwise ignored.
 * Pods owned by a Job run JOB_RUN_SECONDS and exit 0 unless an annotation says otherwise.
 * Pure; never throws.
 */
export function parseBehaviour(pod: DeepReadonly<Pod>): ParsedBehaviour {
  const behaviour: PodBehaviour = { ...DEFAULT_BEHAVIOUR };
  const problems: string[] = [];
  if (isJobPod(pod)) behaviour.runMs = JOB_RUN_SECONDS * 1000;
  for (const [key, value] of Object.entries(pod.metadata.annotations ?? {})) {
    if (!key.startsWith(BEHAVIOUR_PREFIX)) continue;
    const name = key.slice(BEHAVIOUR_PREFIX.length);
    const spec = (ANNOTATIONS as Record<string, { field: keyof PodBehaviour; schema: z.ZodType }>)[name];
    if (!spec) {
      problems.push(`${key}: unknown annotation; known: ${BEHAVIOUR_ANNOTATIONS.join(', ')}`);
      continue;
    }
    const parsed = spec.schema.safeParse(value);
    if (parsed.success) (behaviour as unknown as Record<string, unknown>)[spec.field] = parsed.data;
    else problems.push(`${key}: ${JSON.stringify(value)} ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
  }
  return { behaviour, problems };
}

function isJobPod(pod: DeepReadonly<Pod>): boolean {
  return controllerRefOf(pod)?.kind === 'Job';
}
