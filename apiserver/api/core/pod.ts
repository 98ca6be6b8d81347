/** core/v1 Pod: a group of containers scheduled together onto one node. */
import { z } from 'zod';
import { deepEqual } from '../deep-equal.js';
import { KIND_IDS } from '../kind-refs.js';
import { typeMetaFields } from '../meta.js';
import { age, ageColumn, column, nameColumn, orNone } from '../printing.js';
import type { DeleteRequest, FieldError, KindStrategy, PrintColumn, PrintContext, ResourceDefinition } from '../resource-definition.js';
import { forbidden } from '../validation.js';
import type { Container } from './container.js';
import { validateEphemeralContainers, validateEphemeralContainersOnCreate, validateEphemeralContainersUpdate } from './ephemeral-containers-validation.js';
import { syncAppArmorAnnotations, validateAppArmorMatch } from './pod-apparmor.js';
import { defaultPod } from './pod-defaults.js';
import { PodMessage } from './pod-protobuf.js';
import { type PodSpec, PodSpecSchema } from './pod-spec.js';
import { validatePodSpec } from './pod-spec-validation.js';
import { type ContainerStatus, PodStatusSchema } from './pod-status.js';
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

/** podChangeErrors: what a create, an update or an ephemeralcontainers write may not do.
 * Ephemeral containers are added only through their subresource (which may change nothing
 * else), so an update of the pod itself that touches them is refused like any spec change. */
function podChangeErrors(pod: Pod, old: Pod | undefined, subresource: string | undefined): FieldError[] {
  if (!old) return [...validateEphemeralContainersOnCreate(pod.spec), ...validateAppArmorMatch(pod)];
  return subresource === 'ephemeralcontainers' ? validateEphemeralContainersUpdate(pod, old) : validatePodUpdate(pod, old);
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
  // NOTE: nodeName is set once through pods/binding; allowing '' → node here keeps a binding
  // handler that reuses update validation working.
  if (!old.nodeName) delete copy.nodeName;
  return copy;
}

const DEFAULT_GRACE_SECONDS = 30;

/** Pods are deleted gracefully once scheduled: the kubelet stops the containers and then
 * confirms with a delete of grace period 0. Unscheduled and finished pods go at once. */
const podStrategy: KindStrategy = {
  returnDeletedObject: true,
  beforeCreate: (object, ctx) => syncAppArmorAnnotations(object as unknown as Pod, ctx),
  gracePeriodSeconds(object, request: DeleteRequest): number | undefined {
    const pod = object as unknown as Pod;
    const phase = pod.status?.phase;
    if (!pod.spec?.nodeName || phase === 'Succeeded' || phase === 'Failed') return undefined;
    const grace = request.gracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
    return grace > 0 ? grace : undefined;
  },
};

/*
 * The pod Table row, after kube's printPod: the READY count, the STATUS reason with all its
 * overrides (Init:x/y, CrashLoopBackOff, Completed, Terminating, ...), RESTARTS with the time
 * of the last restart, and the wide IP / node / readiness-gate columns.
 */

/** NODE_LOST_REASON is the status.reason the node lifecycle controller sets on pods of an
 * unreachable node; a deleting pod with it prints as Unknown. */
export const NODE_LOST_REASON = 'NodeLost';

/** PodSummary is what the Ready, Status and Restarts cells show. */
export interface PodSummary {
  ready: string;
  status: string;
  restarts: string;
}

interface Tally {
  reason: string;
  readyCount: number;
  restarts: number;
  lastRestartMs: number;
}

/** summarizePod computes the Ready, Status and Restarts cells of a pod. Pure; tolerates
 * partially filled objects. */
export function summarizePod(pod: Pod, context: PrintContext): PodSummary {
  const initContainers = new Map((pod.spec?.initContainers ?? []).map((c) => [c.name, c]));
  const sidecars = [...initContainers.values()].filter(isSidecar).length;
  const tally: Tally = { reason: initialReason(pod), readyCount: 0, restarts: 0, lastRestartMs: 0 };
  const initializing = tallyInitContainers(pod, initContainers, tally);
  if (!initializing || hasTrueCondition(pod, 'Initialized')) tallyContainers(pod, initContainers, tally);
  const terminal = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
  if (pod.metadata.deletionTimestamp && pod.status?.reason === NODE_LOST_REASON) tally.reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && !terminal) tally.reason = 'Terminating';
  const total = (pod.spec?.containers?.length ?? 0) + sidecars;
  const since = tally.lastRestartMs ? age(new Date(tally.lastRestartMs).toISOString(), context) : '';
  const restarts = tally.restarts !== 0 && since ? `${tally.restarts} (${since} ago)` : String(tally.restarts);
  return { ready: `${tally.readyCount}/${total}`, status: tally.reason, restarts };
}

function initialReason(pod: Pod): string {
  let reason = pod.status?.reason || pod.status?.phase || '';
  for (const condition of pod.status?.conditions ?? []) {
    if (condition.type === 'PodScheduled' && condition.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }
  return reason;
}

/** tallyInitContainers walks init container statuses up to the first one still pending or
 * failed and reports whether the pod is still initializing. */
function tallyInitContainers(pod: Pod, specs: Map<string, Container>, tally: Tally): boolean {
  const statuses = pod.status?.initContainerStatuses ?? [];
  const count = pod.spec?.initContainers?.length ?? 0;
  for (const [i, status] of statuses.entries()) {
    tally.restarts += status.restartCount ?? 0;
    noteLastRestart(status, tally);
    const { terminated, waiting } = status.state ?? {};
    if (terminated && terminated.exitCode === 0) continue;
    if (isSidecar(specs.get(status.name)) && status.started) {
      if (status.ready) tally.readyCount++;
      continue;
    }
    if (terminated) tally.reason = `Init:${terminationReason(terminated)}`;
    else if (waiting?.reason && waiting.reason !== 'PodInitializing') tally.reason = `Init:${waiting.reason}`;
    else tally.reason = `Init:${i}/${count}`;
    return true;
  }
  return false;
}

/** tallyContainers restarts the count from the sidecars only (plain init containers' restarts
 * no longer matter) and lets the app containers override the reason, last container first. */
function tallyContainers(pod: Pod, specs: Map<string, Container>, tally: Tally): void {
  tally.restarts = 0;
  tally.lastRestartMs = 0;
  for (const status of pod.status?.initContainerStatuses ?? []) {
    if (!isSidecar(specs.get(status.name))) continue;
    tally.restarts += status.restartCount ?? 0;
    noteLastRestart(status, tally);
  }
  let hasRunning = false;
  for (const status of [...(pod.status?.containerStatuses ?? [])].reverse()) {
    tally.restarts += status.restartCount ?? 0;
    noteLastRestart(status, tally);
    const { terminated, waiting, running } = status.state ?? {};
    if (waiting?.reason) tally.reason = waiting.reason;
    else if (terminated) tally.reason = terminationReason(terminated);
    else if (status.ready && running) {
      hasRunning = true;
      tally.readyCount++;
    }
  }
  // A "Completed" container next to one still running means a partial completion.
  if (tally.reason === 'Completed' && hasRunning) tally.reason = hasTrueCondition(pod, 'Ready') ? 'Running' : 'NotReady';
}

function terminationReason(terminated: { reason?: string | undefined; signal?: number | undefined; exitCode: number }): string {
  if (terminated.reason) return terminated.reason;
  return terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode}`;
}

function noteLastRestart(status: ContainerStatus, tally: Tally): void {
  const finishedAt = status.lastState?.terminated?.finishedAt;
  const at = finishedAt ? Date.parse(finishedAt) : NaN;
  if (!Number.isNaN(at) && at > tally.lastRestartMs) tally.lastRestartMs = at;
}

function isSidecar(container: Container | undefined): boolean {
  return container?.restartPolicy === 'Always';
}

function hasTrueCondition(pod: Pod, type: string): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/** readinessGatesCell renders `true/total` over spec.readinessGates, `<none>` without gates. */
export function readinessGatesCell(pod: Pod): string {
  const gates = pod.spec?.readinessGates ?? [];
  if (gates.length === 0) return '<none>';
  const conditions = pod.status?.conditions ?? [];
  const passed = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True').length;
  return `${passed}/${gates.length}`;
}

/** podColumns are the pod Table columns (docs/kubectl-wire.md, "Tables"). */
export const podColumns: PrintColumn[] = [
  nameColumn,
  column('Ready', (pod: Pod, ctx) => summarizePod(pod, ctx).ready, {
    description: 'The aggregate readiness state of this pod for accepting traffic.',
  }),
  column('Status', (pod: Pod, ctx) => summarizePod(pod, ctx).status, {
    description: 'The aggregate status of the containers in this pod.',
  }),
  column('Restarts', (pod: Pod, ctx) => summarizePod(pod, ctx).restarts, {
    type: 'integer',
    description: 'How many times the containers of this pod restarted, and how long ago the last restart was.',
  }),
  ageColumn,
  column('IP', (pod: Pod) => orNone(pod.status?.podIPs?.[0]?.ip), { wide: true, description: 'IP address allocated to the pod.' }),
  column('Node', (pod: Pod) => orNone(pod.spec?.nodeName), { wide: true, description: 'The node the pod is bound to.' }),
  column('Nominated Node', (pod: Pod) => orNone(pod.status?.nominatedNodeName), {
    wide: true,
    description: 'The node the pod is expected to run on once preemption completes.',
  }),
  column('Readiness Gates', readinessGatesCell, { wide: true, description: 'Readiness gates that are True, out of all gates.' }),
];

export const podDefinition: ResourceDefinition<Pod> = {
  ...KIND_IDS.pod,
  singular: 'pod',
  shortNames: ['po'],
  categories: ['all'],
  schema: PodSchema,
  defaults: defaultPod,
  validate: (pod, old, subresource) => [
    ...validatePodSpec(pod.spec, 'spec'),
    ...validateEphemeralContainers(pod.spec, 'spec'),
    ...podChangeErrors(pod, old, subresource),
  ],
  strategy: podStrategy,
  tracksGeneration: false,
  subresources: { status: true, extra: ['binding', 'log', 'eviction', 'ephemeralcontainers'] },
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
  protobuf: PodMessage,
  liveView: 'pods',
  storage: { resource: 'pods' },
};
