/**
 * policy: PodDisruptionBudgets (policy/v1) and the Eviction body of pods/eviction.
 *
 * Role: schema, validation and table columns of the group's kinds, registered by the
 * registry like every other group. May import only from apiserver/api/ and zod. See
 * docs/api-conventions.md.
 */
import type { ResourceDefinition } from '../resource-definition.js';
import { podDisruptionBudgetDefinition } from './pod-disruption-budget.js';

export { EvictionSchema, type Eviction } from './eviction.js';
export {
  DISRUPTION_ALLOWED_CONDITION,
  PodDisruptionBudgetSchema,
  PodDisruptionBudgetSpecSchema,
  PodDisruptionBudgetStatusSchema,
  podDisruptionBudgetDefinition,
  UnhealthyPodEvictionPolicies,
  validatePodDisruptionBudget,
  type PodDisruptionBudget,
  type PodDisruptionBudgetStatus,
} from './pod-disruption-budget.js';

/** policyDefinitions lists the group's served kinds. */
export const policyDefinitions: ResourceDefinition<any>[] = [podDisruptionBudgetDefinition];
