/**
 * discovery.k8s.io: EndpointSlices, the scalable successor of core/v1 Endpoints.
 *
 * Role: schema, validation and table columns of the group's kinds, registered by the
 * registry like every other group. May import only from apiserver/api/ and zod.
 * See docs/api-conventions.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { endpointSliceDefinition } from './endpoint-slice.js';

export * from './endpoint-slice.js';

/** discoveryDefinitions lists the group's served kinds, preferred version first. */
export const discoveryDefinitions: AnyResourceDefinition[] = [endpointSliceDefinition];
