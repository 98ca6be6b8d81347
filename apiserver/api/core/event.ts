/**
 * core/v1 Event: a report of something that happened to an object (ScalingReplicaSet,
 * Scheduled, Pulled, ...). `kubectl describe` and `kubectl events` read these, not
 * events.k8s.io, and select them by involvedObject fields (docs/kubectl-wire.md, "Lists" and
 * "Deployment controller contract").
 */
import { z } from 'zod';
import { KIND_IDS } from '../kind-refs.js';
import { MicroTimeSchema, TimeSchema, typeMetaFields } from '../meta.js';
import { age, column, nameColumn } from '../printing.js';
import type { FieldError, PrintColumn, PrintContext, ResourceDefinition } from '../resource-definition.js';
import { invalid, isDns1123Subdomain, isQualifiedName, required } from '../validation.js';
import { ObjectReferenceSchema } from './object-reference.js';
import { K8S_CORE } from './schema-helpers.js';

export const EventSourceSchema = z
  .object({
    component: z.string().optional().describe('Component that reported the event, e.g. deployment-controller or kubelet.'),
    host: z.string().optional().describe('Node name on which the event was generated.'),
  })
  .meta({ id: `${K8S_CORE}.EventSource`, description: 'EventSource names the component that produced an event.' });

export const EventSeriesSchema = z
  .object({
    count: z.int32().optional().describe('Occurrences in this series up to the last heartbeat.'),
    lastObservedTime: MicroTimeSchema.optional().describe('Time of the last occurrence observed.'),
  })
  .meta({ id: `${K8S_CORE}.EventSeries`, description: 'EventSeries describes a series of recurring events.' });

export const EventSchema = z
  .object({
    ...typeMetaFields('v1', 'Event'),
    involvedObject: ObjectReferenceSchema.describe('The object this event is about.'),
    reason: z.string().optional().describe('Short, machine-understandable reason for the transition, e.g. Scheduled.'),
    message: z.string().optional().describe('Human-readable description of what happened.'),
    source: EventSourceSchema.optional().describe('The component reporting this event.'),
    firstTimestamp: TimeSchema.optional().describe('When the event was first recorded.'),
    lastTimestamp: TimeSchema.optional().describe('When the most recent occurrence was recorded.'),
    count: z.int32().optional().describe('How many times the event has occurred.'),
    type: z.string().optional().describe('Normal or Warning.'),
    eventTime: MicroTimeSchema.optional().describe('When the event was first observed (newer clients set this instead of firstTimestamp).'),
    series: EventSeriesSchema.optional().describe('Data about the series of events this one belongs to, if any.'),
    action: z.string().optional().describe('What action was taken or failed regarding the object.'),
    related: ObjectReferenceSchema.optional().describe('A second object involved, e.g. the node a pod was bound to.'),
    reportingComponent: z.string().optional().describe('Controller that emitted the event, e.g. kubernetes.io/kubelet.'),
    reportingInstance: z.string().optional().describe('ID of the controller instance, e.g. kubelet-node-1.'),
  })
  .meta({ id: `${K8S_CORE}.Event`, description: 'Event is a report of an event somewhere in the cluster.' });

export type Event = z.infer<typeof EventSchema>;

type InvolvedField = 'kind' | 'namespace' | 'name' | 'uid' | 'apiVersion' | 'resourceVersion' | 'fieldPath';

// Absent fields read as '' so that `involvedObject.namespace=` selects the events of
// cluster-scoped objects, as in Kubernetes where the Go zero value is the empty string.
const involved = (field: InvolvedField) => (event: Event) => event.involvedObject[field] ?? '';

/* The core/v1 event Table row, after kube's printEvent (rendered wide, as the server does). */

/** eventTimes returns the Last Seen and First Seen cells: firstTimestamp falls back to
 * eventTime, lastTimestamp to the first seen time, and a series' last observation wins. */
export function eventTimes(event: Event, context: PrintContext): { lastSeen: string; firstSeen: string } {
  const firstSeen = age(event.firstTimestamp || event.eventTime, context);
  const lastSeen = event.series?.lastObservedTime
    ? age(event.series.lastObservedTime, context)
    : event.lastTimestamp
      ? age(event.lastTimestamp, context)
      : firstSeen;
  return { lastSeen, firstSeen };
}

/** eventCount is series.count for a series, else count, where 0 (unset) means a single event. */
export function eventCount(event: Event): number {
  if (event.series) return event.series.count ?? 0;
  return event.count || 1;
}

/** eventObjectCell is `kind/name` with the kind lowercased (`deployment/web`), or just the kind. */
export function eventObjectCell(event: Event): string {
  const kind = (event.involvedObject.kind ?? '').toLowerCase();
  return event.involvedObject.name ? `${kind}/${event.involvedObject.name}` : kind;
}

/** eventSourceCell is `component, host`, falling back to reportingComponent/Instance. */
export function eventSourceCell(event: Event): string {
  const component = event.source?.component || event.reportingComponent || '';
  const host = event.source?.host || event.reportingInstance || '';
  return host ? `${component}, ${host}` : component;
}

/** eventColumns are the event Table columns (docs/kubectl-wire.md, "Tables"). */
export const eventColumns: PrintColumn[] = [
  column('Last Seen', (e: Event, ctx) => eventTimes(e, ctx).lastSeen, { description: 'Time of the most recent occurrence.' }),
  column('Type', (e: Event) => e.type ?? '', { description: 'Normal or Warning.' }),
  column('Reason', (e: Event) => e.reason ?? '', { description: 'Why the event happened.' }),
  column('Object', eventObjectCell, { description: 'The object the event is about.' }),
  column('Subobject', (e: Event) => e.involvedObject.fieldPath ?? '', { wide: true, description: 'The part of the object involved.' }),
  column('Source', eventSourceCell, { wide: true, description: 'The component that reported the event.' }),
  column('Message', (e: Event) => (e.message ?? '').trim(), { description: 'What happened.' }),
  column('First Seen', (e: Event, ctx) => eventTimes(e, ctx).firstSeen, { wide: true, description: 'Time of the first occurrence.' }),
  column('Count', eventCount, { wide: true, description: 'How many times the event occurred.' }),
  { ...nameColumn, priority: 1 },
];

const REPORTING_INSTANCE_LENGTH_LIMIT = 128;
const ACTION_LENGTH_LIMIT = 128;
const REASON_LENGTH_LIMIT = 128;
const NOTE_LENGTH_LIMIT = 1024;

/**
 * validateLegacyEvent is kube-apiserver's validation of every event, through either API: an
 * old-style event (no eventTime) must be in its object's namespace (or default); a new-style
 * one (eventTime set) must name its reporting controller, instance, action and reason.
 */
export function validateLegacyEvent(event: Event): FieldError[] {
  const errors: FieldError[] = [];
  const namespace = event.metadata.namespace ?? '';
  const involvedNamespace = event.involvedObject.namespace ?? '';
  const mismatch = () => invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace');
  if (!event.eventTime) {
    if (involvedNamespace ? namespace !== involvedNamespace : namespace !== '' && namespace !== 'default') errors.push(mismatch());
  } else {
    if (!involvedNamespace && namespace !== 'default' && namespace !== 'kube-system') errors.push(mismatch());
    const controller = event.reportingComponent ?? '';
    if (!controller) errors.push(required('reportingController'));
    for (const detail of isQualifiedName(controller)) errors.push(invalid('reportingController', controller, detail));
    errors.push(...requiredAndShort('reportingInstance', event.reportingInstance, REPORTING_INSTANCE_LENGTH_LIMIT));
    errors.push(...requiredAndShort('action', event.action, ACTION_LENGTH_LIMIT));
    errors.push(...requiredAndShort('reason', event.reason, REASON_LENGTH_LIMIT));
    if ((event.message ?? '').length > NOTE_LENGTH_LIMIT) errors.push(invalid('message', '', `can have at most ${NOTE_LENGTH_LIMIT} characters`));
  }
  for (const detail of isDns1123Subdomain(namespace)) errors.push(invalid('namespace', namespace, detail));
  return errors;
}

function requiredAndShort(field: string, value: string | undefined, limit: number): FieldError[] {
  if (!value) return [required(field)];
  return value.length > limit ? [invalid(field, '', `can have at most ${limit} characters`)] : [];
}

export const eventDefinition: ResourceDefinition<Event> = {
  ...KIND_IDS.event,
  singular: 'event',
  shortNames: ['ev'],
  categories: [],
  schema: EventSchema,
  validate: (event) => validateLegacyEvent(event),
  tracksGeneration: false,
  subresources: {},
  printColumns: eventColumns,
  fieldSelectors: {
    'involvedObject.kind': involved('kind'),
    'involvedObject.namespace': involved('namespace'),
    'involvedObject.name': involved('name'),
    'involvedObject.uid': involved('uid'),
    'involvedObject.apiVersion': involved('apiVersion'),
    'involvedObject.resourceVersion': involved('resourceVersion'),
    'involvedObject.fieldPath': involved('fieldPath'),
    reason: (event) => event.reason ?? '',
    reportingComponent: (event) => event.reportingComponent ?? '',
    source: (event) => event.source?.component ?? '',
    type: (event) => event.type ?? '',
  },
  storage: { resource: 'events' },
};
