/**
 * The pod a Job creates: its template's labels, annotations and spec, a controller
 * reference to the Job, the job-tracking finalizer, and — for Indexed Jobs — the completion
 * index as annotation, label, hostname `<job>-<index>` and the JOB_COMPLETION_INDEX env var
 * in every container (read from the annotation through the downward API, as Kubernetes
 * does). Pure.
 */
import type { Job } from '../../apiserver/api/batch/index.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { newControllerRef } from '../../apiserver/api/machinery/owner-references.js';
import type { OwnerReference } from '../../apiserver/api/meta.js';
import type { DeepReadonly } from '../runtime/types.js';
import { COMPLETION_INDEX_ANNOTATION, JOB_COMPLETION_INDEX_ENV, JOB_TRACKING_FINALIZER } from './job-pods.js';

type ReadonlyJob = DeepReadonly<Job>;

/** jobControllerRef is the ownerReference every pod of the Job carries. */
export function jobControllerRef(job: ReadonlyJob): OwnerReference {
  return newControllerRef(job, 'batch/v1', 'Job');
}

/** podForJob builds the pod to create for `job` (and `index`, for Indexed Jobs). */
export function podForJob(job: ReadonlyJob, index?: number): Pod {
  const template = structuredClone(job.spec.template) as Job['spec']['template'];
  const name = job.metadata.name ?? '';
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: index === undefined ? `${name}-` : `${name}-${index}-`,
      namespace: job.metadata.namespace,
      labels: { ...template.metadata?.labels },
      annotations: { ...template.metadata?.annotations },
      ownerReferences: [jobControllerRef(job)],
      finalizers: [JOB_TRACKING_FINALIZER],
    },
    spec: template.spec,
  };
  if (index !== undefined) addCompletionIndex(pod, name, index);
  return pod;
}

function addCompletionIndex(pod: Pod, jobName: string, index: number): void {
  const text = String(index);
  pod.metadata.annotations = { ...pod.metadata.annotations, [COMPLETION_INDEX_ANNOTATION]: text };
  pod.metadata.labels = { ...pod.metadata.labels, [COMPLETION_INDEX_ANNOTATION]: text };
  pod.spec.hostname ??= `${jobName}-${text}`;
  const env = {
    name: JOB_COMPLETION_INDEX_ENV,
    valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: `metadata.annotations['${COMPLETION_INDEX_ANNOTATION}']` } },
  };
  for (const container of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
    if ((container.env ?? []).some((e) => e.name === JOB_COMPLETION_INDEX_ENV)) continue;
    container.env = [...(container.env ?? []), env];
  }
}
