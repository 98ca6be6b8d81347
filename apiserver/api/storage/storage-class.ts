/**
 * storage.k8s.io/v1 StorageClass: a class of dynamically provisioned storage. Every cluster
 * starts with `standard`, the default class (annotated as kind's is), whose provisioner is
 * kubesim's simulated one: the persistentvolume-binder controller creates and binds a volume
 * for each claim at once, hence volumeBindingMode Immediate.
 */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import { atomicStruct } from '../patch-meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { forbidden, invalid, isQualifiedName, notSupported, required } from '../validation.js';

const STORAGE_V1 = 'io.k8s.api.storage.v1';
const RECLAIM_POLICIES = ['Delete', 'Retain'] as const;
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'] as const;
const MAX_PARAMETERS = 512;
const MAX_PARAMETERS_BYTES = 256 * 1024;

/** SIMULATED_PROVISIONER is kubesim's storage provisioner (persistentvolume-binder). */
export const SIMULATED_PROVISIONER = 'kubesim.io/simulated';
/** DEFAULT_CLASS_ANNOTATIONS mark the default StorageClass (the beta spelling still counts). */
export const DEFAULT_CLASS_ANNOTATIONS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'] as const;

/** STANDARD_STORAGE_CLASS is the class every cluster starts with (bootstrap). */
export const STANDARD_STORAGE_CLASS = {
  metadata: { name: 'standard', annotations: { [DEFAULT_CLASS_ANNOTATIONS[0]]: 'true' } },
  provisioner: SIMULATED_PROVISIONER,
  reclaimPolicy: 'Delete',
  volumeBindingMode: 'Immediate',
};

const TopologySelectorTermSchema = z
  .object({
    matchLabelExpressions: z
      .array(
        z
          .object({
            key: z.string().describe('The label key.'),
            values: z.array(z.string()).describe('Values the label may have.').meta({ 'x-kubernetes-list-type': 'atomic' }),
          })
          .meta({ id: 'io.k8s.api.core.v1.TopologySelectorLabelRequirement', description: 'A label key and the values it may have.' }),
      )
      .optional()
      .describe('Label requirements, ANDed.')
      .meta({ 'x-kubernetes-list-type': 'atomic' }),
  })
  .meta({ id: 'io.k8s.api.core.v1.TopologySelectorTerm', description: 'A topology selector term: the requirements are ANDed.', ...atomicStruct });

export const StorageClassSchema = z
  .object({
    ...typeMetaFields('storage.k8s.io/v1', 'StorageClass'),
    provisioner: z.string().describe('The volume plugin or CSI driver that provisions volumes of this class. Immutable.'),
    parameters: z.record(z.string(), z.string()).optional().describe('Parameters for the provisioner. Immutable.'),
    reclaimPolicy: z.string().optional().describe('What happens to provisioned volumes when released: Delete (default) or Retain. Immutable.'),
    mountOptions: z.array(z.string()).optional().describe('Mount options of provisioned volumes.').meta({ 'x-kubernetes-list-type': 'atomic' }),
    allowVolumeExpansion: z.boolean().optional().describe('Whether claims of this class may grow.'),
    volumeBindingMode: z.string().optional().describe('When volumes are provisioned and bound: Immediate (default) or WaitForFirstConsumer. Immutable.'),
    allowedTopologies: z
      .array(TopologySelectorTermSchema)
      .optional()
      .describe('Where volumes may be provisioned; anywhere when empty.')
      .meta({ 'x-kubernetes-list-type': 'atomic' }),
  })
  .meta({
    id: `${STORAGE_V1}.StorageClass`,
    description: 'StorageClass describes the parameters for a class of storage for which PersistentVolumes can be dynamically provisioned.',
  });

export type StorageClass = z.infer<typeof StorageClassSchema>;

/** defaultStorageClass: reclaim policy Delete, binding Immediate (SetDefaults_StorageClass). */
function defaultStorageClass(sc: StorageClass): void {
  sc.reclaimPolicy ??= 'Delete';
  sc.volumeBindingMode ??= 'Immediate';
}

/** validateStorageClass: ValidateStorageClass, plus ValidateStorageClassUpdate's immutable fields on update. */
export function validateStorageClass(sc: StorageClass, old?: StorageClass): FieldError[] {
  const errors: FieldError[] = [];
  if (sc.provisioner === '') errors.push(required('provisioner'));
  else errors.push(...isQualifiedName(sc.provisioner.toLowerCase()).map((d) => invalid('provisioner', sc.provisioner, d)));
  errors.push(...validateParameters(sc.parameters ?? {}));
  if (sc.reclaimPolicy && !(RECLAIM_POLICIES as readonly string[]).includes(sc.reclaimPolicy)) {
    errors.push(notSupported('reclaimPolicy', sc.reclaimPolicy, RECLAIM_POLICIES));
  }
  if (sc.volumeBindingMode === undefined) errors.push(required('volumeBindingMode'));
  else if (!(BINDING_MODES as readonly string[]).includes(sc.volumeBindingMode))
    errors.push(notSupported('volumeBindingMode', sc.volumeBindingMode, BINDING_MODES));
  if (old) errors.push(...immutableFieldErrors(sc, old));
  return errors;
}

function validateParameters(parameters: Record<string, string>): FieldError[] {
  const entries = Object.entries(parameters);
  if (entries.length > MAX_PARAMETERS) return [{ type: 'FieldValueTooLong', field: 'parameters', detail: `may not have more than ${MAX_PARAMETERS} items` }];
  const errors: FieldError[] = entries.filter(([key]) => key === '').map(([key]) => invalid('parameters', key, 'field can not be empty.'));
  const size = entries.reduce((total, [key, value]) => total + Buffer.byteLength(key) + Buffer.byteLength(value), 0);
  if (size > MAX_PARAMETERS_BYTES)
    errors.push({ type: 'FieldValueTooLong', field: 'parameters', detail: `may not be more than ${MAX_PARAMETERS_BYTES} bytes` });
  return errors;
}

function immutableFieldErrors(sc: StorageClass, old: StorageClass): FieldError[] {
  const errors: FieldError[] = [];
  if (!sameStringMap(sc.parameters, old.parameters)) errors.push(forbidden('parameters', 'updates to parameters are forbidden.'));
  if (sc.provisioner !== old.provisioner) errors.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (sc.reclaimPolicy !== old.reclaimPolicy) errors.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  if (sc.volumeBindingMode !== old.volumeBindingMode) errors.push(invalid('volumeBindingMode', sc.volumeBindingMode, 'field is immutable'));
  return errors;
}

function sameStringMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const left = Object.entries(a ?? {});
  return left.length === Object.keys(b ?? {}).length && left.every(([key, value]) => b?.[key] === value);
}

/** isDefaultStorageClass: annotated as the default class. */
export function isDefaultStorageClass(sc: Pick<StorageClass, 'metadata'>): boolean {
  return DEFAULT_CLASS_ANNOTATIONS.some((annotation) => sc.metadata?.annotations?.[annotation] === 'true');
}

/** storageClassDefinition serves storage.k8s.io/v1 storageclasses (sc, cluster-scoped). */
export const storageClassDefinition: ResourceDefinition<StorageClass> = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'StorageClass',
  plural: 'storageclasses',
  singular: 'storageclass',
  shortNames: ['sc'],
  categories: [],
  namespaced: false,
  schema: StorageClassSchema,
  defaults: defaultStorageClass,
  validate: validateStorageClass,
  tracksGeneration: false,
  subresources: {},
  printColumns: [
    // kubectl marks the default class in the name column, as printStorageClass does.
    { ...nameColumn, cell: (sc: StorageClass) => `${sc.metadata?.name ?? ''}${isDefaultStorageClass(sc) ? ' (default)' : ''}` },
    column('Provisioner', (sc: StorageClass) => sc.provisioner ?? '', { description: 'The provisioner of volumes of this class.' }),
    column('ReclaimPolicy', (sc: StorageClass) => sc.reclaimPolicy ?? 'Delete', { description: 'What happens to released volumes.' }),
    column('VolumeBindingMode', (sc: StorageClass) => sc.volumeBindingMode ?? 'Immediate', { description: 'When volumes are provisioned and bound.' }),
    column('AllowVolumeExpansion', (sc: StorageClass) => String(sc.allowVolumeExpansion ?? false), { description: 'Whether claims of this class may grow.' }),
    ageColumn,
  ],
  storage: { resource: 'storageclasses.storage.k8s.io' },
};
