/** humanDuration formats an elapsed time the way Kubernetes' AGE columns do:
 * 45s, 2m30s (under 10 minutes), 25m, 5h10m (under 8 hours), 12h, 3d4h (under 8 days), 20d, 2y30d. */
export function humanDuration(elapsedMs) {
    const seconds = Math.floor(elapsedMs / 1000);
    // Up to 2 s in the future is tolerated as clock skew between machines.
    if (seconds < -1)
        return '<invalid>';
    if (seconds < 0)
        return '0s';
    if (seconds < 120)
        return `${seconds}s`;
    const minutes = Math.floor(seconds / 60);
    if (minutes < 10)
        return withRemainder(minutes, 'm', seconds % 60, 's');
    if (minutes < 180)
        return `${minutes}m`;
    const hours = Math.floor(minutes / 60);
    if (hours < 8)
        return withRemainder(hours, 'h', minutes % 60, 'm');
    if (hours < 48)
        return `${hours}h`;
    const days = Math.floor(hours / 24);
    if (hours < 24 * 8)
        return withRemainder(days, 'd', hours % 24, 'h');
    if (hours < 24 * 365 * 2)
        return `${days}d`;
    const years = Math.floor(days / 365);
    if (hours < 24 * 365 * 8)
        return withRemainder(years, 'y', days % 365, 'd');
    return `${years}y`;
}
function withRemainder(major, majorUnit, minor, minorUnit) {
    return minor === 0 ? `${major}${majorUnit}` : `${major}${majorUnit}${minor}${minorUnit}`;
}
/** age renders a timestamp as the time elapsed since it, `<unknown>` when absent. */
export function age(timestamp, context) {
    if (!timestamp)
        return '<unknown>';
    const at = Date.parse(timestamp);
    return Number.isNaN(at) ? '<unknown>' : humanDuration(context.nowMs - at);
}
/** orNone renders an empty value as `<none>`, as kubectl's printers do. */
export function orNone(value) {
    return value ? value : '<none>';
}
/** formatLabels renders a label map as `k=v,k2=v2` (sorted), `<none>` when empty. */
export function formatLabels(labels) {
    const entries = Object.entries(labels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return entries.length === 0 ? '<none>' : entries.map(([k, v]) => `${k}=${v}`).join(',');
}
const NAME_DESCRIPTION = 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated.';
const AGE_DESCRIPTION = 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.';
/** nameColumn is the NAME column every Table starts with. */
export const nameColumn = {
    name: 'Name',
    type: 'string',
    format: 'name',
    description: NAME_DESCRIPTION,
    priority: 0,
    cell: (o) => o.metadata?.name ?? '',
};
/** ageColumn is the AGE column computed from metadata.creationTimestamp. */
export const ageColumn = {
    name: 'Age',
    type: 'string',
    description: AGE_DESCRIPTION,
    priority: 0,
    cell: (o, context) => age(o.metadata?.creationTimestamp, context),
};
/** column builds a PrintColumn with less ceremony; priority 0 unless `wide` is set. */
export function column(name, cell, options = {}) {
    return {
        name,
        type: options.type ?? 'string',
        format: options.format ?? '',
        description: options.description ?? '',
        priority: options.wide ? 1 : 0,
        cell,
    };
}
//# sourceMappingURL=printing.js.map