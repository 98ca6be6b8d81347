/**
 * flowcontrol.apiserver.k8s.io: FlowSchemas and PriorityLevelConfigurations (API Priority and
 * Fairness), stored and validated; kubesim enforces none of them.
 *
 * Role: schema, validation and table columns of the group's kinds, registered by the
 * registry like every other group. May import only from apiserver/api/ and zod. See
 * docs/api-conventions.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { flowSchemaDefinition } from './flow-schema.js';
import { priorityLevelConfigurationDefinition } from './priority-level-configuration.js';

export { BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS } from './bootstrap-configuration.js';
export { danglingCondition, type FlowSchema, flowSchemaDefinition } from './flow-schema.js';
export { type PriorityLevelConfiguration, priorityLevelConfigurationDefinition } from './priority-level-configuration.js';

/** flowcontrolDefinitions lists the group's served kinds. */
export const flowcontrolDefinitions: AnyResourceDefinition[] = [flowSchemaDefinition, priorityLevelConfigurationDefinition];
