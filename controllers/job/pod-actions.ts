/**
 * The Job controller's writes to pods: create from the template (ticking off expectations on
 * failure), release the job-tracking finalizer (a JSON patch that tests the finalizer is still
 * where it was, so a concurrent edit makes it fail rather than clobber), and delete pods the
 * controller terminates itself — releasing them first, because pods the Job removes on
 * purpose (suspend, decided outcome, surplus) must not count as failures.
 */

import { isNotFound } from '../../apiserver/api/api-error.js';
import type { Job } from '../../apiserver/api/batch/index.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { Expectations } from '../runtime/expectations.js';
import type { DeepReadonly, EventRecorder, ResourceClient } from '../runtime/types.js';
import { JOB_TRACKING_FINALIZER, type ReadonlyPod } from './job-pods.js';
import { podForJob } from './pod-template.js';

/** PodActionDeps are what the pod writes need. `pendingRemovals` holds the uids of pods whose
 * finalizer removal was issued (an optimisation a restart may drop). */
export interface PodActionDeps {
  pods: ResourceClient<Pod>;
  recorder: EventRecorder;
  expectations: Expectations;
  pendingRemovals: Set<string>;
}

/** createJobPods creates one pod per entry of `indexes` (undefined for NonIndexed), in
 * parallel. Throws the first error after all settled; every failed create is ticked off. */
export async function createJobPods(deps: PodActionDeps, job: DeepReadonly<Job>, key: string, indexes: ReadonlyArray<number | undefined>): Promise<void> {
  deps.expectations.expectCreations(key, indexes.length);
  const results = await Promise.allSettled(indexes.map((index) => deps.pods.create(podForJob(job, index))));
  let firstError: unknown;
  for (const result of results) {
    if (result.status === 'fulfilled') {
      deps.recorder.event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${result.value.metadata.name}`);
      continue;
    }
    deps.expectations.creationObserved(key);
    firstError ??= result.reason;
    deps.recorder.event(job, 'Warning', 'FailedCreate', `Error creating: ${String(result.reason)}`);
  }
  if (firstError !== undefined) throw firstError;
}

/** releasePods removes the job-tracking finalizer from `pods` (already-gone pods are fine). */
export async function releasePods(deps: PodActionDeps, pods: readonly ReadonlyPod[]): Promise<void> {
  await Promise.all(pods.map((pod) => releasePod(deps, pod)));
}

async function releasePod(deps: PodActionDeps, pod: ReadonlyPod): Promise<void> {
  const index = (pod.metadata.finalizers ?? []).indexOf(JOB_TRACKING_FINALIZER);
  if (index < 0) return;
  const path = `/metadata/finalizers/${index}`;
  const patch = [
    { op: 'test', path, value: JOB_TRACKING_FINALIZER },
    { op: 'remove', path },
  ];
  // Marked before the write: the watch event of the patched pod may arrive before it returns.
  const uid = pod.metadata.uid ?? '';
  deps.pendingRemovals.add(uid);
  try {
    await deps.pods.patch(pod.metadata.namespace ?? '', pod.metadata.name ?? '', patch, { type: 'json' });
  } catch (err) {
    deps.pendingRemovals.delete(uid);
    if (!isNotFound(err)) throw err;
  }
}

/** deletePods releases and then deletes `pods`, recording SuccessfulDelete events. */
export async function deletePods(deps: PodActionDeps, job: DeepReadonly<Job>, pods: readonly ReadonlyPod[]): Promise<void> {
  await releasePods(deps, pods);
  await Promise.all(
    pods.map(async (pod) => {
      try {
        await deps.pods.delete(pod.metadata.namespace ?? '', pod.metadata.name ?? '', { preconditions: { uid: pod.metadata.uid ?? '' } });
        deps.recorder.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }),
  );
}
