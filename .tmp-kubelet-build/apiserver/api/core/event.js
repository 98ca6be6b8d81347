/**
 * core/v1 Event: a report of something that happened to an object (ScalingReplicaSet,
 * Scheduled, Pulled, ...). `kubectl describe` and `kubectl events` read these, not
 * events.k8s.io, and select them by involvedObject fields (KUBECTL-WIRE §2 describe, §5).
 */
import { z } from 'zod';
import { MicroTimeSchema, TimeSchema, typeMetaFields } from '../meta.js';
import { eventColumns } from './event-printing.js';
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
    count: z.number().int().optional().describe('Occurrences in this series up to the last heartbeat.'),
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
    count: z.number().int().optional().describe('How many times the event has occurred.'),
    type: z.string().optional().describe('Normal or Warning.'),
    eventTime: MicroTimeSchema.optional().describe('When the event was first observed (newer clients set this instead of firstTimestamp).'),
    series: EventSeriesSchema.optional().describe('Data about the series of events this one belongs to, if any.'),
    action: z.string().optional().describe('What action was taken or failed regarding the object.'),
    related: ObjectReferenceSchema.optional().describe('A second object involved, e.g. the node a pod was bound to.'),
    reportingComponent: z.string().optional().describe('Controller that emitted the event, e.g. kubernetes.io/kubelet.'),
    reportingInstance: z.string().optional().describe('ID of the controller instance, e.g. kubelet-node-1.'),
})
    .meta({ id: `${K8S_CORE}.Event`, description: 'Event is a report of an event somewhere in the cluster.' });
// Absent fields read as '' so that `involvedObject.namespace=` selects the events of
// cluster-scoped objects, as in Kubernetes where the Go zero value is the empty string.
const involved = (field) => (event) => event.involvedObject[field] ?? '';
export const eventDefinition = {
    group: '',
    version: 'v1',
    kind: 'Event',
    plural: 'events',
    singular: 'event',
    shortNames: ['ev'],
    categories: [],
    namespaced: true,
    schema: EventSchema,
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
//# sourceMappingURL=event.js.map