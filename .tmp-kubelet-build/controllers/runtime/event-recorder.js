/**
 * The event recorder: writes core/v1 Events about objects, the ones `kubectl describe` and
 * `kubectl events` show (client-go's record.EventRecorder with a simplified EventCorrelator).
 *
 * Aggregation: an event with the same (object uid, type, reason, message) as one recorded
 * less than AGGREGATION_WINDOW_MS ago is not written again; the existing Event's count and
 * lastTimestamp are bumped with a merge patch. Recent events live in a bounded LRU map.
 *
 * Writes are fire-and-forget: event() returns at once, writes for one series are chained
 * so a bump never overtakes its create, and failures are logged, never thrown — a lost
 * event must not fail a reconcile.
 */
import { randomInt } from 'node:crypto';
import { isNotFound } from '../../apiserver/api/api-error.js';
import { eventDefinition } from '../../apiserver/api/core/event.js';
/** AGGREGATION_WINDOW_MS is how long after its last occurrence an event still aggregates. */
export const AGGREGATION_WINDOW_MS = 10 * 60_000;
/** createEventRecorder returns an HttpEventRecorder (see the module comment). event() never
 * throws. Events about cluster-scoped objects go to namespace `default`, as in Kubernetes. */
export function createEventRecorder(options) {
    return new AggregatingEventRecorder(options);
}
class AggregatingEventRecorder {
    options;
    events;
    /** Recent series by correlation key, least recently seen first (the LRU order). */
    series = new Map();
    pending = new Set();
    logger;
    constructor(options) {
        this.options = options;
        this.events = options.client.resource(eventDefinition);
        this.logger = options.logger.child({ component: options.component });
    }
    event(object, type, reason, message) {
        try {
            const nowMs = this.options.clock.now();
            const key = [object.metadata.uid ?? `${object.metadata.namespace}/${object.metadata.name}`, type, reason, message].join('\u0000');
            const known = this.series.get(key);
            const occurrence = { object, type, reason, message, nowMs };
            if (known && nowMs - known.lastSeenMs < AGGREGATION_WINDOW_MS)
                this.repeat(key, known, occurrence);
            else
                this.first(key, occurrence);
        }
        catch (err) {
            this.logger.error({ err, reason }, 'could not record event');
        }
    }
    async flush() {
        while (this.pending.size > 0)
            await Promise.all([...this.pending]);
    }
    first(key, occurrence) {
        const { object, nowMs } = occurrence;
        const entry = {
            namespace: object.metadata.namespace || 'default',
            name: eventName(object.metadata.name ?? 'unknown', nowMs),
            count: 1,
            lastSeenMs: nowMs,
            tail: Promise.resolve(),
        };
        this.remember(key, entry);
        const body = newEvent(this.options, { ...occurrence, count: 1, name: entry.name });
        this.enqueue(entry, async () => void (await this.events.create(body)));
    }
    repeat(key, entry, occurrence) {
        this.remember(key, entry);
        entry.count += 1;
        entry.lastSeenMs = occurrence.nowMs;
        const count = entry.count;
        const recreate = () => newEvent(this.options, { ...occurrence, count, name: entry.name });
        this.enqueue(entry, () => bump(this.events, { entry, count, nowMs: occurrence.nowMs, recreate }));
    }
    /** enqueue chains `write` after the series' previous write, so a bump never overtakes its create. */
    enqueue(entry, write) {
        const next = entry.tail.then(write).catch((err) => this.logger.warn({ err, event: entry.name }, 'could not write event'));
        entry.tail = next;
        this.pending.add(next);
        void next.finally(() => this.pending.delete(next));
    }
    /** remember (re)inserts `entry` as the most recent series, evicting the least recent. */
    remember(key, entry) {
        this.series.delete(key);
        this.series.set(key, entry);
        const maxCached = this.options.maxCachedEvents ?? 4096;
        for (const oldest of this.series.keys()) {
            if (this.series.size <= maxCached)
                break;
            this.series.delete(oldest);
        }
    }
}
/** bump raises the stored event's count; if the Event is gone (deleted or expired) it is
 * written again with the count so far, as client-go does. */
async function bump(events, { entry, count, nowMs, recreate }) {
    try {
        await events.patch(entry.namespace, entry.name, { count, lastTimestamp: rfc3339Seconds(nowMs) }, { type: 'merge' });
    }
    catch (err) {
        if (!isNotFound(err))
            throw err;
        await events.create(recreate());
    }
}
function newEvent(options, occurrence) {
    const { object, type, reason, message, nowMs, count, name } = occurrence;
    const { namespace, uid, resourceVersion } = object.metadata;
    const timestamp = rfc3339Seconds(nowMs);
    return {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace: namespace || 'default' },
        involvedObject: { kind: object.kind, namespace, name: object.metadata.name, uid, apiVersion: object.apiVersion, resourceVersion },
        reason,
        message,
        type,
        source: options.host ? { component: options.component, host: options.host } : { component: options.component },
        reportingComponent: options.component,
        reportingInstance: options.host ?? options.component,
        firstTimestamp: timestamp,
        lastTimestamp: timestamp,
        count,
    };
}
/** eventName is `<involved name>.<hex>`, the hex from the time in ns (plus noise against
 * collisions between recorders), as client-go names events. */
export function eventName(involvedName, nowMs) {
    const nanos = BigInt(Math.floor(nowMs)) * 1000000n + BigInt(randomInt(1_000_000));
    return `${involvedName}.${nanos.toString(16)}`;
}
/** rfc3339Seconds formats ms since the epoch as metav1.Time does: `2024-05-01T12:00:00Z`. */
export function rfc3339Seconds(ms) {
    return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
//# sourceMappingURL=event-recorder.js.map