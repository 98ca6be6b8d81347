import { parseQuantity, QuantityParseError } from '../apiserver/api/quantity.js';
/** DEFAULT_MILLI_CPU_REQUEST and DEFAULT_MEMORY_REQUEST are what scoring assumes a container
 * uses when it requests nothing (kube's non-zero defaults: 100m, 200Mi), so best-effort pods still
 * spread instead of piling onto one node. Filtering never uses them. */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;
/** amountOf converts one quantity to scheduler units; malformed text counts as 0 (the API
 * server validated it, so this only guards against bugs elsewhere). */
export function amountOf(name, text) {
    try {
        const quantity = parseQuantity(text);
        return name === 'cpu' ? quantity.milliValue() : quantity.value();
    }
    catch (err) {
        if (err instanceof QuantityParseError)
            return 0;
        throw err;
    }
}
/** parseResourceList converts a ResourceList (requests, allocatable) to amounts. */
export function parseResourceList(list) {
    const amounts = {};
    for (const [name, text] of Object.entries(list ?? {}))
        amounts[name] = amountOf(name, text);
    return amounts;
}
/** addInto adds `amounts` into `total` in place (the accumulator form of addAmounts). */
export function addInto(total, amounts) {
    for (const name in amounts)
        total[name] = (total[name] ?? 0) + (amounts[name] ?? 0);
}
/** addAmounts returns a + b, resource by resource. */
export function addAmounts(a, b) {
    const sum = { ...a };
    for (const [name, value] of Object.entries(b))
        sum[name] = (sum[name] ?? 0) + value;
    return sum;
}
function maxAmounts(a, b) {
    const max = { ...a };
    for (const [name, value] of Object.entries(b))
        max[name] = Math.max(max[name] ?? 0, value);
    return max;
}
const actualRequests = (container) => parseResourceList(container.resources?.requests);
/** nonZeroContainerRequests gives a container that does not request cpu or memory kube's
 * scoring defaults for it (an explicit 0 stays 0, as in kube's NonMissingContainerRequests). */
const nonZeroContainerRequests = (container) => {
    const requests = actualRequests(container);
    requests['cpu'] ??= DEFAULT_MILLI_CPU_REQUEST;
    requests['memory'] ??= DEFAULT_MEMORY_REQUEST;
    return requests;
};
// NOTE: cache objects are immutable and replaced on every change, so a pod object's requests
// never change: memoizing by identity is safe and saves re-parsing every pod every attempt.
const requestsMemo = new WeakMap();
const nonZeroMemo = new WeakMap();
/**
 * podRequests is what a pod asks of its node, as kube's resource helpers compute it:
 * max(Σ app containers + Σ sidecars, the largest init container + the sidecars started before
 * it) + spec.overhead; pod-level spec.resources.requests, when set, replace that for the
 * resources they name. Memoized per (immutable) pod object.
 */
export function podRequests(pod) {
    return memoized(requestsMemo, pod, actualRequests);
}
/** podNonZeroRequests is podRequests with kube's scoring defaults (100m cpu, 200Mi memory)
 * for every container that requests none: what scoring, never filtering, counts. */
export function podNonZeroRequests(pod) {
    return memoized(nonZeroMemo, pod, nonZeroContainerRequests);
}
function memoized(memo, pod, requestsOf) {
    const known = memo.get(pod);
    if (known)
        return known;
    const computed = computePodRequests(pod, requestsOf);
    memo.set(pod, computed);
    return computed;
}
function computePodRequests(pod, requestsOf) {
    let sidecars = {};
    let initPeak = {};
    for (const init of pod.spec.initContainers ?? []) {
        const requests = requestsOf(init);
        // Sidecars (restartPolicy Always) keep running, so they add to everything after them.
        if (init.restartPolicy === 'Always')
            sidecars = addAmounts(sidecars, requests);
        else
            initPeak = maxAmounts(initPeak, addAmounts(requests, sidecars));
    }
    let apps = {};
    for (const container of pod.spec.containers)
        apps = addAmounts(apps, requestsOf(container));
    const podLevel = parseResourceList(pod.spec.resources?.requests);
    const total = { ...maxAmounts(addAmounts(apps, sidecars), initPeak), ...podLevel };
    return addAmounts(total, parseResourceList(pod.spec.overhead));
}
//# sourceMappingURL=resources.js.map