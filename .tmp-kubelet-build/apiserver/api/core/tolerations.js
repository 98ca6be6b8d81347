/** Taint/toleration matching (Kubernetes' v1helper ToleratesTaint), shared by the scheduler
 * and the node lifecycle controller's taint-based eviction. */
/** toleratesTaint: the effects agree (an empty toleration effect matches every effect), and
 * either the toleration is `Exists` (an empty key then matches every key) or key and value are
 * equal (`Equal`, the default operator). */
export function toleratesTaint(toleration, taint) {
    if (toleration.effect && toleration.effect !== taint.effect)
        return false;
    if (toleration.key && toleration.key !== taint.key)
        return false;
    if (toleration.operator === 'Exists')
        return true;
    return (toleration.value ?? '') === (taint.value ?? '');
}
//# sourceMappingURL=tolerations.js.map