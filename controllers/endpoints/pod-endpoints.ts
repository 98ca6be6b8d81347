/**
 * Pure questions both endpoint loops ask about a Service and its pods (Kubernetes'
 * pkg/controller/util/endpoint): which pods a Service selects, which of them belong in its
 * endpoints, whether they are ready, and which port a service port reaches on a given pod.
 * Everything here reads cached objects only and never mutates them.
 */
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { Service, ServicePort } from '../../apiserver/api/core/service.js';
import type { DeepReadonly } from '../runtime/types.js';

/** ReadonlyPod is a pod as the informer cache hands it out. */
export type ReadonlyPod = DeepReadonly<Pod>;
/** ReadonlyService is a Service as the informer cache hands it out. */
export type ReadonlyService = DeepReadonly<Service>;

/** TOPOLOGY_ZONE_LABEL is the node label an endpoint's zone comes from. */
export const TOPOLOGY_ZONE_LABEL = 'topology.kubernetes.io/zone';
/** HEADLESS_LABEL marks the endpoints of a headless Service (clusterIP None). */
export const HEADLESS_LABEL = 'service.kubernetes.io/headless';

/** hasSelector is true when the Service selects pods; a Service without one (or with an
 * empty one, which the API round-trips as none) has user-managed endpoints. */
export function hasSelector(service: ReadonlyService): boolean {
  return service.spec?.type !== 'ExternalName' && Object.keys(service.spec?.selector ?? {}).length > 0;
}

/** serviceSelects is true when the Service has a selector and every selector label matches the pod. */
export function serviceSelects(service: ReadonlyService, labels: DeepReadonly<Record<string, string>> | undefined): boolean {
  if (!hasSelector(service)) return false;
  return Object.entries(service.spec?.selector ?? {}).every(([key, value]) => labels?.[key] === value);
}

/** isTerminating is true once the pod has a deletionTimestamp. */
export function isTerminating(pod: ReadonlyPod): boolean {
  return pod.metadata.deletionTimestamp !== undefined;
}

/**
 * shouldPodBeInEndpoints: the pod has an IP, has not finished (Succeeded/Failed), and is not
 * terminating unless `includeTerminating` (EndpointSlices keep terminating pods with their
 * conditions; Endpoints keep them only for publishNotReadyAddresses).
 */
export function shouldPodBeInEndpoints(pod: ReadonlyPod, includeTerminating: boolean): boolean {
  if (!pod.status?.podIP) return false;
  const phase = pod.status.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  return includeTerminating || !isTerminating(pod);
}

/**
 * resolveTargetPort is the port `servicePort` reaches on `pod`: its targetPort number, or the
 * containerPort of the pod's container port with that name and protocol (Kubernetes'
 * podutil.FindPort); undefined when the name is not found.
 */
export function resolveTargetPort(servicePort: DeepReadonly<ServicePort>, pod: ReadonlyPod): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === 'number') return target;
  const asNumber = /^\d+$/.test(target) ? Number(target) : undefined;
  if (asNumber !== undefined) return asNumber;
  const protocol = servicePort.protocol ?? 'TCP';
  for (const container of pod.spec?.containers ?? []) {
    const found = container.ports?.find((p) => p.name === target && (p.protocol ?? 'TCP') === protocol);
    if (found) return found.containerPort;
  }
  return undefined;
}

/** ResolvedPort is one service port as it applies to one pod. */
export interface ResolvedPort {
  name: string;
  port: number;
  protocol: 'TCP' | 'UDP' | 'SCTP';
  appProtocol?: string;
}

/** resolvePorts resolves every port of the Service against `pod`, skipping those whose
 * named target the pod does not expose (as Kubernetes does). */
export function resolvePorts(service: ReadonlyService, pod: ReadonlyPod): ResolvedPort[] {
  const resolved: ResolvedPort[] = [];
  for (const servicePort of service.spec?.ports ?? []) {
    const port = resolveTargetPort(servicePort, pod);
    if (port === undefined) continue;
    const entry: ResolvedPort = { name: servicePort.name ?? '', port, protocol: servicePort.protocol ?? 'TCP' };
    if (servicePort.appProtocol !== undefined) entry.appProtocol = servicePort.appProtocol;
    resolved.push(entry);
  }
  return resolved;
}

/** portsKey identifies a port set regardless of order: endpoints sharing it share a slice or subset. */
export function portsKey(ports: readonly ResolvedPort[]): string {
  return JSON.stringify([...ports].map((p) => [p.name, p.port, p.protocol, p.appProtocol ?? '']).sort());
}

/** podReference is the targetRef of an endpoint backed by `pod`. */
export function podReference(pod: ReadonlyPod): { kind: 'Pod'; namespace: string; name: string; uid: string } {
  return { kind: 'Pod', namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' };
}

/** endpointLabels are the labels of a Service's Endpoints and slices: the Service's own,
 * plus the headless marker for clusterIP None. */
export function endpointLabels(service: ReadonlyService): Record<string, string> {
  const labels: Record<string, string> = { ...(service.metadata.labels ?? {}) };
  if (service.spec?.clusterIP === 'None') labels[HEADLESS_LABEL] = '';
  return labels;
}
