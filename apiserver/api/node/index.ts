/**
 * node.k8s.io: RuntimeClasses.
 *
 * Role: schema, validation and table columns of the group's kinds, registered by the
 * registry like every other group. May import only from apiserver/api/ and zod. See
 * docs/api-conventions.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { runtimeClassDefinition } from './runtime-class.js';

export { type RuntimeClass, RuntimeClassSchema, runtimeClassDefinition } from './runtime-class.js';

/** nodeDefinitions lists the group's served kinds. */
export const nodeDefinitions: AnyResourceDefinition[] = [runtimeClassDefinition];
