/**
 * The constraints PodTopologySpread works with (kube's podtopologyspread/common.go): a pod's
 * own topologySpreadConstraints parsed once per attempt, or — for a pod with none — the
 * cluster's default constraints (spread by hostname and zone), and how pods are counted
 * against them.
 *
 * Deviations, both documented in docs/scheduler.md:
 *   - kube builds the default constraints' selector from the Services, ReplicaSets and
 *     StatefulSets that select the pod; kubesim counts the pods with the same controller owner,
 *     which is what that selector amounts to for ReplicaSet/Deployment pods;
 *   - a node without a kubernetes.io/hostname label is its own hostname domain (its name), so
 *     hand-made nodes still spread; kubelets always set the label.
 */
import type { PodSpec } from '../../apiserver/api/core/pod-spec.js';
import { createLabelRequirement, LabelOperators, LabelSelectorQuery, labelSelectorFromStructured } from '../../apiserver/api/labels.js';
import type { DeepReadonly } from '../../controllers/runtime/types.js';
import type { NodeInfo, ReadonlyNode, ReadonlyPod } from '../framework.js';
import { controllerUid } from '../snapshot.js';
import { requiredNodeAffinityMatches } from './node-selector.js';
import { findUntoleratedTaint, isDoNotScheduleTaint } from './tolerations.js';

export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
export const LABEL_ZONE = 'topology.kubernetes.io/zone';

type SpreadConstraintSpec = DeepReadonly<NonNullable<PodSpec['topologySpreadConstraints']>[number]>;
export type WhenUnsatisfiable = 'DoNotSchedule' | 'ScheduleAnyway';

/** SpreadConstraint is one constraint ready to evaluate. */
export interface SpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly minDomains: number;
  /** Whether a node the pod's required node affinity rejects still counts as a domain. */
  readonly honorNodeAffinity: boolean;
  /** Whether a node with a taint the pod does not tolerate still counts as a domain. */
  readonly honorNodeTaints: boolean;
  /** Whether an existing pod counts for this constraint (same namespace already checked). */
  matches(pod: ReadonlyPod): boolean;
  /** Set for the default constraints: count pods by this controller-owner uid. */
  readonly ownerUid?: string;
}

/** DEFAULT_CONSTRAINTS are kube's system defaults: soft spreading by host (maxSkew 3) and
 * zone (maxSkew 5). */
export const DEFAULT_CONSTRAINTS = [
  { topologyKey: LABEL_HOSTNAME, maxSkew: 3 },
  { topologyKey: LABEL_ZONE, maxSkew: 5 },
] as const;

/** explicitConstraints parses the pod's own constraints with `action`; one whose selector
 * does not parse is skipped (the API server validated it, so this is only a guard). */
export function explicitConstraints(pod: ReadonlyPod, action: WhenUnsatisfiable): SpreadConstraint[] {
  const result: SpreadConstraint[] = [];
  for (const spec of pod.spec.topologySpreadConstraints ?? []) {
    if (spec.whenUnsatisfiable !== action) continue;
    const selector = selectorOf(spec, pod.metadata.labels ?? {});
    if (!selector) continue;
    result.push({
      maxSkew: spec.maxSkew,
      topologyKey: spec.topologyKey,
      minDomains: spec.minDomains ?? 1,
      honorNodeAffinity: spec.nodeAffinityPolicy !== 'Ignore',
      honorNodeTaints: spec.nodeTaintsPolicy === 'Honor',
      matches: (other) => selector.matches(other.metadata.labels),
    });
  }
  return result;
}

/** selectorOf is the constraint's labelSelector plus `key=value` for each matchLabelKeys key
 * the incoming pod has. */
function selectorOf(spec: SpreadConstraintSpec, podLabels: Readonly<Record<string, string>>): LabelSelectorQuery | undefined {
  try {
    const base = labelSelectorFromStructured(spec.labelSelector as Parameters<typeof labelSelectorFromStructured>[0]);
    const extra = (spec.matchLabelKeys ?? [])
      .filter((key) => Object.hasOwn(podLabels, key))
      .map((key) => createLabelRequirement(key, LabelOperators.Equals, [podLabels[key] ?? '']));
    if (extra.length === 0 || base.isNothing()) return base;
    return LabelSelectorQuery.fromRequirements([...base.requirements, ...extra]);
  } catch {
    return undefined; // An invalid selector cannot match anything; skipping the constraint is kube's outcome too.
  }
}

/** defaultConstraints are DEFAULT_CONSTRAINTS for a pod with a controller owner (none for a
 * bare pod: there is nothing to spread it from). */
export function defaultConstraints(pod: ReadonlyPod): SpreadConstraint[] {
  const ownerUid = controllerUid(pod);
  if (!ownerUid) return [];
  return DEFAULT_CONSTRAINTS.map(({ topologyKey, maxSkew }) => ({
    maxSkew,
    topologyKey,
    minDomains: 1,
    honorNodeAffinity: true,
    honorNodeTaints: false,
    ownerUid,
    matches: (other: ReadonlyPod) => controllerUid(other) === ownerUid,
  }));
}

/** topologyValue is the node's domain for `key`, or undefined when it has none (see the
 * hostname deviation in the module comment). */
export function topologyValue(node: ReadonlyNode, key: string): string | undefined {
  const labels = node.metadata.labels ?? {};
  if (Object.hasOwn(labels, key)) return labels[key];
  return key === LABEL_HOSTNAME ? node.metadata.name : undefined;
}

/** hasAllTopologyKeys is true when the node has a domain for every constraint. */
export function hasAllTopologyKeys(node: ReadonlyNode, constraints: readonly SpreadConstraint[]): boolean {
  return constraints.every((c) => topologyValue(node, c.topologyKey) !== undefined);
}

/** countsAsDomain applies the constraint's node inclusion policies to a node. */
export function countsAsDomain(constraint: SpreadConstraint, pod: ReadonlyPod, node: ReadonlyNode): boolean {
  if (constraint.honorNodeAffinity && !requiredNodeAffinityMatches(pod, node)) return false;
  if (constraint.honorNodeTaints && findUntoleratedTaint(node.spec?.taints, pod.spec.tolerations, isDoNotScheduleTaint)) return false;
  return true;
}

/** countMatching counts the node's pods the constraint selects: same namespace as `pod`,
 * not terminating (kube skips pods with a deletionTimestamp). */
export function countMatching(constraint: SpreadConstraint, pod: ReadonlyPod, node: NodeInfo): number {
  if (constraint.ownerUid) return node.podsByOwner.get(constraint.ownerUid) ?? 0;
  const namespace = pod.metadata.namespace;
  return node.pods.filter((p) => p.metadata.namespace === namespace && !p.metadata.deletionTimestamp && constraint.matches(p)).length;
}
