/** core/v1 Pod: a group of containers scheduled together onto one node. */
import { z } from 'zod';
import { deepEqual } from '../deep-equal.js';
import { typeMetaFields } from '../meta.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { forbidden } from '../validation.js';
import { defaultPod } from './pod-defaults.js';
import { podColumns } from './pod-printing.js';
import { type PodSpec, PodSpecSchema, validatePodSpec } from './pod-spec.js';
import { PodStatusSchema } from './pod-status.js';
import { K8S_CORE } from './schema-helpers.js';

export const PodSchema = z
  .object({
    ...typeMetaFields('v1', 'Pod'),
    spec: PodSpecSchema.describe('Desired behaviour of the pod.'),
    status: PodStatusSchema.optional().describe('Most recently observed status of the pod. Written by the system.'),
  })
  .meta({
    id: `${K8S_CORE}.Pod`,
    description: 'Pod is a collection of containers that run together on one host. Clients create pods; the scheduler and kubelet run them.',
  });

export type Pod = z.infer<typeof PodSchema>;

const IMMUTABLE_SPEC_MESSAGE =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** validatePodUpdate enforces that a pod's spec is immutable apart from container images,
 * activeDeadlineSeconds, added tolerations and scheduling gate removal. */
function validatePodUpdate(pod: Pod, old: Pod): FieldError[] {
  const errors: FieldError[] = [];
  const oldTolerations = old.spec.tolerations ?? [];
  const kept = oldTolerations.every((t) => (pod.spec.tolerations ?? []).some((n) => deepEqual(n, t)));
  if (!kept) errors.push(forbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds'));
  if (!deepEqual(mutableFieldsCleared(pod.spec, old.spec), mutableFieldsCleared(old.spec, old.spec))) {
    errors.push(forbidden('spec', IMMUTABLE_SPEC_MESSAGE));
  }
  return errors;
}

function mutableFieldsCleared(spec: PodSpec, old: PodSpec): PodSpec {
  const copy = structuredClone(spec);
  const clearImages = (containers: Array<{ image?: string | undefined }> | undefined) => {
    for (const container of containers ?? []) delete container.image;
  };
  clearImages(copy.containers);
  clearImages(copy.initContainers);
  delete copy.activeDeadlineSeconds;
  delete copy.tolerations;
  delete copy.schedulingGates;
  delete copy.ephemeralContainers;
  // NOTE: nodeName is set once through pods/binding; allowing '' → node here keeps a binding
  // handler that reuses update validation working.
  if (!old.nodeName) delete copy.nodeName;
  return copy;
}

export const podDefinition: ResourceDefinition<Pod> = {
  group: '',
  version: 'v1',
  kind: 'Pod',
  plural: 'pods',
  singular: 'pod',
  shortNames: ['po'],
  categories: ['all'],
  namespaced: true,
  schema: PodSchema,
  defaults: defaultPod,
  validate: (pod, old) => [...validatePodSpec(pod.spec, 'spec'), ...(old ? validatePodUpdate(pod, old) : [])],
  tracksGeneration: false,
  subresources: { status: true, extra: ['binding', 'log', 'eviction'] },
  printColumns: podColumns,
  fieldSelectors: {
    'spec.nodeName': (pod) => pod.spec.nodeName ?? '',
    'spec.restartPolicy': (pod) => pod.spec.restartPolicy ?? '',
    'spec.schedulerName': (pod) => pod.spec.schedulerName ?? '',
    'spec.serviceAccountName': (pod) => pod.spec.serviceAccountName ?? '',
    'spec.hostNetwork': (pod) => String(pod.spec.hostNetwork ?? false),
    'status.phase': (pod) => pod.status?.phase ?? '',
    'status.podIP': (pod) => pod.status?.podIP ?? pod.status?.podIPs?.[0]?.ip ?? '',
    'status.nominatedNodeName': (pod) => pod.status?.nominatedNodeName ?? '',
  },
  storage: { resource: 'pods' },
};
