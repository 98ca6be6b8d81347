/**
 * Content negotiation for the few response shapes that depend on the Accept header:
 * server-side Tables (`kubectl get`) and aggregated discovery. Everything else is JSON.
 */
function parseAccept(header) {
    if (!header)
        return [];
    return header.split(',').map((part) => {
        const [type = '', ...params] = part.split(';').map((s) => s.trim());
        const parsed = {};
        for (const p of params) {
            const eq = p.indexOf('=');
            if (eq > 0)
                parsed[p.slice(0, eq).trim()] = p.slice(eq + 1).trim();
        }
        return { type: type.toLowerCase(), params: parsed };
    });
}
/** wantsTable is true when the first acceptable representation is a meta.k8s.io Table. */
export function wantsTable(accept) {
    for (const range of parseAccept(accept)) {
        if (range.params['as'] === 'Table' && (range.params['g'] ?? 'meta.k8s.io') === 'meta.k8s.io')
            return true;
        if (range.type === 'application/json' || range.type === '*/*')
            return false;
    }
    return false;
}
/** aggregatedDiscoveryVersion returns 'v2' or 'v2beta1' when the client prefers aggregated
 * discovery (APIGroupDiscoveryList) over the legacy documents. */
export function aggregatedDiscoveryVersion(accept) {
    for (const range of parseAccept(accept)) {
        if (range.params['as'] === 'APIGroupDiscoveryList' && range.params['g'] === 'apidiscovery.k8s.io') {
            if (range.params['v'] === 'v2' || range.params['v'] === 'v2beta1')
                return range.params['v'];
        }
        if (range.type === 'application/json' && !range.params['as'])
            return undefined;
    }
    return undefined;
}
//# sourceMappingURL=accept.js.map