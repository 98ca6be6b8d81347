/**
 * The Job controller's wiring: Job and Pod informers, handlers that only enqueue the owning
 * Job's key (and tick off expectations), and the reconciler (reconcile.ts). No decisions here.
 */
import { type Job, jobDefinition } from '../../apiserver/api/batch/index.js';
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import { createComponentRecorder } from '../runtime/component-recorder.js';
import { type Controller, createController } from '../runtime/controller.js';
import { createExpectations, type Expectations } from '../runtime/expectations.js';
import type { Manager } from '../runtime/manager.js';
import { keyOf } from '../runtime/reconciler.js';
import type { DeepReadonly, EventHandlers, WorkQueue } from '../runtime/types.js';
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
  const jobInformer = manager.informer(jobDefinition);
  const podInformer = manager.informer(podDefinition);
  podInformer.addIndexer(JOB_UID_INDEX, indexByJobUid);
  // In-memory optimisations only: a restarted controller starts without them on purpose.
  const expectations = createExpectations({ clock: manager.clock });
  const pendingRemovals = new Set<string>();
  const reconciler = createJobReconciler({
    jobLister: jobInformer.lister,
    podLister: podInformer.lister,
    jobs: manager.client.resource(jobDefinition),
    pods: manager.client.resource(podDefinition),
    recorder: createComponentRecorder(manager, JOB_EVENT_SOURCE),
    expectations,
    pendingRemovals,
    writtenVersions: new Map(),
    clock: manager.clock,
  });
  const controller = createController({
    name: JOB_CONTROLLER_NAME,
    reconciler,
    workers,
    clock: manager.clock,
    logger: manager.logger,
    random: manager.random.fork(JOB_CONTROLLER_NAME),
  });
  const enqueue = (job: DeepReadonly<Job>) => controller.queue.add(keyOf(job));
  jobInformer.addEventHandlers({ onAdd: enqueue, onUpdate: (_old, job) => enqueue(job), onDelete: enqueue });
  podInformer.addEventHandlers(jobPodHandlers({ queue: controller.queue, expectations, pendingRemovals }));
  manager.add(controller);
  return controller;
}

interface PodHandlerDeps {
  queue: WorkQueue;
  expectations: Expectations;
  pendingRemovals: Set<string>;
}

/** jobPodHandlers enqueue the Job controlling a pod; a new pod ticks off a creation, and a
 * pod seen without its finalizer (or deleted) clears its pending removal. */
export function jobPodHandlers({ queue, expectations, pendingRemovals }: PodHandlerDeps): EventHandlers<Pod> {
  const jobKeyOf = (pod: DeepReadonly<Pod>) => {
    const ref = pod.metadata.ownerReferences?.find((r) => r.controller === true && r.kind === 'Job');
    return ref ? keyOf({ metadata: { namespace: pod.metadata.namespace, name: ref.name } }) : undefined;
  };
  const settle = (pod: DeepReadonly<Pod>, gone: boolean) => {
    if (gone || !hasTrackingFinalizer(pod)) pendingRemovals.delete(pod.metadata.uid ?? '');
    const key = jobKeyOf(pod);
    if (key !== undefined) queue.add(key);
    return key;
  };
  return {
    onAdd: (pod) => {
      const key = settle(pod, false);
      if (key !== undefined) expectations.creationObserved(key);
    },
    onUpdate: (_old, pod) => void settle(pod, false),
    onDelete: (pod) => void settle(pod, true),
  };
}
