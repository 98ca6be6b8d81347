/**
 * planSlices turns the desired endpoint groups and the Service's current slices into writes
 * (Kubernetes' endpointslice reconciler, second half), changing as few slices as possible:
 * an endpoint stays in the slice that already holds it; new endpoints fill existing slices of
 * the same port set up to MAX_ENDPOINTS_PER_SLICE, then new slices; slices left empty, or of
 * a port set no longer wanted, are deleted. A Service without any endpoint keeps one empty
 * placeholder slice, as in Kubernetes. Pure.
 */

import { deepEqual } from '../../apiserver/api/deep-equal.js';
import type { Endpoint, EndpointSlicePort } from '../../apiserver/api/discovery/endpoint-slice.js';
import type { DeepReadonly } from '../runtime/types.js';
import { type EndpointGroup, slicePortsKey } from './desired-endpoints.js';

/** MAX_ENDPOINTS_PER_SLICE is kube-controller-manager's default --max-endpoints-per-slice. */
export const MAX_ENDPOINTS_PER_SLICE = 100;

/** CurrentSlice is what the planner needs of an existing slice. */
export interface CurrentSlice {
  name: string;
  ports?: readonly DeepReadonly<EndpointSlicePort>[] | undefined;
  endpoints: readonly DeepReadonly<Endpoint>[];
}

/** SliceContent is the desired ports and endpoints of one slice. */
export interface SliceContent {
  ports: EndpointSlicePort[];
  endpoints: Endpoint[];
}

/** SlicePlan: slices to create, existing slices to rewrite (by name), slices to delete, and the
 * names of those already as desired. */
export interface SlicePlan {
  create: SliceContent[];
  update: Array<SliceContent & { name: string }>;
  delete: string[];
  unchanged: string[];
}

/** planSlices computes the SlicePlan; see the module comment. */
export function planSlices(groups: ReadonlyMap<string, EndpointGroup>, current: readonly CurrentSlice[], max = MAX_ENDPOINTS_PER_SLICE): SlicePlan {
  const plan: SlicePlan = { create: [], update: [], delete: [], unchanged: [] };
  const placeholder = groups.size === 0;
  const effective = placeholder ? new Map([[slicePortsKey([]), { ports: [], endpoints: [] }]]) : groups;
  const byKey = new Map<string, CurrentSlice[]>();
  for (const slice of [...current].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    // Any slice can become the placeholder: it is rewritten rather than replaced.
    const key = placeholder ? slicePortsKey([]) : slicePortsKey(slice.ports);
    if (!effective.has(key)) plan.delete.push(slice.name);
    else byKey.set(key, [...(byKey.get(key) ?? []), slice]);
  }
  for (const [key, group] of effective) planGroup(plan, group, byKey.get(key) ?? [], max);
  return plan;
}

function endpointKey(endpoint: DeepReadonly<Endpoint>): string {
  return endpoint.targetRef?.uid || endpoint.addresses[0] || '';
}

/** planGroup places one port set's endpoints into its existing slices, then new ones. */
function planGroup(plan: SlicePlan, group: EndpointGroup, slices: CurrentSlice[], max: number): void {
  const remaining = new Map(group.endpoints.map((e) => [endpointKey(e), e]));
  // Keep each endpoint where it is, in its new form.
  const contents = slices.map((slice) => {
    const kept: Endpoint[] = [];
    for (const old of slice.endpoints) {
      const wanted = remaining.get(endpointKey(old));
      if (wanted === undefined || kept.length >= max) continue;
      kept.push(wanted);
      remaining.delete(endpointKey(old));
    }
    return kept;
  });
  const leftover = [...remaining.values()];
  for (const kept of contents) while (kept.length < max && leftover.length > 0) kept.push(leftover.shift() as Endpoint);
  slices.forEach((slice, i) => classify(plan, slice, { ports: group.ports, endpoints: contents[i] ?? [] }));
  for (let i = 0; i < leftover.length; i += max) plan.create.push({ ports: group.ports, endpoints: leftover.slice(i, i + max) });
  keepPlaceholder(plan, group, slices);
}

function classify(plan: SlicePlan, slice: CurrentSlice, content: SliceContent): void {
  if (content.endpoints.length === 0) plan.delete.push(slice.name);
  else if (deepEqual(slice.endpoints, content.endpoints) && deepEqual(slice.ports ?? [], content.ports)) plan.unchanged.push(slice.name);
  else plan.update.push({ name: slice.name, ...content });
}

/** keepPlaceholder: an empty group (a Service without endpoints) keeps one empty slice. */
function keepPlaceholder(plan: SlicePlan, group: EndpointGroup, slices: CurrentSlice[]): void {
  if (group.endpoints.length > 0) return;
  const first = slices.find((s) => s.endpoints.length === 0 && (s.ports ?? []).length === 0) ?? slices[0];
  if (first === undefined) {
    plan.create.push({ ports: group.ports, endpoints: [] });
    return;
  }
  plan.delete = plan.delete.filter((name) => name !== first.name);
  if (first.endpoints.length === 0 && (first.ports ?? []).length === group.ports.length) plan.unchanged.push(first.name);
  else plan.update.push({ name: first.name, ports: group.ports, endpoints: [] });
}
