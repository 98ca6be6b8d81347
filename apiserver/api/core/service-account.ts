/** core/v1 ServiceAccount: an identity for processes that run in pods. */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import { mergeByKey } from '../patch-meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { ResourceDefinition } from '../resource-definition.js';
import { LocalObjectReferenceSchema, ObjectReferenceSchema } from './object-reference.js';
import { K8S_CORE } from './schema-helpers.js';
import { ServiceAccountMessage } from './service-account-protobuf.js';

export const ServiceAccountSchema = z
  .object({
    ...typeMetaFields('v1', 'ServiceAccount'),
    secrets: z
      .array(ObjectReferenceSchema)
      .optional()
      .meta(mergeByKey('name'))
      .describe('Secrets in the same namespace that pods using this account may use. Deprecated for tokens.'),
    imagePullSecrets: z.array(LocalObjectReferenceSchema).optional().describe('Secrets used to pull images for pods that run as this account.'),
    automountServiceAccountToken: z.boolean().optional().describe('Whether pods running as this account get an API token mounted.'),
  })
  .meta({
    id: `${K8S_CORE}.ServiceAccount`,
    description: 'ServiceAccount binds together a name understood by users and by systems, an API token and a set of secrets.',
  });

export type ServiceAccount = z.infer<typeof ServiceAccountSchema>;

export const serviceAccountDefinition: ResourceDefinition<ServiceAccount> = {
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  singular: 'serviceaccount',
  shortNames: ['sa'],
  categories: [],
  namespaced: true,
  schema: ServiceAccountSchema,
  tracksGeneration: false,
  subresources: { extra: ['token'] },
  printColumns: [
    nameColumn,
    column('Secrets', (sa: ServiceAccount) => (sa.secrets ?? []).length, { type: 'integer', description: 'Number of secrets.' }),
    ageColumn,
  ],
  protobuf: ServiceAccountMessage,
  storage: { resource: 'serviceaccounts' },
};
