/**
 * The TTL-after-finished controller (kube-controller-manager's ttlafterfinished): deletes a
 * Job `spec.ttlSecondsAfterFinished` seconds after it finished (the lastTransitionTime of its
 * Complete or Failed condition), with foreground propagation so the garbage collector removes
 * its pods first. Before deleting it re-reads the Job from the API server, as Kubernetes does:
 * a cached Job may be stale (the user may just have extended the TTL).
 */
import { isNotFound } from '../../apiserver/api/api-error.js';

import { hasJobCondition, type Job } from '../../apiserver/api/batch/index.js';
import { newControllerManagedBy } from '../runtime/builder.js';
import type { Controller } from '../runtime/controller.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import type { Clock, DeepReadonly, Lister, Reconciler, Request, ResourceClient, Result } from '../runtime/types.js';

/** TTL_AFTER_FINISHED_CONTROLLER_NAME names the controller in logs. */
export const TTL_AFTER_FINISHED_CONTROLLER_NAME = 'ttl-after-finished';

/** expiresAtMs is when a finished Job with a TTL may be deleted; undefined when it has no TTL
 * or has not finished. Pure. */
export function expiresAtMs(job: DeepReadonly<Job>): number | undefined {
  const ttl = job.spec.ttlSecondsAfterFinished;
  if (ttl === undefined || job.metadata.deletionTimestamp) return undefined;
  const finished = (job.status?.conditions ?? []).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  if (!finished) return undefined;
  const at = Date.parse(finished.lastTransitionTime ?? job.status?.completionTime ?? '');
  return Number.isNaN(at) ? undefined : at + ttl * 1000;
}

/** TtlReconcilerDeps are the reconciler's collaborators. */
export interface TtlReconcilerDeps {
  jobLister: Lister<Job>;
  jobs: ResourceClient<Job>;
  clock: Clock;
}

/** createTtlAfterFinishedReconciler returns a Reconciler that deletes expired Jobs and
 * requeues the others for the moment they expire. */
export function createTtlAfterFinishedReconciler(deps: TtlReconcilerDeps): Reconciler {
  return { reconcile: (request) => processJob(deps, request) };
}

async function processJob(deps: TtlReconcilerDeps, request: Request): Promise<Result> {
  const cached = deps.jobLister.get(request.namespace, request.name);
  const cachedExpiry = cached && expiresAtMs(cached);
  if (cachedExpiry === undefined) return {};
  if (cachedExpiry > deps.clock.now()) return { requeueAfterMs: cachedExpiry - deps.clock.now() };
  let fresh: Job;
  try {
    fresh = await deps.jobs.get(request.namespace, request.name);
  } catch (err) {
    if (isNotFound(err)) return {};
    throw err;
  }
  const expiry = expiresAtMs(fresh);
  if (expiry === undefined) return {};
  if (expiry > deps.clock.now()) return { requeueAfterMs: expiry - deps.clock.now() };
  try {
    await deps.jobs.delete(request.namespace, request.name, { propagationPolicy: 'Foreground', preconditions: { uid: fresh.metadata.uid ?? '' } });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  return {};
}

/** registerTtlAfterFinishedController adds the controller to `manager` (a Job informer).
 * Only finished Jobs with a TTL are enqueued, and a deleted Job needs nothing. */
export function registerTtlAfterFinishedController(manager: Manager, { workers = 5 }: { workers?: number } = {}): Controller {
  return newControllerManagedBy(manager)
    .named(TTL_AFTER_FINISHED_CONTROLLER_NAME)
    .for(KINDS.job, { predicates: { add: finishedWithTtl, update: (_old, job) => finishedWithTtl(job), delete: () => false } })
    .workers(workers)
    .complete(({ lister }) =>
      createTtlAfterFinishedReconciler({ jobLister: lister(KINDS.job), jobs: manager.client.resource(KINDS.job), clock: manager.clock }),
    );
}

function finishedWithTtl(job: DeepReadonly<Job>): boolean {
  return job.spec.ttlSecondsAfterFinished !== undefined && (hasJobCondition(job, 'Complete') || hasJobCondition(job, 'Failed'));
}
