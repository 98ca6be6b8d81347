/**
 * scheduling.k8s.io: PriorityClasses.
 *
 * Role: schema, validation and table columns of the group's kinds, registered by the
 * registry like every other group. May import only from apiserver/api/ and zod. See
 * docs/api-conventions.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { priorityClassDefinition } from './priority-class.js';

export { type PriorityClass, PriorityClassSchema, priorityClassDefinition, SYSTEM_PRIORITY_CLASSES, validatePriorityClass } from './priority-class.js';

/** schedulingDefinitions lists the group's served kinds. */
export const schedulingDefinitions: AnyResourceDefinition[] = [priorityClassDefinition];
