/**
 * The endpoints a Service should have in its EndpointSlices (Kubernetes' endpointslice
 * reconciler, first half): one Endpoint per selected pod with an IP of the Service's address
 * family, with ready/serving/terminating conditions, node, zone and a targetRef, grouped by
 * the port set the Service's ports resolve to on that pod. Pure.
 */

import { isPodReady } from '../../apiserver/api/core/pod-conditions.js';
import type { Endpoint, EndpointSlicePort } from '../../apiserver/api/discovery/endpoint-slice.js';
import { isTerminating, podReference, portsKey, type ReadonlyPod, type ReadonlyService, resolvePorts, shouldPodBeInEndpoints } from './pod-endpoints.js';

/** EndpointGroup is the endpoints sharing one port set: the content of one or more slices. */
export interface EndpointGroup {
  ports: EndpointSlicePort[];
  endpoints: Endpoint[];
}

/** ZoneOf tells the zone of a node (its topology.kubernetes.io/zone label), if known. */
export type ZoneOf = (nodeName: string) => string | undefined;

/** addressTypeOf is the slices' address type: the Service's first IP family. */
export function addressTypeOf(service: ReadonlyService): 'IPv4' | 'IPv6' {
  return service.spec?.ipFamilies?.[0] === 'IPv6' ? 'IPv6' : 'IPv4';
}

/**
 * podEndpoint is the Endpoint backed by `pod` (Kubernetes' podToEndpoint): serving when the
 * pod is Ready, terminating once it has a deletionTimestamp, ready when serving and not
 * terminating; publishNotReadyAddresses makes every endpoint ready and serving.
 */
export function podEndpoint(service: ReadonlyService, pod: ReadonlyPod, zoneOf: ZoneOf): Endpoint {
  const publishNotReady = service.spec?.publishNotReadyAddresses === true;
  const serving = publishNotReady || isPodReady(pod);
  const terminating = isTerminating(pod);
  const endpoint: Endpoint = {
    addresses: [pod.status?.podIP ?? ''],
    conditions: { ready: publishNotReady || (serving && !terminating), serving, terminating },
    targetRef: podReference(pod),
  };
  const nodeName = pod.spec?.nodeName;
  if (nodeName) {
    endpoint.nodeName = nodeName;
    const zone = zoneOf(nodeName);
    if (zone) endpoint.zone = zone;
  }
  return endpoint;
}

/** desiredEndpointGroups maps each port set (portsKey) to the endpoints that resolve to it,
 * endpoints in pod-name order. */
export function desiredEndpointGroups(service: ReadonlyService, pods: readonly ReadonlyPod[], zoneOf: ZoneOf): Map<string, EndpointGroup> {
  const ipv6 = addressTypeOf(service) === 'IPv6';
  const hasPorts = (service.spec?.ports ?? []).length > 0;
  const groups = new Map<string, EndpointGroup>();
  const sorted = [...pods].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  for (const pod of sorted) {
    if (!shouldPodBeInEndpoints(pod, true) || (pod.status?.podIP ?? '').includes(':') !== ipv6) continue;
    const ports = resolvePorts(service, pod);
    if (hasPorts && ports.length === 0) continue;
    const key = portsKey(ports);
    const group = groups.get(key) ?? { ports: ports.map((p) => ({ ...p })), endpoints: [] };
    groups.set(key, group);
    group.endpoints.push(podEndpoint(service, pod, zoneOf));
  }
  return groups;
}

/** slicePortsKey is portsKey for ports as stored in a slice. */
export function slicePortsKey(ports: readonly { name?: string; port?: number; protocol?: string; appProtocol?: string }[] | undefined): string {
  return portsKey(
    (ports ?? []).map((p) => ({
      name: p.name ?? '',
      port: p.port ?? 0,
      protocol: (p.protocol ?? 'TCP') as 'TCP',
      ...(p.appProtocol !== undefined ? { appProtocol: p.appProtocol } : {}),
    })),
  );
}
