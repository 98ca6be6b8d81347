/**
 * policy: PodDisruptionBudgets (policy/v1) and the Eviction body of pods/eviction.
 *
 * Role: schema, validation and table columns of the group's kinds, registered by the
 * registry like every other group. May import only from apiserver/api/ and zod. See
 * docs/api-conventions.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { podDisruptionBudgetDefinition } from './pod-disruption-budget.js';

export { type Eviction, EvictionSchema } from './eviction.js';
export {
  DISRUPTION_ALLOWED_CONDITION,
  type PodDisruptionBudget,
  PodDisruptionBudgetSchema,
  PodDisruptionBudgetSpecSchema,
  type PodDisruptionBudgetStatus,
  PodDisruptionBudgetStatusSchema,
  podDisruptionBudgetDefinition,
  UnhealthyPodEvictionPolicies,
  validatePodDisruptionBudget,
} from './pod-disruption-budget.js';

/** policyDefinitions lists the group's served kinds. */
export const policyDefinitions: AnyResourceDefinition[] = [podDisruptionBudgetDefinition];
