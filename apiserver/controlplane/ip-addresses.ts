/**
 * IPAddress objects for Service cluster IPs, as kube-apiserver 1.33's IP allocator keeps them:
 * one per allocated IP, named by it, with `spec.parentRef` naming the Service and the
 * ip-family and managed-by labels; removed when the Service lets the IP go (deleted, or
 * changed to ExternalName). Like the allocator's repair loop, this puts back an IPAddress a
 * user deleted and removes one of ours whose Service no longer holds the IP; IPAddresses
 * anyone else made are left alone.
 *
 * Level-based: every change is reduced to "reconcile IP x", given the Services that may
 * hold it (the changed Service, or the one the IPAddress points at), and compares the store
 * with what should be.
 */

import { canonicalIp, ipFamilyOf } from '../api/ip-text.js';
import { IP_ALLOCATOR_MANAGER, IP_FAMILY_LABEL, IP_MANAGED_BY_LABEL, type IPAddress } from '../api/networking/index.js';
import type { KubeObject } from '../api/resource-definition.js';
import { SERVICE } from './kubernetes-service.js';
import type { KindRef, ObjectWriter } from './writes.js';

export const IP_ADDRESS: KindRef = { apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress' };

/** ServiceKey names a Service that may hold an IP. */
export interface ServiceKey {
  namespace: string;
  name: string;
}

/** clusterIpsOf lists a Service's allocated cluster IPs (not `None`) in canonical form, as
 * their IPAddresses are named (a legacy `10.096.0.5` is `10.96.0.5`). */
export function clusterIpsOf(service: KubeObject | undefined): string[] {
  const ips = (service?.['spec'] as { clusterIPs?: string[] } | undefined)?.clusterIPs ?? [];
  return ips.map(canonicalIp).filter((ip) => ip !== undefined);
}

/** serviceKeyOf is the Service an IPAddress of ours points at, if any. */
export function serviceKeyOf(address: KubeObject | undefined): ServiceKey | undefined {
  const ref = (address as IPAddress | undefined)?.spec?.parentRef;
  if (!ref || ref.group || ref.resource !== 'services' || !ref.name) return undefined;
  return { namespace: ref.namespace ?? '', name: ref.name };
}

const isOurs = (address: IPAddress) => address.metadata.labels?.[IP_MANAGED_BY_LABEL] === IP_ALLOCATOR_MANAGER;
const sameKey = (a: ServiceKey | undefined, b: ServiceKey) => a?.namespace === b.namespace && a.name === b.name;

/** reconcileIp makes the IPAddress `ip` match the Service among `candidates` that holds it. */
export function reconcileIp(writer: ObjectWriter, ip: string, candidates: ServiceKey[]): void {
  const holder = candidates.find((key) => clusterIpsOf(writer.read(SERVICE, key.namespace, key.name)).includes(ip));
  const current = writer.read<IPAddress>(IP_ADDRESS, '', ip);
  if (current && !isOurs(current)) return;
  if (current && (!holder || !sameKey(serviceKeyOf(current), holder))) writer.remove(IP_ADDRESS, '', ip);
  if (!holder || (current && sameKey(serviceKeyOf(current), holder))) return;
  writer.create(IP_ADDRESS, '', {
    metadata: { name: ip, labels: { [IP_FAMILY_LABEL]: `IPv${ipFamilyOf(ip)}`, [IP_MANAGED_BY_LABEL]: IP_ALLOCATOR_MANAGER } },
    spec: { parentRef: { resource: 'services', namespace: holder.namespace, name: holder.name } },
  });
}

/** resyncIpAddresses reconciles every Service's IPs and every IPAddress of ours. */
export function resyncIpAddresses(writer: ObjectWriter): void {
  for (const service of writer.list(SERVICE).items) {
    const key = { namespace: service.metadata.namespace ?? '', name: service.metadata.name ?? '' };
    for (const ip of clusterIpsOf(service)) reconcileIp(writer, ip, [key]);
  }
  for (const address of writer.list<IPAddress>(IP_ADDRESS).items) {
    if (!isOurs(address)) continue;
    const key = serviceKeyOf(address);
    reconcileIp(writer, address.metadata.name ?? '', key ? [key] : []);
  }
}
