/**
 * ServiceCIDRs as the API server's default-servicecidr controller and kube-controller-manager's
 * servicecidrs controller keep them: the `kubernetes` ServiceCIDR holds the cluster's own range
 * (created at start and again if deleted), and every ServiceCIDR not being deleted is marked
 * Ready once (condition without a reason, as both controllers write it).
 */
import { DEFAULT_SERVICE_CIDR } from '../api/core/service-allocation.js';
import { rfc3339 } from '../api/machinery/time.js';
import type { ServiceCIDR } from '../api/networking/index.js';
import type { KindRef, ObjectWriter } from './writes.js';

export const SERVICE_CIDR: KindRef = { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR' };
export const DEFAULT_SERVICE_CIDR_NAME = 'kubernetes';

const DEFAULT_READY_MESSAGE = 'Kubernetes default Service CIDR is ready';
const READY_MESSAGE = 'Kubernetes Service CIDR is ready';

function readyCondition(message: string, nowMs: number) {
  return { type: 'Ready', status: 'True' as const, lastTransitionTime: rfc3339(nowMs), reason: '', message };
}

/** reconcileServiceCidr creates the default ServiceCIDR when `name` is it and it is gone,
 * and marks the ServiceCIDR Ready when it has no Ready condition yet. */
export function reconcileServiceCidr(writer: ObjectWriter, name: string): void {
  const isDefault = name === DEFAULT_SERVICE_CIDR_NAME;
  const message = isDefault ? DEFAULT_READY_MESSAGE : READY_MESSAGE;
  const current = writer.read<ServiceCIDR>(SERVICE_CIDR, '', name);
  if (!current) {
    if (!isDefault) return;
    writer.create(SERVICE_CIDR, '', {
      metadata: { name },
      spec: { cidrs: [DEFAULT_SERVICE_CIDR] },
      status: { conditions: [readyCondition(message, writer.ctx.now())] },
    });
    return;
  }
  if (current.metadata.deletionTimestamp || current.status?.conditions?.some((c) => c.type === 'Ready')) return;
  writer.update(SERVICE_CIDR, '', name, 'status', (serviceCidr) => {
    const status = (serviceCidr['status'] ?? {}) as { conditions?: unknown[] };
    status.conditions = [...(status.conditions ?? []), readyCondition(message, writer.ctx.now())];
    serviceCidr['status'] = status;
  });
}
