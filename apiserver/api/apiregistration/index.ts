/**
 * apiregistration.k8s.io: APIServices, one per served group-version (kept by
 * apiserver/apiregistration/autoregister.ts) plus any a user stores.
 *
 * Role: schema, validation and table columns of the group's kind, registered by the registry
 * like every other group. May import only from apiserver/api/ and zod. See
 * docs/api-conventions.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { apiServiceDefinition } from './api-service.js';

export { type APIService, APIServiceSchema, apiServiceDefinition, apiServiceName, validateAPIService } from './api-service.js';

/** apiregistrationDefinitions lists the group's served kinds. */
export const apiregistrationDefinitions: AnyResourceDefinition[] = [apiServiceDefinition];
