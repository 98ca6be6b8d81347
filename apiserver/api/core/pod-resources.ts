/**
 * What a pod requests or is limited to in total, as exact Quantities (Kubernetes'
 * resourcehelper.PodRequests / PodLimits, which ResourceQuota and LimitRange count with):
 * max(Σ app containers + Σ sidecars, the largest init container + the sidecars started before
 * it) + spec.overhead, with pod-level spec.resources replacing that for the resources it
 * names. (The scheduler has the same shape in plain numbers, with its scoring defaults:
 * scheduler/resources.ts.)
 */
import type { Quantity } from '../quantity.js';
import { tryParseQuantity } from '../quantity.js';
import type { PodSpec } from './pod-spec.js';

/** QuantityTotals maps a resource name to an exact total. */
export type QuantityTotals = Map<string, Quantity>;

type Side = 'requests' | 'limits';
interface WithResources {
  readonly resources?: { readonly requests?: Readonly<Record<string, string>>; readonly limits?: Readonly<Record<string, string>> };
}

function listOf(list: Readonly<Record<string, string>> | undefined): QuantityTotals {
  const totals: QuantityTotals = new Map();
  for (const [name, text] of Object.entries(list ?? {})) {
    const quantity = tryParseQuantity(text);
    if (quantity) totals.set(name, quantity);
  }
  return totals;
}

function sum(a: QuantityTotals, b: QuantityTotals): QuantityTotals {
  const total = new Map(a);
  for (const [name, value] of b) total.set(name, total.get(name)?.add(value) ?? value);
  return total;
}

function max(a: QuantityTotals, b: QuantityTotals): QuantityTotals {
  const most = new Map(a);
  for (const [name, value] of b) {
    const current = most.get(name);
    if (current === undefined || value.cmp(current) > 0) most.set(name, value);
  }
  return most;
}

/** podResourceTotals is the pod's total `side` (requests or limits). Malformed quantities
 * (which validation rejects) count as absent. Pure. */
export function podResourceTotals(spec: PodSpec, side: Side): QuantityTotals {
  const of = (container: WithResources) => listOf(container.resources?.[side]);
  let sidecars: QuantityTotals = new Map();
  let initPeak: QuantityTotals = new Map();
  for (const init of spec.initContainers ?? []) {
    // Sidecars (restartPolicy Always) keep running, so they add to everything after them.
    if (init.restartPolicy === 'Always') sidecars = sum(sidecars, of(init));
    else initPeak = max(initPeak, sum(of(init), sidecars));
  }
  const apps = (spec.containers ?? []).reduce<QuantityTotals>((total, container) => sum(total, of(container)), new Map());
  const total = max(sum(apps, sidecars), initPeak);
  for (const [name, value] of listOf(spec.resources?.[side])) total.set(name, value);
  return side === 'requests' ? sum(total, listOf(spec.overhead)) : total;
}
