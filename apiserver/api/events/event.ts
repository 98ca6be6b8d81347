/**
 * events.k8s.io/v1 Event: the newer view of the same stored events as core/v1 Event. Both
 * versions share the store resource `events`; this one is converted to and from the core shape
 * with kube-apiserver's field mapping (note ⇄ message, regarding ⇄ involvedObject,
 * reportingController ⇄ reportingComponent, deprecatedSource ⇄ source, deprecated* ⇄ the old
 * timestamps and count), so an event created through either API is listed by both.
 */
import { z } from 'zod';
import { type Event as CoreEvent, EventSourceSchema, eventColumns, validateLegacyEvent } from '../core/event.js';
import { ObjectReferenceSchema } from '../core/object-reference.js';
import { deepEqual } from '../deep-equal.js';
import { MicroTimeSchema, TimeSchema, typeMetaFields } from '../meta.js';
import type { FieldError, KubeObject, PrintColumn, ResourceDefinition } from '../resource-definition.js';
import { invalid, required, validateImmutableField } from '../validation.js';

const V1 = 'io.k8s.api.events.v1';

const EventSeriesSchema = z
  .object({
    count: z.int32().describe('The number of occurrences in this series up to the last heartbeat time.'),
    lastObservedTime: MicroTimeSchema.describe('The time when the last event of the series was seen.'),
  })
  .meta({
    id: `${V1}.EventSeries`,
    description: 'EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time.',
  });

export const EventsV1EventSchema = z
  .object({
    ...typeMetaFields('events.k8s.io/v1', 'Event'),
    eventTime: MicroTimeSchema.optional().describe('The time when this event was first observed. Required.'),
    series: EventSeriesSchema.optional().describe('Data about the series this event represents, absent for a singleton event.'),
    reportingController: z.string().optional().describe('The controller that emitted the event, e.g. kubernetes.io/kubelet. Required for new events.'),
    reportingInstance: z.string().optional().describe('The ID of the controller instance, e.g. kubelet-xyzf. Required for new events.'),
    action: z.string().optional().describe('What action was taken or failed regarding the regarding object. Required for new events.'),
    reason: z.string().optional().describe('Why the action was taken, in UpperCamelCase. Required for new events.'),
    regarding: ObjectReferenceSchema.optional().describe('The object this event is about.'),
    related: ObjectReferenceSchema.optional().describe('A second object involved, if any.'),
    note: z.string().optional().describe('A human-readable description of the status of this operation (at most 1 kB).'),
    type: z.string().optional().describe('Normal or Warning.'),
    deprecatedSource: EventSourceSchema.optional().describe('The core/v1 source field, kept for backward compatibility.'),
    deprecatedFirstTimestamp: TimeSchema.optional().describe('The core/v1 firstTimestamp field, kept for backward compatibility.'),
    deprecatedLastTimestamp: TimeSchema.optional().describe('The core/v1 lastTimestamp field, kept for backward compatibility.'),
    deprecatedCount: z.int32().optional().describe('The core/v1 count field, kept for backward compatibility.'),
  })
  .meta({
    id: `${V1}.Event`,
    description:
      'Event is a report of an event somewhere in the cluster. It generally denotes some state change in the system. Events have a limited retention time and triggers and messages may evolve with time.',
  });

export type EventsV1Event = z.infer<typeof EventsV1EventSchema>;

/** withoutUndefined drops the keys a conversion left undefined, so absent stays absent. */
function withoutUndefined<T extends Record<string, unknown>>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
}

/** toCoreEvent maps an events.k8s.io/v1 Event onto the stored core/v1 shape. */
export function toCoreEvent(event: EventsV1Event): CoreEvent {
  return withoutUndefined({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: event.metadata,
    involvedObject: event.regarding ?? {},
    reason: event.reason,
    message: event.note,
    source: event.deprecatedSource,
    firstTimestamp: event.deprecatedFirstTimestamp,
    lastTimestamp: event.deprecatedLastTimestamp,
    count: event.deprecatedCount,
    type: event.type,
    eventTime: event.eventTime,
    series: event.series,
    action: event.action,
    related: event.related,
    reportingComponent: event.reportingController,
    reportingInstance: event.reportingInstance,
  }) as CoreEvent;
}

/** fromCoreEvent maps a stored core/v1 Event onto the events.k8s.io/v1 shape. */
export function fromCoreEvent(event: CoreEvent): EventsV1Event {
  return withoutUndefined({
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: event.metadata,
    eventTime: event.eventTime,
    series: event.series ? { count: event.series.count ?? 0, lastObservedTime: event.series.lastObservedTime ?? '' } : undefined,
    reportingController: event.reportingComponent,
    reportingInstance: event.reportingInstance,
    action: event.action,
    reason: event.reason,
    regarding: event.involvedObject,
    related: event.related,
    note: event.message,
    type: event.type,
    deprecatedSource: event.source,
    deprecatedFirstTimestamp: event.firstTimestamp,
    deprecatedLastTimestamp: event.lastTimestamp,
    deprecatedCount: event.count,
  }) as EventsV1Event;
}

/**
 * validateEventsV1 is kube-apiserver's validation of an events.k8s.io/v1 write. Its rules run
 * on the core shape, so paths name core fields (message, involvedObject, firstTimestamp):
 * every event's legacy rules, then, on create, the strict ones of the new API (eventTime and
 * type required, the old-style fields unset) and, on update, which fields may not change.
 */
export function validateEventsV1(event: EventsV1Event, old?: EventsV1Event): FieldError[] {
  const core = toCoreEvent(event);
  const errors = validateLegacyEvent(core);
  if (old) {
    const before = toCoreEvent(old);
    if (!deepEqual(core.series, before.series)) errors.push(...validateSeries(core));
    for (const field of IMMUTABLE) errors.push(...validateImmutableField(core[field], before[field], field));
    return errors;
  }
  errors.push(...validateSeries(core));
  if (!core.eventTime) errors.push(required('eventTime'));
  if (core.type !== 'Normal' && core.type !== 'Warning') errors.push(invalid('type', '', `has invalid value: ${core.type ?? ''}`));
  if (core.firstTimestamp) errors.push(invalid('firstTimestamp', '', 'needs to be unset'));
  if (core.lastTimestamp) errors.push(invalid('lastTimestamp', '', 'needs to be unset'));
  if (core.count) errors.push(invalid('count', '', 'needs to be unset'));
  if (core.source?.component || core.source?.host) errors.push(invalid('source', '', 'needs to be unset'));
  return errors;
}

/** IMMUTABLE: the core fields an events.k8s.io/v1 update may not change, in kube-apiserver's order. */
const IMMUTABLE = [
  'involvedObject',
  'reason',
  'message',
  'source',
  'firstTimestamp',
  'lastTimestamp',
  'count',
  'type',
  'eventTime',
  'action',
  'related',
  'reportingComponent',
  'reportingInstance',
] as const;

function validateSeries(core: CoreEvent): FieldError[] {
  if (!core.series) return [];
  const errors: FieldError[] = [];
  if ((core.series.count ?? 0) < 2) errors.push(invalid('series.count', '', 'should be at least 2'));
  if (!core.series.lastObservedTime) errors.push(required('series.lastObservedTime'));
  return errors;
}

/** The Table is core/v1's (kube-apiserver prints both versions with one printer), read through the conversion. */
const columns: PrintColumn[] = eventColumns.map((column) => ({ ...column, cell: (event: EventsV1Event, context) => column.cell(toCoreEvent(event), context) }));

// Field selectors run on the stored (core) shape; they are named as in events.k8s.io/v1.
type Regarding = keyof NonNullable<CoreEvent['involvedObject']>;
const regarding = (field: Regarding) => (event: CoreEvent) => (event.involvedObject?.[field] as string | undefined) ?? '';

/** eventsV1EventDefinition serves events.k8s.io/v1 events (ev), converted from the stored core/v1 events. */
export const eventsV1EventDefinition: ResourceDefinition<EventsV1Event> = {
  group: 'events.k8s.io',
  version: 'v1',
  kind: 'Event',
  plural: 'events',
  singular: 'event',
  shortNames: ['ev'],
  categories: [],
  namespaced: true,
  schema: EventsV1EventSchema,
  validate: validateEventsV1,
  tracksGeneration: false,
  subresources: {},
  printColumns: columns,
  fieldSelectors: {
    'regarding.kind': regarding('kind'),
    'regarding.namespace': regarding('namespace'),
    'regarding.name': regarding('name'),
    'regarding.uid': regarding('uid'),
    'regarding.apiVersion': regarding('apiVersion'),
    'regarding.resourceVersion': regarding('resourceVersion'),
    'regarding.fieldPath': regarding('fieldPath'),
    reason: (event: CoreEvent) => event.reason ?? '',
    reportingController: (event: CoreEvent) => event.reportingComponent ?? '',
    type: (event: CoreEvent) => event.type ?? '',
  } satisfies Record<string, (event: CoreEvent) => string> as unknown as ResourceDefinition<EventsV1Event>['fieldSelectors'],
  storage: {
    resource: 'events',
    toStorage: (object: KubeObject) => toCoreEvent(object as unknown as EventsV1Event) as unknown as KubeObject,
    fromStorage: (object: KubeObject) => fromCoreEvent(object as unknown as CoreEvent) as unknown as KubeObject,
  },
};
