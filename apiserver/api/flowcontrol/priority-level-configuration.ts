/**
 * flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration: a priority level of API Priority
 * and Fairness — exempt, or limited to a share of the server's concurrency with requests
 * beyond it queued or rejected. Stored, defaulted and validated as kube-apiserver does; kubesim
 * does not limit or queue requests by them.
 */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { forbidden, invalid, notSupported, required } from '../validation.js';
import { BOOTSTRAP_PRIORITY_LEVELS } from './bootstrap-configuration.js';
import { FlowSchemaConditionSchema, mandatorySpecErrors } from './flow-schema.js';

const V1 = 'io.k8s.api.flowcontrol.v1';

const QueuingConfigurationSchema = z
  .object({
    queues: z.int32().optional().describe('The number of queues of the level; default 64.'),
    handSize: z.int32().optional().describe('How many queues each flow is shuffle-sharded over; default 8.'),
    queueLengthLimit: z.int32().optional().describe('The most requests one queue may hold; default 50.'),
  })
  .meta({ id: `${V1}.QueuingConfiguration`, description: 'QueuingConfiguration holds the configuration parameters for queuing' });

const LimitResponseSchema = z
  .object({
    type: z.string().describe('Queue or Reject: what happens to a request that cannot run at once. Required.'),
    queuing: QueuingConfigurationSchema.optional().describe('The queues, when type is Queue.'),
  })
  .meta({
    id: `${V1}.LimitResponse`,
    description: 'LimitResponse defines how to handle requests that can not be executed right now.',
    'x-kubernetes-unions': [{ discriminator: 'type', 'fields-to-discriminateBy': { queuing: 'Queuing' } }],
  });

const LimitedSchema = z
  .object({
    nominalConcurrencyShares: z.int32().optional().describe("The level's share of the server's concurrency limit; default 30."),
    limitResponse: LimitResponseSchema.optional().describe('What to do with requests beyond the limit.'),
    lendablePercent: z.int32().optional().describe("Percentage of the level's nominal concurrency other levels may borrow (0-100)."),
    borrowingLimitPercent: z.int32().optional().describe('How much the level may borrow, as a percentage of its nominal concurrency; no limit when absent.'),
  })
  .meta({
    id: `${V1}.LimitedPriorityLevelConfiguration`,
    description: 'LimitedPriorityLevelConfiguration specifies how to handle requests that are subject to limits.',
  });

const ExemptSchema = z
  .object({
    nominalConcurrencyShares: z.int32().optional().describe('The share of concurrency exempt requests count against; default 0.'),
    lendablePercent: z.int32().optional().describe('Percentage of the nominal concurrency other levels may borrow (0-100).'),
  })
  .meta({
    id: `${V1}.ExemptPriorityLevelConfiguration`,
    description: 'ExemptPriorityLevelConfiguration describes the configurable aspects of the handling of exempt requests.',
  });

export const PriorityLevelConfigurationSchema = z
  .object({
    ...typeMetaFields('flowcontrol.apiserver.k8s.io/v1', 'PriorityLevelConfiguration'),
    spec: z
      .object({
        type: z.string().describe('Exempt (requests are never limited) or Limited. Required.'),
        limited: LimitedSchema.optional().describe('The limits, when type is Limited.'),
        exempt: ExemptSchema.optional().describe('The exempt configuration, when type is Exempt.'),
      })
      .meta({
        id: `${V1}.PriorityLevelConfigurationSpec`,
        description: 'PriorityLevelConfigurationSpec specifies the configuration of a priority level.',
        'x-kubernetes-unions': [{ discriminator: 'type', 'fields-to-discriminateBy': { exempt: 'Exempt', limited: 'Limited' } }],
      })
      .optional()
      .describe('The configuration of the level.'),
    status: z
      .object({
        conditions: z
          .array(
            FlowSchemaConditionSchema.meta({
              id: `${V1}.PriorityLevelConfigurationCondition`,
              description: 'PriorityLevelConfigurationCondition defines the condition of priority level.',
            }),
          )
          .optional()
          .describe('The current state of the level.')
          .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }),
      })
      .meta({
        id: `${V1}.PriorityLevelConfigurationStatus`,
        description: 'PriorityLevelConfigurationStatus represents the current state of a "request-priority".',
      })
      .optional()
      .describe('The current state of the level.'),
  })
  .meta({ id: `${V1}.PriorityLevelConfiguration`, description: 'PriorityLevelConfiguration represents the configuration of a priority level.' });

export type PriorityLevelConfiguration = z.infer<typeof PriorityLevelConfigurationSchema>;
type Limited = z.infer<typeof LimitedSchema>;

const TYPES = ['Exempt', 'Limited'];
const LIMIT_RESPONSE_TYPES = ['Queue', 'Reject'];
/** The shuffle-sharding dealer works with at most 60 bits of entropy (log2 of deckSize^handSize). */
const MAX_ENTROPY_BITS = 60;
const MAX_QUEUES = 10_000_000;

/** defaultPriorityLevel applies flowcontrol/v1 defaulting. */
export function defaultPriorityLevel(pl: PriorityLevelConfiguration): void {
  const spec = pl.spec;
  if (spec?.limited) {
    spec.limited.nominalConcurrencyShares ??= 30;
    spec.limited.lendablePercent ??= 0;
    const queuing = spec.limited.limitResponse?.queuing;
    if (queuing) {
      if (!queuing.queues) queuing.queues = 64;
      if (!queuing.handSize) queuing.handSize = 8;
      if (!queuing.queueLengthLimit) queuing.queueLengthLimit = 50;
    }
  }
  if (spec?.exempt) {
    spec.exempt.nominalConcurrencyShares ??= 0;
    spec.exempt.lendablePercent ??= 0;
  }
}

/** validatePriorityLevel checks the spec with kube-apiserver's messages; the mandatory levels
 * (exempt, catch-all) must keep their fixed spec. */
export function validatePriorityLevel(pl: PriorityLevelConfiguration): FieldError[] {
  const spec = pl.spec ?? { type: '' };
  const name = pl.metadata.name ?? '';
  const errors: FieldError[] = [];
  if ((name === 'exempt') !== (spec.type === 'Exempt')) errors.push(invalid('spec.type', spec.type, "type must be 'Exempt' if and only if name is 'exempt'"));
  switch (spec.type) {
    case 'Exempt':
      if (spec.limited) errors.push(forbidden('spec.limited', 'must be nil if the type is not Limited'));
      if (spec.exempt) {
        if ((spec.exempt.nominalConcurrencyShares ?? 0) < 0)
          errors.push(invalid('spec.exempt.nominalConcurrencyShares', spec.exempt.nominalConcurrencyShares, 'must be a non-negative integer'));
        errors.push(...validatePercent(spec.exempt.lendablePercent, 'spec.exempt.lendablePercent'));
      }
      break;
    case 'Limited':
      if (spec.exempt) errors.push(forbidden('spec.exempt', 'must be nil if the type is Limited'));
      if (!spec.limited) errors.push(required('spec.limited', 'must not be empty when type is Limited'));
      else errors.push(...validateLimited(spec.limited, 'spec.limited'));
      break;
    default:
      errors.push(notSupported('spec.type', spec.type, TYPES));
  }
  errors.push(...mandatorySpecErrors(name, pl.spec, BOOTSTRAP_PRIORITY_LEVELS, 'flowcontrol.PriorityLevelConfigurationSpec'));
  return errors;
}

function validatePercent(value: number | undefined, at: string): FieldError[] {
  return value !== undefined && (value < 0 || value > 100) ? [invalid(at, value, 'must be between 0 and 100, inclusive')] : [];
}

function validateLimited(limited: Limited, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const shares = limited.nominalConcurrencyShares ?? 0;
  if (shares < 0) errors.push(invalid(`${at}.nominalConcurrencyShares`, shares, 'must be a non-negative integer'));
  errors.push(...validateLimitResponse(limited.limitResponse ?? { type: '' }, `${at}.limitResponse`));
  errors.push(...validatePercent(limited.lendablePercent, `${at}.lendablePercent`));
  if (limited.borrowingLimitPercent !== undefined && limited.borrowingLimitPercent < 0)
    errors.push(invalid(`${at}.borrowingLimitPercent`, limited.borrowingLimitPercent, 'if specified, must be a non-negative integer'));
  return errors;
}

function validateLimitResponse(response: NonNullable<Limited['limitResponse']>, at: string): FieldError[] {
  switch (response.type) {
    case 'Reject':
      return response.queuing ? [forbidden(`${at}.queuing`, 'must be nil if limited.limitResponse.type is not Limited')] : [];
    case 'Queue':
      return response.queuing
        ? validateQueuing(response.queuing, `${at}.queuing`)
        : [required(`${at}.queuing`, 'must not be empty if limited.limitResponse.type is Limited')];
    default:
      return [notSupported(`${at}.type`, response.type, LIMIT_RESPONSE_TYPES)];
  }
}

function validateQueuing(queuing: NonNullable<NonNullable<Limited['limitResponse']>['queuing']>, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const { queues = 0, handSize = 0, queueLengthLimit = 0 } = queuing;
  if (queueLengthLimit <= 0) errors.push(invalid(`${at}.queueLengthLimit`, queueLengthLimit, 'must be positive'));
  if (queues <= 0) errors.push(invalid(`${at}.queues`, queues, 'must be positive'));
  else if (queues > MAX_QUEUES) errors.push(invalid(`${at}.queues`, queues, `must not be greater than ${MAX_QUEUES}`));
  if (handSize <= 0) errors.push(invalid(`${at}.handSize`, handSize, 'must be positive'));
  else if (handSize > queues) errors.push(invalid(`${at}.handSize`, handSize, `should not be greater than queues (${queues})`));
  else if (Math.ceil(Math.log2(queues) * handSize) > MAX_ENTROPY_BITS)
    errors.push(
      invalid(
        `${at}.handSize`,
        handSize,
        `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${MAX_ENTROPY_BITS}`,
      ),
    );
  return errors;
}

const none = (value: number | undefined) => (value === undefined ? '<none>' : value);

/** priorityLevelDefinition serves flowcontrol.apiserver.k8s.io/v1 prioritylevelconfigurations (cluster-scoped, +status). */
export const priorityLevelConfigurationDefinition: ResourceDefinition<PriorityLevelConfiguration> = {
  group: 'flowcontrol.apiserver.k8s.io',
  version: 'v1',
  kind: 'PriorityLevelConfiguration',
  plural: 'prioritylevelconfigurations',
  singular: 'prioritylevelconfiguration',
  shortNames: [],
  categories: [],
  namespaced: false,
  schema: PriorityLevelConfigurationSchema,
  defaults: defaultPriorityLevel,
  validate: validatePriorityLevel,
  tracksGeneration: true,
  subresources: { status: true },
  printColumns: [
    nameColumn,
    column('Type', (pl: PriorityLevelConfiguration) => pl.spec?.type ?? '', { description: 'Exempt or Limited.' }),
    column('NominalConcurrencyShares', (pl: PriorityLevelConfiguration) => none(pl.spec?.limited?.nominalConcurrencyShares), {
      description: "The level's share of the concurrency limit.",
    }),
    column('Queues', (pl: PriorityLevelConfiguration) => none(pl.spec?.limited?.limitResponse?.queuing?.queues), { description: 'The number of queues.' }),
    column('HandSize', (pl: PriorityLevelConfiguration) => none(pl.spec?.limited?.limitResponse?.queuing?.handSize), { description: 'Queues per flow.' }),
    column('QueueLengthLimit', (pl: PriorityLevelConfiguration) => none(pl.spec?.limited?.limitResponse?.queuing?.queueLengthLimit), {
      description: 'The most requests a queue holds.',
    }),
    ageColumn,
  ],
  storage: { resource: 'prioritylevelconfigurations.flowcontrol.apiserver.k8s.io' },
};
