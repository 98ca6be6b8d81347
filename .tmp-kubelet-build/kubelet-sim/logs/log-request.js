const TRUE = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);
/** parseLogQuery reads the query string leniently (as the API server passes it on); it
 * returns an error message for a malformed number. */
export function parseLogQuery(params) {
    const query = {
        follow: TRUE.has(params.get('follow') ?? ''),
        previous: TRUE.has(params.get('previous') ?? ''),
        timestamps: TRUE.has(params.get('timestamps') ?? ''),
    };
    for (const name of ['tailLines', 'sinceSeconds', 'limitBytes']) {
        const text = params.get(name);
        if (text === null || text === '')
            continue;
        if (!/^\d+$/.test(text))
            return `invalid ${name}: ${JSON.stringify(text)} is not a non-negative integer`;
        query[name] = Number(text);
    }
    const sinceTime = params.get('sinceTime');
    if (sinceTime) {
        const ms = Date.parse(sinceTime);
        if (Number.isNaN(ms))
            return `invalid sinceTime: ${JSON.stringify(sinceTime)}`;
        query.sinceTimeMs = ms;
    }
    return query;
}
/**
 * logsUnavailableReason says why the kubelet cannot serve the container's logs yet (the
 * kubelet's validateContainerLogStatus), or undefined when it can.
 */
export function logsUnavailableReason(pod, container, previous) {
    const podName = pod.metadata.name ?? '';
    const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
    const status = statuses.find((s) => s.name === container);
    if (!status)
        return `container "${container}" in pod "${podName}" is waiting to start: ContainerCreating`;
    if (previous)
        return status.lastState?.terminated ? undefined : `previous terminated container "${container}" in pod "${podName}" not found`;
    const waiting = status.state?.waiting;
    if (!waiting || status.lastState?.terminated)
        return undefined;
    if (waiting.reason === 'ErrImagePull' || waiting.reason === 'ImagePullBackOff') {
        return `container "${container}" in pod "${podName}" is waiting to start: trying and failing to pull image`;
    }
    return `container "${container}" in pod "${podName}" is waiting to start: ${waiting.reason ?? 'ContainerCreating'}`;
}
/** selectLines applies sinceSeconds/sinceTime, then tailLines. */
export function selectLines(lines, query, nowMs) {
    const sinceMs = query.sinceTimeMs ?? (query.sinceSeconds !== undefined ? nowMs - query.sinceSeconds * 1000 : undefined);
    const recent = sinceMs === undefined ? [...lines] : lines.filter((line) => line.timeMs >= sinceMs);
    return query.tailLines === undefined ? recent : recent.slice(Math.max(0, recent.length - query.tailLines));
}
/** rfc3339Nano formats a time as Go's time.RFC3339Nano does (trailing zeros trimmed). */
export function rfc3339Nano(ms) {
    return new Date(ms).toISOString().replace(/\.?0+Z$/, 'Z');
}
/** formatLine is one line as sent: optionally prefixed with its timestamp and a space. */
export function formatLine(line, timestamps) {
    return `${timestamps ? `${rfc3339Nano(line.timeMs)} ` : ''}${line.text}\n`;
}
/** ByteBudget enforces limitBytes across a (possibly streamed) response. */
export class ByteBudget {
    remaining;
    constructor(limitBytes) {
        this.remaining = limitBytes ?? Number.POSITIVE_INFINITY;
    }
    /** take returns the part of `text` that still fits (maybe empty). */
    take(text) {
        if (this.remaining <= 0)
            return '';
        const bytes = Buffer.from(text, 'utf8');
        const kept = bytes.length <= this.remaining ? text : bytes.subarray(0, this.remaining).toString('utf8');
        this.remaining -= Math.min(bytes.length, this.remaining);
        return kept;
    }
    get exhausted() {
        return this.remaining <= 0;
    }
}
//# sourceMappingURL=log-request.js.map