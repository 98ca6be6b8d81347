/**
 * events.k8s.io: the events.k8s.io/v1 view of the stored core/v1 Events.
 *
 * Role: schema, conversion, validation and table columns of the group's kind, registered by
 * the registry like every other group. May import only from apiserver/api/ and zod. See
 * docs/api-conventions.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { eventsV1EventDefinition } from './event.js';

export { type EventsV1Event, EventsV1EventSchema, eventsV1EventDefinition, fromCoreEvent, toCoreEvent, validateEventsV1 } from './event.js';

/** eventsDefinitions lists the group's served kinds. */
export const eventsDefinitions: AnyResourceDefinition[] = [eventsV1EventDefinition];
