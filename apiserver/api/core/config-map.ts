/** core/v1 ConfigMap: non-confidential configuration data as key-value pairs. */
import { z } from 'zod';
import { KIND_IDS } from '../kind-refs.js';
import { StringMapSchema, typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { isOverDataLimit, MAX_SECRET_SIZE, tooLong, validateDataKeys } from '../validation.js';
import { ConfigMapMessage } from './config-map-protobuf.js';
import { validateImmutableData } from './immutable-data.js';

export const ConfigMapSchema = z
  .object({
    ...typeMetaFields('v1', 'ConfigMap'),
    data: StringMapSchema.optional().describe("Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'."),
    binaryData: StringMapSchema.optional().describe('BinaryData contains the binary data, base64 encoded.'),
    immutable: z.boolean().optional().describe('Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated.'),
  })
  .meta({ id: 'io.k8s.api.core.v1.ConfigMap', description: 'ConfigMap holds configuration data for pods to consume.' });

export type ConfigMap = z.infer<typeof ConfigMapSchema>;

/** validateConfigMap checks data keys and the 1 MiB data limit, and on update the `immutable`
 * flag (Kubernetes' ValidateConfigMap and ValidateConfigMapUpdate). Pure. */
export function validateConfigMap(cm: ConfigMap, old?: ConfigMap): FieldError[] {
  return [
    ...(old ? validateImmutableData(cm, old, ['data', 'binaryData']) : []),
    ...validateDataKeys(cm.data, 'data', { data: cm.binaryData, field: 'binaryData' }),
    ...validateDataKeys(cm.binaryData, 'binaryData'),
    // Kubernetes reports the size against the whole object: an empty field path, printed `[]`.
    ...(isOverDataLimit(cm.data, cm.binaryData) ? [tooLong('[]', MAX_SECRET_SIZE)] : []),
  ];
}

export const configMapDefinition: ResourceDefinition<ConfigMap> = {
  ...KIND_IDS.configMap,
  singular: 'configmap',
  shortNames: ['cm'],
  categories: [],
  schema: ConfigMapSchema,
  tracksGeneration: false,
  subresources: {},
  printColumns: [
    nameColumn,
    column('Data', (cm: ConfigMap) => Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length, {
      type: 'integer',
    }),
    ageColumn,
  ],
  validate: validateConfigMap,
  protobuf: ConfigMapMessage,
  storage: { resource: 'configmaps' },
};
