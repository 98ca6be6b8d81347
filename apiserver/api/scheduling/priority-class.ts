/**
 * scheduling.k8s.io/v1 PriorityClass: a name for a pod priority value. Pods name one in
 * `spec.priorityClassName`. The two system classes exist from the start (bootstrap); names
 * with the `system-` prefix are reserved for them, and at most one class is the global default.
 */
import { z } from 'zod';
import { forbidden as forbiddenError } from '../api-error.js';
import { typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, KindStrategy, KubeObject, ResourceDefinition, StrategyContext } from '../resource-definition.js';
import { forbidden, invalid, notSupported, required } from '../validation.js';
import { PriorityClassMessage } from './priority-class-protobuf.js';

const SYSTEM_PREFIX = 'system-';
const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'] as const;

/** SYSTEM_PRIORITY_CLASSES are the classes every cluster has, as kube-apiserver creates them. */
export const SYSTEM_PRIORITY_CLASSES = [
  {
    metadata: { name: 'system-node-critical' },
    value: 2_000_001_000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    metadata: { name: 'system-cluster-critical' },
    value: 2_000_000_000,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
] as const;

export const PriorityClassSchema = z
  .object({
    ...typeMetaFields('scheduling.k8s.io/v1', 'PriorityClass'),
    value: z.int32().describe('The priority pods of this class receive; higher runs first. User classes go up to 1000000000. Immutable.'),
    globalDefault: z.boolean().optional().describe('Whether this is the priority of pods that name no class. At most one class may be the default.'),
    description: z.string().optional().describe('When to use this class.'),
    preemptionPolicy: z
      .string()
      .optional()
      .describe('Never or PreemptLowerPriority (default): whether pods of the class may preempt lower-priority pods. Immutable.'),
  })
  .meta({
    id: 'io.k8s.api.scheduling.v1.PriorityClass',
    description: 'PriorityClass defines the mapping from a priority class name to the priority integer value.',
  });

export type PriorityClass = z.infer<typeof PriorityClassSchema>;

/** validatePriorityClass: reserved system names, the user maximum, the preemption policy; value and policy immutable. */
export function validatePriorityClass(pc: PriorityClass, old?: PriorityClass): FieldError[] {
  const errors: FieldError[] = [];
  const name = pc.metadata.name ?? '';
  if (name.startsWith(SYSTEM_PREFIX)) {
    const problem = systemClassProblem(name, pc.value, pc.globalDefault ?? false);
    if (problem)
      errors.push(forbidden('metadata.name', `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${problem}`));
  } else if (pc.value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errors.push(forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  const policy = pc.preemptionPolicy;
  if (policy === '') errors.push(required('preemptionPolicy'));
  else if (policy !== undefined && !(PREEMPTION_POLICIES as readonly string[]).includes(policy))
    errors.push(notSupported('preemptionPolicy', policy, PREEMPTION_POLICIES));
  if (old) {
    if (pc.value !== old.value) errors.push(forbidden('value', 'may not be changed in an update.'));
    if (pc.preemptionPolicy !== old.preemptionPolicy) errors.push(invalid('preemptionPolicy', pc.preemptionPolicy, 'field is immutable'));
  }
  return errors;
}

/** systemClassProblem says why a `system-` class is not one of the system classes as they are defined. */
function systemClassProblem(name: string, value: number, globalDefault: boolean): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES.find((pc) => pc.metadata.name === name);
  if (!known) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${name} PriorityClass must be ${known.value}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

const RESOURCE = 'priorityclasses.scheduling.k8s.io';

/** rejectSecondDefault is the Priority admission plugin's rule: one global default at most. */
function rejectSecondDefault(object: KubeObject, ctx: StrategyContext): void {
  const pc = object as unknown as PriorityClass;
  if (!pc.globalDefault) return;
  const other = ctx.listStored(RESOURCE).find((stored) => (stored as unknown as PriorityClass).globalDefault && stored.metadata.name !== pc.metadata.name);
  if (!other) return;
  throw forbiddenError(
    `priorityclasses.scheduling.k8s.io "${pc.metadata.name ?? ''}" is forbidden: PriorityClass ${other.metadata.name} is already marked as default. Only one default can exist`,
    { name: pc.metadata.name ?? '', group: 'scheduling.k8s.io', kind: 'priorityclasses' },
  );
}

const priorityClassStrategy: KindStrategy = {
  beforeCreate: rejectSecondDefault,
  beforeUpdate: (object, _old, ctx) => rejectSecondDefault(object, ctx),
  beforeDelete(name) {
    if (!SYSTEM_PRIORITY_CLASSES.some((pc) => pc.metadata.name === name)) return;
    throw forbiddenError(`priorityclasses.scheduling.k8s.io "${name}" is forbidden: this is a system priority class and cannot be deleted`, {
      name,
      group: 'scheduling.k8s.io',
      kind: 'priorityclasses',
    });
  },
};

/** priorityClassDefinition serves scheduling.k8s.io/v1 priorityclasses (pc, cluster-scoped). */
export const priorityClassDefinition: ResourceDefinition<PriorityClass> = {
  group: 'scheduling.k8s.io',
  version: 'v1',
  kind: 'PriorityClass',
  plural: 'priorityclasses',
  singular: 'priorityclass',
  shortNames: ['pc'],
  categories: [],
  namespaced: false,
  schema: PriorityClassSchema,
  defaults: (pc) => {
    pc.preemptionPolicy ??= 'PreemptLowerPriority';
  },
  validate: validatePriorityClass,
  strategy: priorityClassStrategy,
  tracksGeneration: false,
  subresources: {},
  printColumns: [
    nameColumn,
    column('Value', (pc: PriorityClass) => pc.value ?? 0, { type: 'integer', description: 'The priority pods of this class receive.' }),
    column('Global-Default', (pc: PriorityClass) => pc.globalDefault ?? false, {
      type: 'boolean',
      description: 'Whether this is the priority of pods naming no class.',
    }),
    ageColumn,
    column('PreemptionPolicy', (pc: PriorityClass) => pc.preemptionPolicy ?? '', { description: 'Whether pods of the class may preempt lower-priority pods.' }),
  ],
  protobuf: PriorityClassMessage,
  storage: { resource: RESOURCE },
};
