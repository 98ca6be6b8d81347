/**
 * storage.k8s.io/v1 CSINode: the CSI drivers installed on a node (named after the node), as
 * kubelets register them. kubesim's simulated kubelets install none; the objects are stored
 * and validated for tools that write or read them.
 */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import { mergeByKey } from '../patch-meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { duplicate, required, validateNonnegativeField } from '../validation.js';
import { validateCsiDriverName } from './csi-driver-name.js';

const STORAGE_V1 = 'io.k8s.api.storage.v1';

const CSINodeDriverSchema = z
  .object({
    name: z.string().describe('Name of the CSI driver.'),
    nodeID: z.string().describe('The node as the driver knows it.'),
    topologyKeys: z.array(z.string()).optional().describe('Topology label keys the driver supports.').meta({ 'x-kubernetes-list-type': 'atomic' }),
    allocatable: z
      .object({ count: z.int32().optional().describe('How many volumes of the driver the node can hold.') })
      .meta({ id: `${STORAGE_V1}.VolumeNodeResources`, description: 'VolumeNodeResources is a set of resource limits for scheduling of volumes.' })
      .optional()
      .describe('Volume resources of the driver on the node.'),
  })
  .meta({ id: `${STORAGE_V1}.CSINodeDriver`, description: 'CSINodeDriver holds information about one CSI driver installed on a node.' });

export const CSINodeSchema = z
  .object({
    ...typeMetaFields('storage.k8s.io/v1', 'CSINode'),
    spec: z
      .object({ drivers: z.array(CSINodeDriverSchema).describe('The CSI drivers on the node.').meta(mergeByKey('name')) })
      .meta({ id: `${STORAGE_V1}.CSINodeSpec`, description: 'CSINodeSpec holds information about the specification of all CSI drivers installed on a node.' })
      .describe('The drivers of the node.'),
  })
  .meta({ id: `${STORAGE_V1}.CSINode`, description: 'CSINode holds information about all CSI drivers installed on a node.' });

export type CSINode = z.infer<typeof CSINodeSchema>;

/** validateCsiNode checks each driver's name, node ID and volume count, and that names are unique. */
export function validateCsiNode(node: CSINode): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  node.spec.drivers.forEach((driver, i) => {
    const at = `spec.drivers[${i}]`;
    errors.push(...validateCsiDriverName(driver.name, `${at}.name`));
    if (names.has(driver.name)) errors.push(duplicate(`${at}.name`, driver.name));
    names.add(driver.name);
    if (driver.nodeID === '') errors.push(required(`${at}.nodeID`));
    errors.push(...validateNonnegativeField(driver.allocatable?.count, `${at}.allocatable.count`));
  });
  return errors;
}

/** csiNodeDefinition serves storage.k8s.io/v1 csinodes (cluster-scoped). */
export const csiNodeDefinition: ResourceDefinition<CSINode> = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'CSINode',
  plural: 'csinodes',
  singular: 'csinode',
  shortNames: [],
  categories: [],
  namespaced: false,
  schema: CSINodeSchema,
  validate: validateCsiNode,
  tracksGeneration: false,
  subresources: {},
  printColumns: [
    nameColumn,
    column('Drivers', (node: CSINode) => node.spec?.drivers?.length ?? 0, {
      type: 'integer',
      description: 'The number of CSI drivers registered on the node.',
    }),
    ageColumn,
  ],
  storage: { resource: 'csinodes.storage.k8s.io' },
};
