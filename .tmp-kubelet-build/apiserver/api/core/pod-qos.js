import { tryParseQuantity } from './quantity.js';
const QOS_RESOURCES = ['cpu', 'memory'];
/** podQOSClass derives a pod's QoS class from its (defaulted) spec. Ephemeral containers
 * have no resources and do not count. Pure. */
export function podQOSClass(spec) {
    const containers = [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
    const requests = new Map();
    const limits = new Map();
    let limitsEverything = true;
    for (const container of containers) {
        addNonZero(requests, container.resources?.requests);
        const containerLimits = addNonZero(limits, container.resources?.limits);
        if (!QOS_RESOURCES.every((name) => containerLimits.has(name)))
            limitsEverything = false;
    }
    if (requests.size === 0 && limits.size === 0)
        return 'BestEffort';
    const requestsMatchLimits = requests.size === limits.size && [...requests].every(([name, value]) => limits.get(name)?.cmp(value) === 0);
    return limitsEverything && requestsMatchLimits ? 'Guaranteed' : 'Burstable';
}
/** addNonZero adds the non-zero cpu/memory quantities of `list` into `totals` and returns
 * the names it found. */
function addNonZero(totals, list) {
    const found = new Set();
    for (const name of QOS_RESOURCES) {
        const value = tryParseQuantity(list?.[name] ?? '0');
        if (!value || value.isZero())
            continue;
        found.add(name);
        const total = totals.get(name);
        totals.set(name, total ? total.add(value) : value);
    }
    return found;
}
//# sourceMappingURL=pod-qos.js.map