/** core/v1 Secret: small amounts of sensitive data (passwords, tokens, keys). */
import { z } from 'zod';
import { KIND_IDS } from '../kind-refs.js';
import { StringMapSchema, typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { invalid, isOverDataLimit, MAX_SECRET_SIZE, tooLong, validateDataKeys, validateImmutableField } from '../validation.js';
import { validateImmutableData } from './immutable-data.js';
import { K8S_CORE } from './schema-helpers.js';
import { SecretMessage } from './secret-protobuf.js';
import { validateSecretType } from './secret-types.js';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const SecretSchema = z
  .object({
    ...typeMetaFields('v1', 'Secret'),
    data: StringMapSchema.optional().describe("Secret data; each value is base64 encoded. Keys consist of alphanumerics, '-', '_' or '.'."),
    stringData: StringMapSchema.optional().describe('Write-only convenience: plain-text values merged into data on write (overriding it) and never returned.'),
    type: z.string().optional().describe('Used to handle the secret data programmatically. Defaults to Opaque.'),
    immutable: z.boolean().optional().describe('If true, data cannot be updated.'),
  })
  .meta({ id: `${K8S_CORE}.Secret`, description: 'Secret holds secret data of a certain type.' });

export type Secret = z.infer<typeof SecretSchema>;

/** defaultSecret sets type Opaque when unset and folds stringData into data (base64
 * encoded, overriding keys of the same name), then removes stringData. Idempotent. */
export function defaultSecret(secret: Secret): void {
  secret.type ||= 'Opaque';
  if (!secret.stringData) return;
  const data = (secret.data ??= {});
  for (const [key, value] of Object.entries(secret.stringData)) data[key] = Buffer.from(value, 'utf8').toString('base64');
  delete secret.stringData;
}

/** validateSecret checks, on update, that the type and (once `immutable`) the data stay; then
 * data keys, base64 values, the 1 MiB data limit and what the type requires (Kubernetes'
 * ValidateSecretUpdate order). */
function validateSecret(secret: Secret, old?: Secret): FieldError[] {
  const errors: FieldError[] = [];
  if (old) errors.push(...validateImmutableField(secret.type, old.type, 'type'), ...validateImmutableData(secret, old, ['data']));
  errors.push(...validateDataKeys(secret.data, 'data'));
  for (const [key, value] of Object.entries(secret.data ?? {})) {
    if (!BASE64.test(value)) errors.push(invalid(`data[${key}]`, '<secret contents redacted>', 'illegal base64 data'));
  }
  if (isOverDataLimit(undefined, secret.data)) errors.push(tooLong('data', MAX_SECRET_SIZE));
  errors.push(...validateSecretType(secret));
  return errors;
}

export const secretDefinition: ResourceDefinition<Secret> = {
  ...KIND_IDS.secret,
  singular: 'secret',
  shortNames: [],
  categories: [],
  schema: SecretSchema,
  defaults: defaultSecret,
  validate: validateSecret,
  tracksGeneration: false,
  subresources: {},
  printColumns: [
    nameColumn,
    column('Type', (s: Secret) => s.type ?? '', { description: 'The type of the secret.' }),
    column('Data', (s: Secret) => Object.keys(s.data ?? {}).length, { type: 'integer', description: 'Number of items in the secret.' }),
    ageColumn,
  ],
  fieldSelectors: {
    type: (s) => s.type ?? '',
  },
  protobuf: SecretMessage,
  storage: { resource: 'secrets' },
};
