/**
 * core/v1 PodStatus: phase, conditions and per-container state, written by the kubelet
 * (kubelet-sim) through the pods/status subresource. Every field is optional.
 */
import { z } from 'zod';
import { TimeSchema } from '../meta.js';
import { mergeByKey, mergeByKeyAtomic } from '../patch-meta.js';
import { ResourceRequirementsSchema } from './container.js';
import { ResourceListSchema } from './quantity.js';
import { enumOf, K8S_CORE } from './schema-helpers.js';

export const POD_PHASES = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'] as const;
export type PodPhase = (typeof POD_PHASES)[number];

export const QOS_CLASSES = ['Guaranteed', 'Burstable', 'BestEffort'] as const;
export type PodQOSClass = (typeof QOS_CLASSES)[number];

export const CONDITION_STATUSES = ['True', 'False', 'Unknown'] as const;

export const PodConditionSchema = z
  .object({
    type: z.string().describe('Type of the condition: PodScheduled, Initialized, ContainersReady, Ready, or a readiness gate.'),
    status: enumOf(CONDITION_STATUSES).describe('True, False or Unknown.'),
    observedGeneration: z.number().int().optional().describe('The pod generation the condition was computed for.'),
    lastProbeTime: TimeSchema.optional().describe('Last time the condition was probed.'),
    lastTransitionTime: TimeSchema.optional().describe('Last time the condition changed status.'),
    reason: z.string().optional().describe('Machine-readable reason for the last transition.'),
    message: z.string().optional().describe('Human-readable details about the last transition.'),
  })
  .meta({ id: `${K8S_CORE}.PodCondition`, description: "PodCondition is one aspect of the pod's current state." });

export type PodCondition = z.infer<typeof PodConditionSchema>;

export const ContainerStateSchema = z
  .object({
    waiting: z
      .object({
        reason: z.string().optional().describe('Why the container is not yet running, e.g. ContainerCreating or CrashLoopBackOff.'),
        message: z.string().optional().describe('Details about why the container is not yet running.'),
      })
      .meta({ id: `${K8S_CORE}.ContainerStateWaiting` })
      .optional()
      .describe('The container is waiting to start.'),
    running: z
      .object({ startedAt: TimeSchema.optional().describe('When the container last (re)started.') })
      .meta({ id: `${K8S_CORE}.ContainerStateRunning` })
      .optional()
      .describe('The container is running.'),
    terminated: z
      .object({
        exitCode: z.int32().describe('Exit status of the last run.'),
        signal: z.int32().optional().describe('Signal that ended the last run.'),
        reason: z.string().optional().describe('Why the container terminated, e.g. Completed, Error or OOMKilled.'),
        message: z.string().optional().describe('Details about the termination.'),
        startedAt: TimeSchema.optional().describe('When the run started.'),
        finishedAt: TimeSchema.optional().describe('When the run ended.'),
        containerID: z.string().optional().describe('ID of the container, as <type>://<id>.'),
      })
      .meta({ id: `${K8S_CORE}.ContainerStateTerminated` })
      .optional()
      .describe('The container has terminated.'),
  })
  .meta({ id: `${K8S_CORE}.ContainerState`, description: 'The state of a container; at most one member is set (waiting when none is).' });

export type ContainerState = z.infer<typeof ContainerStateSchema>;

export const ContainerStatusSchema = z
  .object({
    name: z.string().describe('Name of the container, as in the pod spec.'),
    state: ContainerStateSchema.optional().describe('Current state of the container.'),
    lastState: ContainerStateSchema.optional().describe('State of the previous run, usually its termination.'),
    ready: z.boolean().describe('Whether the container passes its readiness probe.'),
    restartCount: z.int32().describe('How many times the container has been restarted.'),
    image: z.string().optional().describe('Image the container runs.'),
    imageID: z.string().optional().describe('ID of the image the container runs.'),
    containerID: z.string().optional().describe('ID of the container, as <type>://<id>.'),
    started: z.boolean().optional().describe('Whether the container has passed its startup probe.'),
    allocatedResources: ResourceListSchema.optional().describe('Resources the node allocated to the container.'),
    resources: ResourceRequirementsSchema.optional().describe('Resources actually applied to the running container.'),
  })
  .meta({ id: `${K8S_CORE}.ContainerStatus`, description: 'ContainerStatus is the observed state of one container.' });

export type ContainerStatus = z.infer<typeof ContainerStatusSchema>;

// Both merge by ip in a strategic merge patch; server-side apply keys podIPs by ip but
// treats hostIPs as atomic, following k8s.io/api's list types.
const ipList = (id: string, description: string, meta: ReturnType<typeof mergeByKey> | ReturnType<typeof mergeByKeyAtomic>) =>
  z
    .array(z.object({ ip: z.string().describe('An IP address.') }).meta({ id: `${K8S_CORE}.${id}` }))
    .optional()
    .meta(meta)
    .describe(description);

export const PodStatusSchema = z
  .object({
    observedGeneration: z.number().int().optional().describe('The pod generation this status was written for.'),
    phase: enumOf(POD_PHASES).optional().describe('High-level summary of where the pod is in its lifecycle.'),
    conditions: z.array(PodConditionSchema).optional().meta(mergeByKey('type')).describe('Current service state of the pod.'),
    message: z.string().optional().describe('Human-readable message saying why the pod is in this condition.'),
    reason: z.string().optional().describe("Brief CamelCase reason for the pod's state, e.g. Evicted."),
    nominatedNodeName: z.string().optional().describe('Node the pod is expected to run on once preemption there completes.'),
    hostIP: z.string().optional().describe('IP address of the node the pod runs on.'),
    hostIPs: ipList('HostIP', 'IP addresses of the node; the first equals hostIP.', mergeByKeyAtomic('ip')),
    podIP: z.string().optional().describe('IP address allocated to the pod.'),
    podIPs: ipList('PodIP', 'IP addresses allocated to the pod; the first equals podIP.', mergeByKey('ip')),
    startTime: TimeSchema.optional().describe('When the kubelet acknowledged the pod, before pulling images.'),
    initContainerStatuses: z.array(ContainerStatusSchema).optional().describe('Status of each init container.'),
    containerStatuses: z.array(ContainerStatusSchema).optional().describe('Status of each app container.'),
    ephemeralContainerStatuses: z.array(ContainerStatusSchema).optional().describe('Status of each ephemeral container.'),
    qosClass: enumOf(QOS_CLASSES).optional().describe('Quality of service class, derived from the resource requests and limits.'),
    resize: z.string().optional().describe('Status of a pending in-place resize.'),
  })
  .meta({ id: `${K8S_CORE}.PodStatus`, description: 'PodStatus is the most recently observed state of a pod.' });

export type PodStatus = z.infer<typeof PodStatusSchema>;

/** allContainerStatuses lists the statuses of init, app and ephemeral containers, in that
 * order (container names are unique across the three, so a name finds one). */
export function allContainerStatuses<S>(
  status: { initContainerStatuses?: readonly S[]; containerStatuses?: readonly S[]; ephemeralContainerStatuses?: readonly S[] } | undefined,
): S[] {
  return [...(status?.initContainerStatuses ?? []), ...(status?.containerStatuses ?? []), ...(status?.ephemeralContainerStatuses ?? [])];
}
