/**
 * policy/v1 PodDisruptionBudget: how many pods selected by `spec.selector` must stay healthy
 * (minAvailable) or may be down (maxUnavailable) during voluntary disruptions. The eviction
 * subresource reads and decrements `status.disruptionsAllowed`; the disruption controller is
 * the only other writer of `status`.
 */
import { z } from 'zod';
import { KIND_IDS } from '../kind-refs.js';
import { ConditionSchema, IntOrStringSchema, LabelSelectorSchema, TimeSchema, typeMetaFields } from '../meta.js';
import { mergeByKey } from '../patch-meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { invalid, isValidPercent, notSupported, validateLabelSelector } from '../validation.js';
import { PodDisruptionBudgetMessage } from './pod-disruption-budget-protobuf.js';

const POLICY_V1 = 'io.k8s.api.policy.v1';

/** UnhealthyPodEvictionPolicies are the values of spec.unhealthyPodEvictionPolicy. */
export const UnhealthyPodEvictionPolicies = ['IfHealthyBudget', 'AlwaysAllow'] as const;

/** DISRUPTION_ALLOWED_CONDITION is the PDB condition type the controller and eviction maintain. */
export const DISRUPTION_ALLOWED_CONDITION = 'DisruptionAllowed';

export const PodDisruptionBudgetSpecSchema = z
  .object({
    minAvailable: IntOrStringSchema.optional().describe(
      'An eviction is allowed if at least "minAvailable" selected pods are still available after it (an integer or a percentage).',
    ),
    maxUnavailable: IntOrStringSchema.optional().describe(
      'An eviction is allowed if at most "maxUnavailable" selected pods are unavailable after it. Mutually exclusive with minAvailable.',
    ),
    selector: LabelSelectorSchema.optional().describe(
      'Label query over the pods whose evictions the budget manages. An empty or null selector selects no pods.',
    ),
    unhealthyPodEvictionPolicy: z
      .string()
      .optional()
      .describe('When unhealthy (not Ready) running pods may be evicted: IfHealthyBudget (default) or AlwaysAllow.'),
  })
  .meta({ id: `${POLICY_V1}.PodDisruptionBudgetSpec`, description: 'PodDisruptionBudgetSpec is a description of a PodDisruptionBudget.' });

export const PodDisruptionBudgetStatusSchema = z
  .object({
    observedGeneration: z.number().int().optional().describe('The most recent generation observed when updating this status.'),
    disruptedPods: z
      .record(z.string(), TimeSchema)
      .optional()
      .describe('Pods whose eviction the API server processed but the controller has not yet seen deleted, with the eviction time.'),
    disruptionsAllowed: z.int32().default(0).describe('Number of pod disruptions that are currently allowed.'),
    currentHealthy: z.int32().default(0).describe('Current number of healthy pods.'),
    desiredHealthy: z.int32().default(0).describe('Minimum desired number of healthy pods.'),
    expectedPods: z.int32().default(0).describe('Total number of pods counted by this disruption budget.'),
    conditions: z.array(ConditionSchema).optional().meta(mergeByKey('type')).describe('Conditions: DisruptionAllowed.'),
  })
  .meta({
    id: `${POLICY_V1}.PodDisruptionBudgetStatus`,
    description: 'PodDisruptionBudgetStatus represents information about the status of a PodDisruptionBudget.',
  });

export const PodDisruptionBudgetSchema = z
  .object({
    ...typeMetaFields('policy/v1', 'PodDisruptionBudget'),
    spec: PodDisruptionBudgetSpecSchema.default(() => ({})).describe('Specification of the desired behavior of the PodDisruptionBudget.'),
    status: PodDisruptionBudgetStatusSchema.optional().describe('Most recently observed status of the PodDisruptionBudget.'),
  })
  .meta({
    id: `${POLICY_V1}.PodDisruptionBudget`,
    description: 'PodDisruptionBudget is an object to define the max disruption that can be caused to a collection of pods.',
  });

export type PodDisruptionBudget = z.infer<typeof PodDisruptionBudgetSchema>;
export type PodDisruptionBudgetStatus = z.infer<typeof PodDisruptionBudgetStatusSchema>;

/** validatePodDisruptionBudget checks the spec as ValidatePodDisruptionBudgetSpec does. Pure. */
export function validatePodDisruptionBudget(pdb: PodDisruptionBudget): FieldError[] {
  const { spec } = pdb;
  const errors: FieldError[] = [];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    errors.push(invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  }
  errors.push(...validateBudgetValue(spec.minAvailable, 'spec.minAvailable'), ...validateBudgetValue(spec.maxUnavailable, 'spec.maxUnavailable'));
  errors.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && !(UnhealthyPodEvictionPolicies as readonly string[]).includes(policy)) {
    errors.push(notSupported('spec.unhealthyPodEvictionPolicy', policy, UnhealthyPodEvictionPolicies));
  }
  return errors;
}

/** validateBudgetValue: a non-negative integer, or a percentage between 0% and 100%. */
function validateBudgetValue(value: number | string | undefined, field: string): FieldError[] {
  if (value === undefined) return [];
  if (typeof value === 'number') return value < 0 ? [invalid(field, value, 'must be greater than or equal to 0')] : [];
  const percentErrors = isValidPercent(value);
  if (percentErrors.length > 0) return percentErrors.map((detail) => invalid(field, value, detail));
  return Number.parseInt(value, 10) > 100 ? [invalid(field, value, 'must not be greater than 100%')] : [];
}

const orNA = (value: number | string | undefined) => (value === undefined ? 'N/A' : String(value));

/** podDisruptionBudgetDefinition serves policy/v1 poddisruptionbudgets (pdb), with /status. */
export const podDisruptionBudgetDefinition: ResourceDefinition<PodDisruptionBudget> = {
  ...KIND_IDS.podDisruptionBudget,
  singular: 'poddisruptionbudget',
  shortNames: ['pdb'],
  categories: [],
  schema: PodDisruptionBudgetSchema,
  validate: validatePodDisruptionBudget,
  tracksGeneration: true,
  subresources: { status: true },
  printColumns: [
    nameColumn,
    column('Min Available', (pdb: PodDisruptionBudget) => orNA(pdb.spec?.minAvailable), { description: 'The minimum number of pods that must be available.' }),
    column('Max Unavailable', (pdb: PodDisruptionBudget) => orNA(pdb.spec?.maxUnavailable), {
      description: 'The maximum number of pods that may be unavailable.',
    }),
    column('Allowed Disruptions', (pdb: PodDisruptionBudget) => pdb.status?.disruptionsAllowed ?? 0, {
      type: 'integer',
      description: 'Calculated number of pods that may be disrupted at this time.',
    }),
    ageColumn,
  ],
  protobuf: PodDisruptionBudgetMessage,
  storage: { resource: 'poddisruptionbudgets.policy' },
};
