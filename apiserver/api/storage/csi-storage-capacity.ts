/**
 * storage.k8s.io/v1 CSIStorageCapacity: how much storage of a class a CSI driver can
 * provision in a topology segment, published by the driver for the scheduler. Stored and
 * validated; kubesim's scheduler does not read it.
 */
import { z } from 'zod';
import { deepEqual } from '../deep-equal.js';
import { LabelSelectorSchema, QuantitySchema, typeMetaFields } from '../meta.js';
import { column, nameColumn } from '../printing.js';
import { quantityError, tryParseQuantity } from '../quantity.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { invalid, isDns1123Subdomain, validateLabelSelector } from '../validation.js';

export const CSIStorageCapacitySchema = z
  .object({
    ...typeMetaFields('storage.k8s.io/v1', 'CSIStorageCapacity'),
    nodeTopology: LabelSelectorSchema.optional().describe('The nodes that can reach the storage; none when unset. Immutable.'),
    storageClassName: z.string().describe('The StorageClass the capacity is for. Immutable.'),
    capacity: QuantitySchema.optional().describe('The capacity available for new volumes; unknown when unset.'),
    maximumVolumeSize: QuantitySchema.optional().describe('The largest volume that can be created; capacity when unset.'),
  })
  .meta({
    id: 'io.k8s.api.storage.v1.CSIStorageCapacity',
    description: 'CSIStorageCapacity stores the result of one CSI GetCapacity call for a storage class and topology segment.',
  });

export type CSIStorageCapacity = z.infer<typeof CSIStorageCapacitySchema>;

/** validateCsiStorageCapacity: a valid class name and selector, non-negative sizes; class and topology immutable. */
export function validateCsiStorageCapacity(capacity: CSIStorageCapacity, old?: CSIStorageCapacity): FieldError[] {
  const { storageClassName } = capacity;
  const errors = isDns1123Subdomain(storageClassName).map((detail) => invalid('storageClassName', storageClassName, detail));
  errors.push(...validateLabelSelector(capacity.nodeTopology, 'nodeTopology'));
  for (const key of ['capacity', 'maximumVolumeSize'] as const) {
    const value = capacity[key];
    if (value === undefined) continue;
    const problem = quantityError(value);
    if (problem) errors.push(invalid(key, value, problem));
    else if (tryParseQuantity(value)?.sign() === -1) errors.push(invalid(key, value, 'must be greater than or equal to 0'));
  }
  if (old) {
    if (storageClassName !== old.storageClassName) errors.push(invalid('storageClassName', storageClassName, 'field is immutable'));
    if (!deepEqual(capacity.nodeTopology, old.nodeTopology)) errors.push(invalid('nodeTopology', capacity.nodeTopology, 'field is immutable'));
  }
  return errors;
}

/** csiStorageCapacityDefinition serves storage.k8s.io/v1 csistoragecapacities (namespaced). */
export const csiStorageCapacityDefinition: ResourceDefinition<CSIStorageCapacity> = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'CSIStorageCapacity',
  plural: 'csistoragecapacities',
  singular: 'csistoragecapacity',
  shortNames: [],
  categories: [],
  namespaced: true,
  schema: CSIStorageCapacitySchema,
  validate: validateCsiStorageCapacity,
  tracksGeneration: false,
  subresources: {},
  // printCSIStorageCapacity has no AGE column.
  printColumns: [
    nameColumn,
    column('StorageClassName', (c: CSIStorageCapacity) => c.storageClassName ?? '', { description: 'The StorageClass the capacity is for.' }),
    column('Capacity', (c: CSIStorageCapacity) => c.capacity ?? '<unset>', { description: 'The capacity available for new volumes.' }),
  ],
  storage: { resource: 'csistoragecapacities.storage.k8s.io' },
};
