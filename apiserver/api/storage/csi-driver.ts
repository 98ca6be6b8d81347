/**
 * storage.k8s.io/v1 CSIDriver: how Kubernetes talks to a CSI volume driver installed in the
 * cluster (named after the driver). Stored, defaulted and validated; kubesim runs no drivers.
 */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { duplicate, invalid, notSupported, required } from '../validation.js';

const STORAGE_V1 = 'io.k8s.api.storage.v1';
const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'] as const;
const LIFECYCLE_MODES = ['Ephemeral', 'Persistent'] as const;
const MIN_TOKEN_SECONDS = 600;
const MAX_TOKEN_SECONDS = 2 ** 32;

export const CSIDriverSchema = z
  .object({
    ...typeMetaFields('storage.k8s.io/v1', 'CSIDriver'),
    spec: z
      .object({
        attachRequired: z.boolean().optional().describe('Whether volumes need an attach step (ControllerPublishVolume). Defaults to true. Immutable.'),
        podInfoOnMount: z.boolean().optional().describe('Whether the driver receives pod information on mount. Defaults to false.'),
        volumeLifecycleModes: z
          .array(z.string())
          .optional()
          .describe('Persistent (default) and/or Ephemeral. Immutable.')
          .meta({ 'x-kubernetes-list-type': 'set' }),
        storageCapacity: z.boolean().optional().describe('Whether the driver publishes CSIStorageCapacity objects. Defaults to false.'),
        fsGroupPolicy: z
          .string()
          .optional()
          .describe('Whether the driver supports fsGroup ownership changes: ReadWriteOnceWithFSType (default), File or None. Immutable.'),
        tokenRequests: z
          .array(
            z
              .object({
                audience: z.string().describe('Audience of the token.'),
                expirationSeconds: z.int().optional().describe('Lifetime of the token, at least 600 seconds.'),
              })
              .meta({ id: `${STORAGE_V1}.TokenRequest`, description: 'TokenRequest contains parameters of a service account token.' }),
          )
          .optional()
          .describe('Service account tokens kubelet passes to the driver.')
          .meta({ 'x-kubernetes-list-type': 'atomic' }),
        requiresRepublish: z.boolean().optional().describe('Whether NodePublishVolume is called periodically. Defaults to false.'),
        seLinuxMount: z.boolean().optional().describe('Whether the driver supports the -o context mount option. Defaults to false.'),
      })
      .meta({ id: `${STORAGE_V1}.CSIDriverSpec`, description: 'CSIDriverSpec is the specification of a CSIDriver.' })
      .default(() => ({}))
      .describe('Specification of the CSI driver.'),
  })
  .meta({
    id: `${STORAGE_V1}.CSIDriver`,
    description: 'CSIDriver captures information about a Container Storage Interface (CSI) volume driver deployed on the cluster.',
  });

export type CSIDriver = z.infer<typeof CSIDriverSchema>;

function defaultCsiDriver(driver: CSIDriver): void {
  const { spec } = driver;
  spec.attachRequired ??= true;
  spec.podInfoOnMount ??= false;
  spec.storageCapacity ??= false;
  spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
  spec.requiresRepublish ??= false;
  spec.seLinuxMount ??= false;
  if ((spec.volumeLifecycleModes ?? []).length === 0) spec.volumeLifecycleModes = ['Persistent'];
}

/** validateCsiDriver checks the spec (ValidateCSIDriver) and, on update, its immutable fields. */
export function validateCsiDriver(driver: CSIDriver, old?: CSIDriver): FieldError[] {
  const { spec } = driver;
  const errors: FieldError[] = [];
  if (spec.attachRequired === undefined) errors.push({ ...required('spec.attachRequired'), detail: 'must be specified' });
  if (spec.fsGroupPolicy !== undefined && !(FS_GROUP_POLICIES as readonly string[]).includes(spec.fsGroupPolicy)) {
    errors.push(notSupported('spec.fsGroupPolicy', spec.fsGroupPolicy, FS_GROUP_POLICIES));
  }
  (spec.volumeLifecycleModes ?? []).forEach((mode, i) => {
    if (!(LIFECYCLE_MODES as readonly string[]).includes(mode)) errors.push(notSupported(`spec.volumeLifecycleModes[${i}]`, mode, LIFECYCLE_MODES));
  });
  const audiences = new Set<string>();
  (spec.tokenRequests ?? []).forEach((token, i) => {
    const at = `spec.tokenRequests[${i}]`;
    if (audiences.has(token.audience)) errors.push(duplicate(`${at}.audience`, token.audience));
    audiences.add(token.audience);
    const seconds = token.expirationSeconds;
    if (seconds !== undefined && seconds < MIN_TOKEN_SECONDS)
      errors.push(invalid(`${at}.expirationSeconds`, seconds, 'may not specify a duration less than 10 minutes'));
    if (seconds !== undefined && seconds > MAX_TOKEN_SECONDS)
      errors.push(invalid(`${at}.expirationSeconds`, seconds, 'may not specify a duration larger than 2^32 seconds'));
  });
  if (old) {
    for (const key of ['attachRequired', 'fsGroupPolicy'] as const) {
      if (spec[key] !== old.spec[key]) errors.push(invalid(`spec.${key}`, spec[key], 'field is immutable'));
    }
    if ((spec.volumeLifecycleModes ?? []).join() !== (old.spec.volumeLifecycleModes ?? []).join()) {
      errors.push(invalid('spec.volumeLifecycleModes', spec.volumeLifecycleModes, 'field is immutable'));
    }
  }
  return errors;
}

const yesNo = (value: boolean | undefined) => value ?? false;

/** csiDriverDefinition serves storage.k8s.io/v1 csidrivers (cluster-scoped). */
export const csiDriverDefinition: ResourceDefinition<CSIDriver> = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'CSIDriver',
  plural: 'csidrivers',
  singular: 'csidriver',
  shortNames: [],
  categories: [],
  namespaced: false,
  schema: CSIDriverSchema,
  defaults: defaultCsiDriver,
  validate: validateCsiDriver,
  tracksGeneration: false,
  subresources: {},
  printColumns: [
    nameColumn,
    column('AttachRequired', (d: CSIDriver) => d.spec?.attachRequired ?? true, { type: 'boolean', description: 'Whether volumes need an attach step.' }),
    column('PodInfoOnMount', (d: CSIDriver) => yesNo(d.spec?.podInfoOnMount), {
      type: 'boolean',
      description: 'Whether the driver receives pod information on mount.',
    }),
    column('StorageCapacity', (d: CSIDriver) => yesNo(d.spec?.storageCapacity), {
      type: 'boolean',
      description: 'Whether the driver publishes storage capacity.',
    }),
    column('TokenRequests', (d: CSIDriver) => (d.spec?.tokenRequests ?? []).map((t) => t.audience).join(',') || '<unset>', {
      description: 'Audiences of the tokens passed to the driver.',
    }),
    column('RequiresRepublish', (d: CSIDriver) => yesNo(d.spec?.requiresRepublish), {
      type: 'boolean',
      description: 'Whether volumes are republished periodically.',
    }),
    column('Modes', (d: CSIDriver) => (d.spec?.volumeLifecycleModes ?? []).join(',') || '<none>', { description: 'The volume lifecycle modes of the driver.' }),
    ageColumn,
  ],
  storage: { resource: 'csidrivers.storage.k8s.io' },
};
