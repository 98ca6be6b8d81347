/** requirementMatches evaluates one requirement against a value lookup, as a labels.Selector
 * built from it would: NotIn and DoesNotExist hold for a missing key; Gt/Lt compare integers
 * and fail for anything unparsable. */
export function requirementMatches(requirement, values) {
    const present = Object.hasOwn(values, requirement.key);
    const value = values[requirement.key];
    const wanted = requirement.values ?? [];
    switch (requirement.operator) {
        case 'In':
            return present && wanted.includes(value ?? '');
        case 'NotIn':
            return !present || !wanted.includes(value ?? '');
        case 'Exists':
            return present;
        case 'DoesNotExist':
            return !present;
        case 'Gt':
        case 'Lt':
            return present && compareIntegers(requirement.operator, value ?? '', wanted);
        default: {
            const unreachable = requirement.operator;
            return unreachable;
        }
    }
}
function compareIntegers(operator, value, wanted) {
    const [bound] = wanted;
    if (wanted.length !== 1 || bound === undefined || !/^-?\d+$/.test(value) || !/^-?\d+$/.test(bound))
        return false;
    return operator === 'Gt' ? BigInt(value) > BigInt(bound) : BigInt(value) < BigInt(bound);
}
/** termMatches is true when every expression (on labels) and field (metadata.name) of the
 * term holds. An empty term matches nothing, as in Kubernetes. */
export function termMatches(term, node) {
    const expressions = term.matchExpressions ?? [];
    const fields = term.matchFields ?? [];
    if (expressions.length === 0 && fields.length === 0)
        return false;
    const labels = node.metadata.labels ?? {};
    const nodeFields = { 'metadata.name': node.metadata.name ?? '' };
    return expressions.every((r) => requirementMatches(r, labels)) && fields.every((r) => requirementMatches(r, nodeFields));
}
/** nodeSelectorMatches is true when the node has every label of spec.nodeSelector. */
export function nodeSelectorMatches(selector, node) {
    const labels = node.metadata.labels ?? {};
    return Object.entries(selector ?? {}).every(([key, value]) => Object.hasOwn(labels, key) && labels[key] === value);
}
/** requiredNodeAffinityMatches is kube's RequiredNodeAffinity.Match: spec.nodeSelector AND
 * (when present) any of the required node affinity terms. */
export function requiredNodeAffinityMatches(pod, node) {
    if (!nodeSelectorMatches(pod.spec.nodeSelector, node))
        return false;
    const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    if (!required)
        return true;
    return required.nodeSelectorTerms.some((term) => termMatches(term, node));
}
//# sourceMappingURL=node-selector.js.map