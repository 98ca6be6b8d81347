/**
 * The `kubernetes` Service in `default` and where it leads, kept by the API server itself as
 * kube-apiserver's kubernetes-service controller and master endpoint reconciler keep them:
 * the Service (443/TCP → the API port), an Endpoints and an EndpointSlice named `kubernetes`
 * listing this server's address and port. Written at start, put back when a user changes or
 * deletes them, and moved when the server restarts on another port.
 *
 * The Service has no selector, so the endpoints and endpointslice controllers leave both
 * alone; the Endpoints carry `endpointslice.kubernetes.io/skip-mirror` and the slice no
 * managed-by label, exactly as kube-apiserver writes them.
 */
import { isIP } from 'node:net';
import { KUBERNETES_SERVICE_IP } from '../api/core/service-allocation.js';
import { deepEqual } from '../api/deep-equal.js';
import type { KubeObject } from '../api/resource-definition.js';
import type { KindRef, ObjectWriter } from './writes.js';

export const SERVICE: KindRef = { apiVersion: 'v1', kind: 'Service' };
export const ENDPOINTS: KindRef = { apiVersion: 'v1', kind: 'Endpoints' };
export const ENDPOINT_SLICE: KindRef = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice' };

export const KUBERNETES_NAMESPACE = 'default';
export const KUBERNETES_NAME = 'kubernetes';
const SKIP_MIRROR_LABEL = 'endpointslice.kubernetes.io/skip-mirror';
const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/** ApiAddress is where clients reach this API server: an IP and a port. */
export interface ApiAddress {
  ip: string;
  port: number;
}

/** apiAddressOf turns the listen host into the address endpoints can hold: a wildcard or a
 * name becomes the loopback address clients on this machine use. */
export function apiAddressOf(host: string, port: number): ApiAddress {
  const name = host.replace(/^\[|\]$/g, '');
  if (name === '::') return { ip: '::1', port };
  if (name === '0.0.0.0' || isIP(name) === 0) return { ip: '127.0.0.1', port };
  return { ip: name, port };
}

const servicePorts = (address: ApiAddress) => [{ name: 'https', port: 443, protocol: 'TCP', targetPort: address.port }];
const endpointPorts = (address: ApiAddress) => [{ name: 'https', port: address.port, protocol: 'TCP' }];

/** reconcileKubernetesService brings the Service, its Endpoints and its EndpointSlice in line:
 * with this server's address, or, among several servers, with every live one's (`apiServers`,
 * from their Leases). As kube-apiserver's reconcilers do, the Endpoints hold one subset per
 * port and the slice mirrors the first subset; the Service targets the first subset's port,
 * so every server agrees on it. */
export function reconcileKubernetesService(writer: ObjectWriter, address: ApiAddress, apiServers?: readonly ApiAddress[]): void {
  const subsets = endpointSubsets(apiServers?.length ? apiServers : [address]);
  const first = subsets[0]!;
  reconcileService(writer, { ip: first.ips[0]!, port: first.port });
  reconcileEndpoints(writer, subsets);
  reconcileEndpointSlice(writer, first);
}

/** EndpointSubset is the addresses that serve on one port. */
interface EndpointSubset {
  port: number;
  ips: string[];
}

/** endpointSubsets groups addresses by port, ports and addresses in order (kube's repacking). */
function endpointSubsets(addresses: readonly ApiAddress[]): EndpointSubset[] {
  const byPort = new Map<number, Set<string>>();
  for (const { ip, port } of addresses) byPort.set(port, (byPort.get(port) ?? new Set()).add(ip));
  return [...byPort.entries()].sort(([a], [b]) => a - b).map(([port, ips]) => ({ port, ips: [...ips].sort() }));
}

/** reconcileService recreates the Service if it is gone and restores its type and ports
 * (kube-apiserver reconciles exactly these; labels and the rest are the user's). */
function reconcileService(writer: ObjectWriter, address: ApiAddress): void {
  const current = writer.read(SERVICE, KUBERNETES_NAMESPACE, KUBERNETES_NAME);
  if (!current) {
    writer.create(SERVICE, KUBERNETES_NAMESPACE, {
      metadata: { name: KUBERNETES_NAME, labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: { type: 'ClusterIP', clusterIP: KUBERNETES_SERVICE_IP, ports: servicePorts(address), sessionAffinity: 'None' },
    });
    return;
  }
  if (current.metadata.deletionTimestamp) return;
  const spec = (current['spec'] ?? {}) as { type?: string; ports?: Array<Record<string, unknown>> };
  const ports = (spec.ports ?? []).map(({ name, port, protocol, targetPort }) => ({ name, port, protocol, targetPort }));
  if (spec.type === 'ClusterIP' && deepEqual(ports, servicePorts(address))) return;
  writer.update(SERVICE, KUBERNETES_NAMESPACE, KUBERNETES_NAME, 'main', (service) => {
    const next = service['spec'] as Record<string, unknown>;
    next['type'] = 'ClusterIP';
    next['ports'] = servicePorts(address);
  });
}

function reconcileEndpoints(writer: ObjectWriter, endpointSubsets: EndpointSubset[]): void {
  const subsets = endpointSubsets.map(({ port, ips }) => ({ addresses: ips.map((ip) => ({ ip })), ports: endpointPorts({ ip: ips[0]!, port }) }));
  const current = writer.read(ENDPOINTS, KUBERNETES_NAMESPACE, KUBERNETES_NAME);
  if (!current) {
    writer.create(ENDPOINTS, KUBERNETES_NAMESPACE, { metadata: { name: KUBERNETES_NAME, labels: { [SKIP_MIRROR_LABEL]: 'true' } }, subsets });
    return;
  }
  writer.update(ENDPOINTS, KUBERNETES_NAMESPACE, KUBERNETES_NAME, 'main', (endpoints) => {
    endpoints.metadata.labels = { ...endpoints.metadata.labels, [SKIP_MIRROR_LABEL]: 'true' };
    endpoints['subsets'] = subsets;
  });
}

/** reconcileEndpointSlice keeps the slice as kube-apiserver derives it from the Endpoints
 * (its labels are exactly the service-name label); a slice of the other address family,
 * whose addressType cannot change, is replaced. */
function reconcileEndpointSlice(writer: ObjectWriter, subset: EndpointSubset): void {
  const desired = {
    addressType: isIP(subset.ips[0]!) === 6 ? 'IPv6' : 'IPv4',
    endpoints: subset.ips.map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
    ports: endpointPorts({ ip: subset.ips[0]!, port: subset.port }),
  };
  let current: KubeObject | undefined = writer.read(ENDPOINT_SLICE, KUBERNETES_NAMESPACE, KUBERNETES_NAME);
  if (current && current['addressType'] !== desired.addressType) {
    writer.remove(ENDPOINT_SLICE, KUBERNETES_NAMESPACE, KUBERNETES_NAME);
    current = undefined;
  }
  const labels = { [SERVICE_NAME_LABEL]: KUBERNETES_NAME };
  if (!current) {
    writer.create(ENDPOINT_SLICE, KUBERNETES_NAMESPACE, { metadata: { name: KUBERNETES_NAME, labels }, ...desired });
    return;
  }
  writer.update(ENDPOINT_SLICE, KUBERNETES_NAMESPACE, KUBERNETES_NAME, 'main', (slice) => {
    slice.metadata.labels = labels;
    Object.assign(slice, desired);
  });
}
