import { createLabelRequirement, LabelOperators, LabelSelectorQuery, labelSelectorFromStructured } from '../../apiserver/api/labels.js';
import { controllerUid } from '../snapshot.js';
import { requiredNodeAffinityMatches } from './node-selector.js';
import { findUntoleratedTaint, isDoNotScheduleTaint } from './tolerations.js';
export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
export const LABEL_ZONE = 'topology.kubernetes.io/zone';
/** DEFAULT_CONSTRAINTS are kube's system defaults: soft spreading by host (maxSkew 3) and
 * zone (maxSkew 5). */
export const DEFAULT_CONSTRAINTS = [
    { topologyKey: LABEL_HOSTNAME, maxSkew: 3 },
    { topologyKey: LABEL_ZONE, maxSkew: 5 },
];
/** explicitConstraints parses the pod's own constraints with `action`; one whose selector
 * does not parse is skipped (the API server validated it, so this is only a guard). */
export function explicitConstraints(pod, action) {
    const result = [];
    for (const spec of pod.spec.topologySpreadConstraints ?? []) {
        if (spec.whenUnsatisfiable !== action)
            continue;
        const selector = selectorOf(spec, pod.metadata.labels ?? {});
        if (!selector)
            continue;
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
function selectorOf(spec, podLabels) {
    try {
        const base = labelSelectorFromStructured(spec.labelSelector);
        const extra = (spec.matchLabelKeys ?? [])
            .filter((key) => Object.hasOwn(podLabels, key))
            .map((key) => createLabelRequirement(key, LabelOperators.Equals, [podLabels[key] ?? '']));
        if (extra.length === 0 || base.isNothing())
            return base;
        return LabelSelectorQuery.fromRequirements([...base.requirements, ...extra]);
    }
    catch {
        return undefined; // An invalid selector cannot match anything; skipping the constraint is kube's outcome too.
    }
}
/** defaultConstraints are DEFAULT_CONSTRAINTS for a pod with a controller owner (none for a
 * bare pod: there is nothing to spread it from). */
export function defaultConstraints(pod) {
    const ownerUid = controllerUid(pod);
    if (!ownerUid)
        return [];
    return DEFAULT_CONSTRAINTS.map(({ topologyKey, maxSkew }) => ({
        maxSkew,
        topologyKey,
        minDomains: 1,
        honorNodeAffinity: true,
        honorNodeTaints: false,
        ownerUid,
        matches: (other) => controllerUid(other) === ownerUid,
    }));
}
/** topologyValue is the node's domain for `key`, or undefined when it has none (see the
 * hostname deviation in the module comment). */
export function topologyValue(node, key) {
    const labels = node.metadata.labels ?? {};
    if (Object.hasOwn(labels, key))
        return labels[key];
    return key === LABEL_HOSTNAME ? node.metadata.name : undefined;
}
/** hasAllTopologyKeys is true when the node has a domain for every constraint. */
export function hasAllTopologyKeys(node, constraints) {
    return constraints.every((c) => topologyValue(node, c.topologyKey) !== undefined);
}
/** countsAsDomain applies the constraint's node inclusion policies to a node. */
export function countsAsDomain(constraint, pod, node) {
    if (constraint.honorNodeAffinity && !requiredNodeAffinityMatches(pod, node))
        return false;
    if (constraint.honorNodeTaints && findUntoleratedTaint(node.spec?.taints, pod.spec.tolerations, isDoNotScheduleTaint))
        return false;
    return true;
}
/** countMatching counts the node's pods the constraint selects: same namespace as `pod`,
 * not terminating (kube skips pods with a deletionTimestamp). */
export function countMatching(constraint, pod, node) {
    if (constraint.ownerUid)
        return node.podsByOwner.get(constraint.ownerUid) ?? 0;
    const namespace = pod.metadata.namespace;
    return node.pods.filter((p) => p.metadata.namespace === namespace && !p.metadata.deletionTimestamp && constraint.matches(p)).length;
}
//# sourceMappingURL=topology-spread-constraints.js.map