/**
 * ServiceCIDRs as the API server's default-servicecidr controller and kube-controller-manager's
 * servicecidrs controller keep them: the `kubernetes` ServiceCIDR holds the cluster's own range
 * (created at start and again once gone); every ServiceCIDR carries the protection finalizer
 * and is marked Ready once (a condition without a reason, as both controllers write it). A
 * ServiceCIDR being deleted stays, Ready False with reason Terminating, while IPAddresses in its
 * ranges are not covered by another ServiceCIDR; then the finalizer goes and so does it.
 * (kube-controller-manager also waits a 10 s grace period first; kubesim does not.)
 */
import { DEFAULT_SERVICE_CIDR } from '../api/core/service-allocation.js';
import { cidrContains, parseCidr } from '../api/ip-text.js';
import { rfc3339 } from '../api/machinery/time.js';
import type { ServiceCIDR } from '../api/networking/index.js';
import type { KubeObject } from '../api/resource-definition.js';
import { IP_ADDRESS } from './ip-addresses.js';
import type { KindRef, ObjectWriter } from './writes.js';

export const SERVICE_CIDR: KindRef = { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR' };
export const DEFAULT_SERVICE_CIDR_NAME = 'kubernetes';
export const SERVICE_CIDR_FINALIZER = 'networking.k8s.io/service-cidr-finalizer';

const DEFAULT_READY_MESSAGE = 'Kubernetes default Service CIDR is ready';
const READY_MESSAGE = 'Kubernetes Service CIDR is ready';
const TERMINATING_MESSAGE = 'There are still IPAddresses referencing the ServiceCIDR, please remove them or create a new ServiceCIDR';

interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** reconcileServiceCidr brings one ServiceCIDR in line (see the file comment). */
export function reconcileServiceCidr(writer: ObjectWriter, name: string): void {
  const isDefault = name === DEFAULT_SERVICE_CIDR_NAME;
  const ready = (): Condition => condition('True', '', isDefault ? DEFAULT_READY_MESSAGE : READY_MESSAGE, writer.ctx.now());
  const current = writer.read<ServiceCIDR>(SERVICE_CIDR, '', name);
  if (!current) {
    if (!isDefault) return;
    writer.create(SERVICE_CIDR, '', {
      metadata: { name, finalizers: [SERVICE_CIDR_FINALIZER] },
      spec: { cidrs: [DEFAULT_SERVICE_CIDR] },
      status: { conditions: [ready()] },
    });
    return;
  }
  if (current.metadata.deletionTimestamp) {
    finalize(writer, current);
    return;
  }
  if (!current.metadata.finalizers?.includes(SERVICE_CIDR_FINALIZER)) {
    writer.update(SERVICE_CIDR, '', name, 'main', (cidr) => {
      cidr.metadata.finalizers = [...(cidr.metadata.finalizers ?? []), SERVICE_CIDR_FINALIZER];
    });
  }
  if (!current.status?.conditions?.some((c) => c.type === 'Ready')) setReady(writer, name, ready());
}

/** reconcileTerminatingServiceCidrs re-checks every ServiceCIDR being deleted (an IPAddress went). */
export function reconcileTerminatingServiceCidrs(writer: ObjectWriter): void {
  for (const cidr of writer.list<ServiceCIDR>(SERVICE_CIDR).items) {
    if (cidr.metadata.deletionTimestamp) finalize(writer, cidr);
  }
}

/** finalize lets a deleted ServiceCIDR go once no IPAddress depends on it alone, and says
 * why it stays until then. */
function finalize(writer: ObjectWriter, cidr: ServiceCIDR): void {
  const name = cidr.metadata.name ?? '';
  if (!cidr.metadata.finalizers?.includes(SERVICE_CIDR_FINALIZER)) return;
  if (!stillInUse(writer, cidr)) {
    writer.update(SERVICE_CIDR, '', name, 'main', (next) => {
      next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== SERVICE_CIDR_FINALIZER);
    });
    return;
  }
  const terminating = cidr.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'False' && c.reason === 'Terminating');
  if (!terminating) setReady(writer, name, condition('False', 'Terminating', TERMINATING_MESSAGE, writer.ctx.now()));
}

/** stillInUse: some IPAddress lies in `cidr`'s ranges and in no other live ServiceCIDR's. */
function stillInUse(writer: ObjectWriter, cidr: ServiceCIDR): boolean {
  const rangesOf = (c: ServiceCIDR) => (c.spec?.cidrs ?? []).map(parseCidr).filter((r) => r !== undefined);
  const own = rangesOf(cidr);
  const others = writer
    .list<ServiceCIDR>(SERVICE_CIDR)
    .items.filter((c) => c.metadata.name !== cidr.metadata.name && !c.metadata.deletionTimestamp)
    .flatMap(rangesOf);
  return writer.list<KubeObject>(IP_ADDRESS).items.some((address) => {
    const ip = address.metadata.name ?? '';
    return own.some((r) => cidrContains(r, ip)) && !others.some((r) => cidrContains(r, ip));
  });
}

function condition(status: Condition['status'], reason: string, message: string, nowMs: number): Condition {
  return { type: 'Ready', status, lastTransitionTime: rfc3339(nowMs), reason, message };
}

/** setReady replaces the Ready condition, keeping any other. */
function setReady(writer: ObjectWriter, name: string, ready: Condition): void {
  writer.update(SERVICE_CIDR, '', name, 'status', (cidr) => {
    const status = (cidr['status'] ?? {}) as { conditions?: Array<{ type: string }> };
    status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== 'Ready'), ready];
    cidr['status'] = status;
  });
}
