/**
 * controllers/job — the Job controller: runs each Job's pods to completion (parallelism,
 * completions, NonIndexed and Indexed), counts finished pods through the job-tracking
 * finalizer, retries failures up to backoffLimit (with pod backoff and podFailurePolicy),
 * enforces activeDeadlineSeconds and suspend, and reports status and conditions as
 * kube-controller-manager's job controller does. reconcile.ts is the loop; track-pods.ts,
 * status.ts, manage-plan.ts and pod-failure-policy.ts are its pure decisions.
 *
 * May import: controllers/runtime/**, apiserver/api/** (and the ReplicaSet controller's
 * generic Expectations). Docs: docs/controllers.md.
 */

export { formatIndexes, missingIndexes, parseIndexes } from './indexes.js';
export { JOB_CONTROLLER_NAME, JOB_EVENT_SOURCE, type JobControllerOptions, jobPodHooks, registerJobController } from './job-controller.js';
export { COMPLETION_INDEX_ANNOTATION, JOB_COMPLETION_INDEX_ENV, JOB_TRACKING_FINALIZER } from './job-pods.js';
export { backoffDelayMs, type ManagePlan, planPods } from './manage-plan.js';
export { type FailurePolicyOutcome, matchPodFailurePolicy } from './pod-failure-policy.js';
export { jobControllerRef, podForJob } from './pod-template.js';
export { createJobReconciler, type JobReconcilerDeps } from './reconcile.js';
export { computeJobStatus, isPastActiveDeadline, type JobStatusResult, type StatusInputs } from './status.js';
export { hasUncounted, type Tracking, type TrackingInput, trackPods } from './track-pods.js';
