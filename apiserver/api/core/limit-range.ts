/**
 * core/v1 LimitRange: per-namespace bounds and defaults for the resources of pods,
 * containers and claims. Validation follows kube-apiserver's ValidateLimitRange; the
 * defaults it gives containers are applied on pod create (limit-ranger.ts).
 */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import { ObjectMetaMessage, QuantityMessage } from '../meta-protobuf.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import type { Quantity } from '../quantity.js';
import { tryParseQuantity } from '../quantity.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { duplicate, forbidden, invalid, isQualifiedName } from '../validation.js';
import { ResourceListSchema, validateQuantities } from './quantity.js';
import { K8S_CORE } from './schema-helpers.js';

export const LimitRangeItemSchema = z
  .object({
    type: z.string().describe('Type of resource that this limit applies to: Pod, Container or PersistentVolumeClaim.'),
    max: ResourceListSchema.optional().describe('Max usage constraints on this kind by resource name.'),
    min: ResourceListSchema.optional().describe('Min usage constraints on this kind by resource name.'),
    default: ResourceListSchema.optional().describe('Default resource requirement limit value by resource name if resource limit is omitted.'),
    defaultRequest: ResourceListSchema.optional().describe(
      'DefaultRequest is the default resource requirement request value by resource name if resource request is omitted.',
    ),
    maxLimitRequestRatio: ResourceListSchema.optional().describe(
      'MaxLimitRequestRatio, when set, bounds limit divided by request for the named resource (the burst allowed).',
    ),
  })
  .meta({ id: `${K8S_CORE}.LimitRangeItem`, description: 'LimitRangeItem defines a min/max usage limit for any resource that matches on kind.' });

export const LimitRangeSchema = z
  .object({
    ...typeMetaFields('v1', 'LimitRange'),
    spec: z
      .object({ limits: z.array(LimitRangeItemSchema).describe('Limits is the list of LimitRangeItem objects that are enforced.') })
      .meta({ id: `${K8S_CORE}.LimitRangeSpec`, description: 'LimitRangeSpec defines a min/max usage limit for resources that match on kind.' })
      .optional()
      .describe('Spec defines the limits enforced.'),
  })
  .meta({ id: `${K8S_CORE}.LimitRange`, description: 'LimitRange sets resource usage limits for each kind of resource in a Namespace.' });

export type LimitRange = z.infer<typeof LimitRangeSchema>;
export type LimitRangeItem = z.infer<typeof LimitRangeItemSchema>;

const LimitRangeItemMessage = message(`${K8S_CORE}.LimitRangeItem`, {
  1: field.string('type', KEEP_ZERO),
  2: field.map('max', QuantityMessage),
  3: field.map('min', QuantityMessage),
  4: field.map('default', QuantityMessage),
  5: field.map('defaultRequest', QuantityMessage),
  6: field.map('maxLimitRequestRatio', QuantityMessage),
});

const LimitRangeMessage = message(`${K8S_CORE}.LimitRange`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', message(`${K8S_CORE}.LimitRangeSpec`, { 1: field.repeated('limits', LimitRangeItemMessage) })),
});

/** defaultLimitRange applies SetDefaults_LimitRangeItem to Container items, in place: a
 * missing default limit is the max, a missing default request the default limit, else the
 * min. Idempotent. */
export function defaultLimitRange(lr: LimitRange): void {
  for (const item of lr.spec?.limits ?? []) {
    if (item.type !== 'Container') continue;
    const limit = { ...item.max, ...item.default };
    const request = { ...item.min, ...limit, ...item.defaultRequest };
    if (Object.keys(limit).length > 0) item.default = limit;
    if (Object.keys(request).length > 0) item.defaultRequest = request;
  }
}

const LIST_FIELDS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;

/** validateLimitRange checks every item as ValidateLimitRange does. Pure. */
export function validateLimitRange(lr: LimitRange): FieldError[] {
  const seen = new Set<string>();
  return (lr.spec?.limits ?? []).flatMap((item, index) => {
    const at = `spec.limits[${index}]`;
    const errors = isQualifiedName(item.type).map((detail) => invalid(`${at}.type`, item.type, detail));
    if (seen.has(item.type)) errors.push(duplicate(`${at}.type`, item.type));
    seen.add(item.type);
    for (const list of LIST_FIELDS) errors.push(...validateQuantities(item[list], `${at}.${list}`));
    if (item.type === 'Pod') {
      for (const list of ['default', 'defaultRequest'] as const) {
        if (Object.keys(item[list] ?? {}).length > 0) errors.push(forbidden(`${at}.${list}`, "may not be specified when `type` is 'Pod'"));
      }
    }
    return [...errors, ...validateItemBounds(item, at)];
  });
}

/** validateItemBounds checks, resource by resource, that min ≤ defaultRequest ≤ default ≤ max
 * and that maxLimitRequestRatio is at least 1, in kube-apiserver's words. */
function validateItemBounds(item: LimitRangeItem, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set(LIST_FIELDS.flatMap((list) => Object.keys(item[list] ?? {})));
  for (const name of names) {
    const q = Object.fromEntries(LIST_FIELDS.map((list) => [list, parsed(item[list]?.[name])])) as Record<(typeof LIST_FIELDS)[number], Quantity | undefined>;
    const over = (a: Quantity | undefined, b: Quantity | undefined) => a !== undefined && b !== undefined && a.cmp(b) > 0;
    const { min, max, default: limit, defaultRequest: request, maxLimitRequestRatio: ratio } = q;
    if (over(min, max)) errors.push(invalid(`${at}.min[${name}]`, String(min), `min value ${min} is greater than max value ${max}`));
    if (over(min, request))
      errors.push(invalid(`${at}.defaultRequest[${name}]`, String(request), `min value ${min} is greater than default request value ${request}`));
    if (over(request, max))
      errors.push(invalid(`${at}.defaultRequest[${name}]`, String(request), `default request value ${request} is greater than max value ${max}`));
    if (over(request, limit)) {
      errors.push(invalid(`${at}.defaultRequest[${name}]`, String(request), `default request value ${request} is greater than default limit value ${limit}`));
    }
    if (over(min, limit)) errors.push(invalid(`${at}.default[${name}]`, String(min), `min value ${min} is greater than default value ${limit}`));
    if (over(limit, max)) errors.push(invalid(`${at}.default[${name}]`, String(max), `default value ${limit} is greater than max value ${max}`));
    if (ratio !== undefined && ratio.cmp(ONE) < 0) errors.push(invalid(`${at}.maxLimitRequestRatio[${name}]`, String(ratio), `ratio ${ratio} is less than 1`));
  }
  return errors;
}

const ONE = tryParseQuantity('1') as Quantity;
const parsed = (text: string | undefined) => (text === undefined ? undefined : tryParseQuantity(text));

export const limitRangeDefinition: ResourceDefinition<LimitRange> = {
  group: '',
  version: 'v1',
  kind: 'LimitRange',
  plural: 'limitranges',
  singular: 'limitrange',
  shortNames: ['limits'],
  categories: [],
  namespaced: true,
  schema: LimitRangeSchema,
  defaults: defaultLimitRange,
  validate: validateLimitRange,
  tracksGeneration: false,
  subresources: {},
  // kube-apiserver prints the creation time itself here, not an age.
  printColumns: [
    nameColumn,
    column('Created At', (lr: LimitRange) => lr.metadata?.creationTimestamp ?? null, { type: 'date', description: ageColumn.description }),
  ],
  protobuf: LimitRangeMessage,
  storage: { resource: 'limitranges' },
};
