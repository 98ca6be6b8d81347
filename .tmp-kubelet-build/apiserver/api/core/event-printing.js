/** The core/v1 event Table row, after kube's printEvent (rendered wide, as the server does). */
import { age, column, nameColumn } from '../printing.js';
/** eventTimes returns the Last Seen and First Seen cells: firstTimestamp falls back to
 * eventTime, lastTimestamp to the first seen time, and a series' last observation wins. */
export function eventTimes(event, context) {
    const firstSeen = age(event.firstTimestamp || event.eventTime, context);
    const lastSeen = event.series?.lastObservedTime
        ? age(event.series.lastObservedTime, context)
        : event.lastTimestamp
            ? age(event.lastTimestamp, context)
            : firstSeen;
    return { lastSeen, firstSeen };
}
/** eventCount is series.count for a series, else count, where 0 (unset) means a single event. */
export function eventCount(event) {
    if (event.series)
        return event.series.count ?? 0;
    return event.count || 1;
}
/** eventObjectCell is `kind/name` with the kind lowercased (`deployment/web`), or just the kind. */
export function eventObjectCell(event) {
    const kind = (event.involvedObject.kind ?? '').toLowerCase();
    return event.involvedObject.name ? `${kind}/${event.involvedObject.name}` : kind;
}
/** eventSourceCell is `component, host`, falling back to reportingComponent/Instance. */
export function eventSourceCell(event) {
    const component = event.source?.component || event.reportingComponent || '';
    const host = event.source?.host || event.reportingInstance || '';
    return host ? `${component}, ${host}` : component;
}
/** eventColumns are the event Table columns (KUBECTL-WIRE §1.6). */
export const eventColumns = [
    column('Last Seen', (e, ctx) => eventTimes(e, ctx).lastSeen, { description: 'Time of the most recent occurrence.' }),
    column('Type', (e) => e.type ?? '', { description: 'Normal or Warning.' }),
    column('Reason', (e) => e.reason ?? '', { description: 'Why the event happened.' }),
    column('Object', eventObjectCell, { description: 'The object the event is about.' }),
    column('Subobject', (e) => e.involvedObject.fieldPath ?? '', { wide: true, description: 'The part of the object involved.' }),
    column('Source', eventSourceCell, { wide: true, description: 'The component that reported the event.' }),
    column('Message', (e) => (e.message ?? '').trim(), { description: 'What happened.' }),
    column('First Seen', (e, ctx) => eventTimes(e, ctx).firstSeen, { wide: true, description: 'Time of the first occurrence.' }),
    column('Count', eventCount, { wide: true, description: 'How many times the event occurred.' }),
    { ...nameColumn, priority: 1 },
];
//# sourceMappingURL=event-printing.js.map