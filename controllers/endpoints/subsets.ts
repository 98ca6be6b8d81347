/**
 * The subsets of a core/v1 Endpoints object (Kubernetes' endpoints controller plus
 * endpoints.RepackSubsets): every selected pod with an IP, per resolved port set, ready ones
 * under `addresses`, the others under `notReadyAddresses`; addresses sorted by IP, subsets by
 * their first address, so the result is stable and comparable with what is stored.
 */
import type { EndpointAddress, EndpointPort, EndpointSubset } from '../../apiserver/api/core/endpoints.js';
import { isPodReady } from '../../apiserver/api/core/pod-conditions.js';
import { podReference, portsKey, type ReadonlyPod, type ReadonlyService, type ResolvedPort, resolvePorts, shouldPodBeInEndpoints } from './pod-endpoints.js';

interface SubsetBuilder {
  ports: ResolvedPort[];
  ready: EndpointAddress[];
  notReady: EndpointAddress[];
}

/** computeSubsets returns the desired subsets of `service`'s Endpoints given the pods its selector matches. */
export function computeSubsets(service: ReadonlyService, pods: readonly ReadonlyPod[]): EndpointSubset[] {
  const publishNotReady = service.spec?.publishNotReadyAddresses === true;
  const hasPorts = (service.spec?.ports ?? []).length > 0;
  const groups = new Map<string, SubsetBuilder>();
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
    const ports = resolvePorts(service, pod);
    // A pod exposing none of the service's named ports is not an endpoint of it.
    if (hasPorts && ports.length === 0) continue;
    const key = portsKey(ports);
    const group = groups.get(key) ?? { ports, ready: [], notReady: [] };
    groups.set(key, group);
    (publishNotReady || isPodReady(pod) ? group.ready : group.notReady).push(podAddress(pod));
  }
  return [...groups.values()].map(toSubset).sort((a, b) => compare(firstIp(a), firstIp(b)));
}

function podAddress(pod: ReadonlyPod): EndpointAddress {
  const address: EndpointAddress = { ip: pod.status?.podIP ?? '', targetRef: podReference(pod) };
  if (pod.spec?.nodeName) address.nodeName = pod.spec.nodeName;
  return address;
}

function toSubset({ ports, ready, notReady }: SubsetBuilder): EndpointSubset {
  const subset: EndpointSubset = {};
  if (ready.length > 0) subset.addresses = ready.sort(byIp);
  if (notReady.length > 0) subset.notReadyAddresses = notReady.sort(byIp);
  if (ports.length > 0) subset.ports = ports.map(toEndpointPort).sort((a, b) => compare(a.name ?? '', b.name ?? '') || a.port - b.port);
  return subset;
}

function toEndpointPort(port: ResolvedPort): EndpointPort {
  const out: EndpointPort = { name: port.name, port: port.port, protocol: port.protocol };
  if (port.name === '') delete out.name;
  if (port.appProtocol !== undefined) out.appProtocol = port.appProtocol;
  return out;
}

function firstIp(subset: EndpointSubset): string {
  return subset.addresses?.[0]?.ip ?? subset.notReadyAddresses?.[0]?.ip ?? '';
}

function byIp(a: EndpointAddress, b: EndpointAddress): number {
  return compare(a.ip, b.ip);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
