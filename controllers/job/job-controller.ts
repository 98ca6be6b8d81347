/**
 * The Job controller's wiring: Job and Pod informers (a pod wakes the Job controlling it, and
 * ticks off expectations), and the reconciler (reconcile.ts). No decisions here.
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import { type EventHooks, newControllerManagedBy } from '../runtime/builder.js';
import { createComponentRecorder } from '../runtime/component-recorder.js';
import type { Controller } from '../runtime/controller.js';
import { createExpectations, type Expectations } from '../runtime/expectations.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import type { DeepReadonly } from '../runtime/types.js';
import { hasTrackingFinalizer, indexByJobUid, JOB_UID_INDEX } from './job-pods.js';
import { createJobReconciler } from './reconcile.js';

/** JOB_CONTROLLER_NAME names the controller in logs; JOB_EVENT_SOURCE is its events' source. */
export const JOB_CONTROLLER_NAME = 'job';
export const JOB_EVENT_SOURCE = 'job-controller';

/** JobControllerOptions configures registerJobController. */
export interface JobControllerOptions {
  /** Concurrent reconciles. Default 5, as kube-controller-manager's --concurrent-job-syncs. */
  workers?: number;
}

/**
 * registerJobController adds the Job controller to `manager` (shared Job and Pod informers,
 * the pods indexed by their Job's uid). Call before manager.start(). Returns the controller.
 */
export function registerJobController(manager: Manager, { workers = 5 }: JobControllerOptions = {}): Controller {
  // In-memory optimisations only: a restarted controller starts without them on purpose.
  const expectations = createExpectations({ clock: manager.clock });
  const pendingRemovals = new Set<string>();
  return newControllerManagedBy(manager)
    .named(JOB_CONTROLLER_NAME)
    .for(KINDS.job)
    .owns(KINDS.pod, { hooks: jobPodHooks({ expectations, pendingRemovals }) })
    .withIndexer(KINDS.pod, JOB_UID_INDEX, indexByJobUid)
    .workers(workers)
    .complete(({ lister }) =>
      createJobReconciler({
        jobLister: lister(KINDS.job),
        podLister: lister(KINDS.pod),
        jobs: manager.client.resource(KINDS.job),
        pods: manager.client.resource(KINDS.pod),
        recorder: createComponentRecorder(manager, JOB_EVENT_SOURCE),
        expectations,
        pendingRemovals,
        writtenVersions: new Map(),
        clock: manager.clock,
      }),
    );
}

interface PodHookDeps {
  expectations: Expectations;
  pendingRemovals: Set<string>;
}

/** jobPodHooks do what a pod event means beyond waking its Job: a new pod ticks off a
 * creation, and a pod seen without its finalizer (or deleted) clears its pending removal. */
export function jobPodHooks({ expectations, pendingRemovals }: PodHookDeps): EventHooks<Pod> {
  const settle = (pod: DeepReadonly<Pod>, gone: boolean) => {
    if (gone || !hasTrackingFinalizer(pod)) pendingRemovals.delete(pod.metadata.uid ?? '');
  };
  return {
    onAdd: (pod, jobKeys) => {
      settle(pod, false);
      for (const key of jobKeys) expectations.creationObserved(key);
    },
    onUpdate: (_old, pod) => settle(pod, false),
    onDelete: (pod) => settle(pod, true),
  };
}
