/**
 * Pod quality-of-service class, computed from container requests and limits as Kubernetes'
 * GetPodQOS does: BestEffort without any cpu/memory request or limit, Guaranteed when every
 * container limits cpu and memory and requests equal limits, otherwise Burstable.
 */

import type { Quantity } from '../quantity.js';
import { tryParseQuantity } from '../quantity.js';
import type { Container } from './container.js';
import type { PodSpec } from './pod-spec.js';
import type { PodQOSClass } from './pod-status.js';

const QOS_RESOURCES = ['cpu', 'memory'] as const;

/** podQOSClass derives a pod's QoS class from its (defaulted) spec. Ephemeral containers
 * have no resources and do not count. Pure. */
export function podQOSClass(spec: PodSpec): PodQOSClass {
  const containers: Container[] = [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let limitsEverything = true;
  for (const container of containers) {
    addNonZero(requests, container.resources?.requests);
    const containerLimits = addNonZero(limits, container.resources?.limits);
    if (!QOS_RESOURCES.every((name) => containerLimits.has(name))) limitsEverything = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  const requestsMatchLimits = requests.size === limits.size && [...requests].every(([name, value]) => limits.get(name)?.cmp(value) === 0);
  return limitsEverything && requestsMatchLimits ? 'Guaranteed' : 'Burstable';
}

/** addNonZero adds the non-zero cpu/memory quantities of `list` into `totals` and returns
 * the names it found. */
function addNonZero(totals: Map<string, Quantity>, list: Record<string, string> | undefined): Set<string> {
  const found = new Set<string>();
  for (const name of QOS_RESOURCES) {
    const value = tryParseQuantity(list?.[name] ?? '0');
    if (!value || value.isZero()) continue;
    found.add(name);
    const total = totals.get(name);
    totals.set(name, total ? total.add(value) : value);
  }
  return found;
}
