/**
 * apiextensions.k8s.io: CustomResourceDefinitions.
 *
 * Role: the CRD kind's schema and definition, registered like every other group. May import
 * only from apiserver/api/ and zod; the CRD machinery (validation of schemas, serving custom
 * resources, the status controllers) is apiserver/apiextensions/.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { customResourceDefinitionDefinition } from './custom-resource-definition.js';

export * from './custom-resource-definition.js';

/** apiextensionsDefinitions lists the group's served kinds. */
export const apiextensionsDefinitions: AnyResourceDefinition[] = [customResourceDefinitionDefinition];
