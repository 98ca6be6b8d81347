/**
 * core/v1 ResourceQuota: caps the total of objects and compute a namespace may hold. The
 * resourcequota controller keeps `status.hard` and `status.used` current
 * (controllers/resourcequota). Validation follows kube-apiserver's ValidateResourceQuota.
 */
import { z } from 'zod';
import { KIND_IDS } from '../kind-refs.js';
import { typeMetaFields } from '../meta.js';
import { ObjectMetaMessage, QuantityMessage } from '../meta-protobuf.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import { tryParseQuantity } from '../quantity.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { invalid, isQualifiedName, notSupported } from '../validation.js';
import { type ResourceList, ResourceListSchema, validateQuantities } from './quantity.js';
import { K8S_CORE } from './schema-helpers.js';

const ScopedResourceSelectorRequirementSchema = z
  .object({
    scopeName: z.string().describe('The name of the scope that the selector applies to.'),
    operator: z.string().describe("Represents a scope's relationship to a set of values: In, NotIn, Exists or DoesNotExist."),
    values: z.array(z.string()).optional().describe('An array of string values, non-empty for In and NotIn, empty otherwise.'),
  })
  .meta({ id: `${K8S_CORE}.ScopedResourceSelectorRequirement`, description: 'A scoped-resource selector requirement.' });

export const ResourceQuotaSchema = z
  .object({
    ...typeMetaFields('v1', 'ResourceQuota'),
    spec: z
      .object({
        hard: ResourceListSchema.optional().describe('hard is the set of desired hard limits for each named resource.'),
        scopes: z.array(z.string()).optional().describe('A collection of filters that must match each object tracked by a quota.'),
        scopeSelector: z
          .object({ matchExpressions: z.array(ScopedResourceSelectorRequirementSchema).optional().describe('A list of scope selector requirements by scope.') })
          .meta({
            id: `${K8S_CORE}.ScopeSelector`,
            description: 'A scope selector represents the AND of the selectors represented by the scoped-resource selector requirements.',
          })
          .optional()
          .describe('scopeSelector is also a collection of filters like scopes that must match each object tracked by a quota.'),
      })
      .meta({ id: `${K8S_CORE}.ResourceQuotaSpec`, description: 'ResourceQuotaSpec defines the desired hard limits to enforce for Quota.' })
      .optional()
      .describe('Spec defines the desired quota.'),
    status: z
      .object({
        hard: ResourceListSchema.optional().describe('Hard is the set of enforced hard limits for each named resource.'),
        used: ResourceListSchema.optional().describe('Used is the current observed total usage of the resource in the namespace.'),
      })
      .meta({ id: `${K8S_CORE}.ResourceQuotaStatus`, description: 'ResourceQuotaStatus defines the enforced hard limits and observed use.' })
      .optional()
      .describe('Status defines the actual enforced quota and its current usage.'),
  })
  .meta({ id: `${K8S_CORE}.ResourceQuota`, description: 'ResourceQuota sets aggregate quota restrictions enforced per namespace.' });

export type ResourceQuota = z.infer<typeof ResourceQuotaSchema>;

const ResourceQuotaMessage = message(`${K8S_CORE}.ResourceQuota`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message(
    'spec',
    message(`${K8S_CORE}.ResourceQuotaSpec`, {
      1: field.map('hard', QuantityMessage),
      2: field.repeated('scopes', 'string'),
      3: field.message(
        'scopeSelector',
        message(`${K8S_CORE}.ScopeSelector`, {
          1: field.repeated(
            'matchExpressions',
            message(`${K8S_CORE}.ScopedResourceSelectorRequirement`, {
              1: field.string('scopeName', KEEP_ZERO),
              2: field.string('operator', KEEP_ZERO),
              3: field.repeated('values', 'string'),
            }),
          ),
        }),
      ),
    }),
  ),
  3: field.message('status', message(`${K8S_CORE}.ResourceQuotaStatus`, { 1: field.map('hard', QuantityMessage), 2: field.map('used', QuantityMessage) })),
});

/** Object counts a quota may cap by their short names; `count/<resource>` covers any other. */
const OBJECT_COUNTS = [
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
];
const COMPUTE = [
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.storage',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
];
const STANDARD_QUOTA_RESOURCES = new Set([...OBJECT_COUNTS, ...COMPUTE]);
const SCOPES = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity', 'VolumeAttributesClass'];

const isHugePages = (name: string) => /^(requests\.)?hugepages-/.test(name) || name.startsWith('limits.hugepages-');
/** isCountedInUnits: resources counted in whole objects, whose quantities must be integers. */
const isCountedInUnits = (name: string) => OBJECT_COUNTS.includes(name) || name.startsWith('count/');

/** validateQuotaList checks a hard or used list: resource names a quota knows, quantities
 * that parse, are not negative and are whole numbers for object counts. */
function validateQuotaList(list: ResourceList | undefined, at: string): FieldError[] {
  const errors = validateQuantities(list, at);
  for (const [name, quantity] of Object.entries(list ?? {})) {
    const field = `${at}[${name}]`;
    errors.push(...isQualifiedName(name).map((detail) => invalid(field, name, detail)));
    if (!name.includes('/') && !STANDARD_QUOTA_RESOURCES.has(name) && !isHugePages(name))
      errors.push(invalid(field, name, 'must be a standard resource for quota'));
    const parsed = tryParseQuantity(quantity);
    if (parsed && isCountedInUnits(name) && parsed.milliValue() % 1000 !== 0) errors.push(invalid(field, quantity, 'must be an integer'));
  }
  return errors;
}

/** validateResourceQuota checks spec and status as ValidateResourceQuota does. Pure. */
export function validateResourceQuota(quota: ResourceQuota): FieldError[] {
  const { spec, status } = quota;
  return [
    ...validateQuotaList(spec?.hard, 'spec.hard'),
    ...(spec?.scopes ?? []).filter((scope) => !SCOPES.includes(scope)).map((scope) => notSupported('spec.scopes', scope, SCOPES)),
    ...(spec?.scopeSelector?.matchExpressions ?? []).flatMap((requirement, index) =>
      SCOPES.includes(requirement.scopeName) ? [] : [notSupported(`spec.scopeSelector.matchExpressions[${index}].scopeName`, requirement.scopeName, SCOPES)],
    ),
    ...validateQuotaList(status?.hard, 'status.hard'),
    ...validateQuotaList(status?.used, 'status.used'),
  ];
}

/** usageCells renders the REQUEST or LIMIT cell: `name: used/hard` for each enforced
 * resource, sorted by name; limits.* go to the LIMIT cell, everything else to REQUEST. */
function usageCells(quota: ResourceQuota, limits: boolean): string {
  const { hard = {}, used = {} } = quota.status ?? {};
  const canonical = (text: string | undefined) => (text === undefined ? '0' : (tryParseQuantity(text)?.toString() ?? text));
  return Object.keys(hard)
    .sort()
    .filter((name) => name.startsWith('limits.') === limits)
    .map((name) => `${name}: ${canonical(used[name])}/${canonical(hard[name])}`)
    .join(', ');
}

export const resourceQuotaDefinition: ResourceDefinition<ResourceQuota> = {
  ...KIND_IDS.resourceQuota,
  singular: 'resourcequota',
  shortNames: ['quota'],
  categories: [],
  schema: ResourceQuotaSchema,
  validate: validateResourceQuota,
  tracksGeneration: false,
  subresources: { status: true },
  printColumns: [
    nameColumn,
    ageColumn,
    column('Request', (quota: ResourceQuota) => usageCells(quota, false), {
      description: 'Request represents a minimum amount of cpu/memory that a container may consume.',
    }),
    column('Limit', (quota: ResourceQuota) => usageCells(quota, true), {
      description: 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.',
    }),
  ],
  protobuf: ResourceQuotaMessage,
  storage: { resource: 'resourcequotas' },
};
