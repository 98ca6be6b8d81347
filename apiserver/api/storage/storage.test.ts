import { describe, expect, it } from 'vitest';
import { RuntimeClassSchema, runtimeClassDefinition } from '../node/runtime-class.js';
import { CSIDriverSchema, csiDriverDefinition } from './csi-driver.js';
import { CSINodeSchema, csiNodeDefinition } from './csi-node.js';
import { CSIStorageCapacitySchema, csiStorageCapacityDefinition } from './csi-storage-capacity.js';
import { STANDARD_STORAGE_CLASS, StorageClassSchema, storageClassDefinition } from './storage-class.js';
import { VolumeAttachmentSchema, volumeAttachmentDefinition } from './volume-attachment.js';

const now = { nowMs: 0 };

describe('StorageClass', () => {
  const sc = (body: Record<string, unknown>) => StorageClassSchema.parse({ metadata: { name: 'fast' }, ...body });

  it('defaults reclaim policy and binding mode, and prints the default class as kubectl does', () => {
    const fast = sc({ provisioner: 'example.com/fast' });
    storageClassDefinition.defaults?.(fast);
    expect(fast).toMatchObject({ reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
    expect(storageClassDefinition.validate?.(fast)).toEqual([]);
    const standard = StorageClassSchema.parse(STANDARD_STORAGE_CLASS);
    expect(storageClassDefinition.printColumns.slice(0, 5).map((c) => c.cell(standard, now))).toEqual([
      'standard (default)',
      'kubesim.io/simulated',
      'Delete',
      'Immediate',
      'false',
    ]);
  });

  it('validates the provisioner and policies, and forbids changing what provisioning used', () => {
    expect(storageClassDefinition.validate?.(sc({ provisioner: 'a/b/c', reclaimPolicy: 'Recycle', volumeBindingMode: 'Later' }))?.map((e) => e.field)).toEqual([
      'provisioner',
      'reclaimPolicy',
      'volumeBindingMode',
    ]);
    const old = sc({ provisioner: 'example.com/fast', parameters: { type: 'ssd' }, reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
    const changed = sc({ provisioner: 'example.com/slow', parameters: { type: 'hdd' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' });
    expect(storageClassDefinition.validate?.(changed, old)).toEqual([
      { type: 'FieldValueForbidden', field: 'parameters', detail: 'updates to parameters are forbidden.' },
      { type: 'FieldValueForbidden', field: 'provisioner', detail: 'updates to provisioner are forbidden.' },
      { type: 'FieldValueForbidden', field: 'reclaimPolicy', detail: 'updates to reclaimPolicy are forbidden.' },
      { type: 'FieldValueInvalid', field: 'volumeBindingMode', value: 'WaitForFirstConsumer', detail: 'field is immutable' },
    ]);
    expect(storageClassDefinition.validate?.(sc({ ...old, allowVolumeExpansion: true }), old)).toEqual([]);
  });
});

describe('CSI kinds', () => {
  it('defaults a CSIDriver as SetDefaults_CSIDriver and keeps attachRequired immutable', () => {
    const driver = CSIDriverSchema.parse({ metadata: { name: 'csi.example.com' } });
    csiDriverDefinition.defaults?.(driver);
    expect(driver.spec).toEqual({
      attachRequired: true,
      podInfoOnMount: false,
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      requiresRepublish: false,
      seLinuxMount: false,
      volumeLifecycleModes: ['Persistent'],
    });
    const detached = CSIDriverSchema.parse({
      ...driver,
      spec: { ...driver.spec, attachRequired: false, tokenRequests: [{ audience: 'a', expirationSeconds: 60 }] },
    });
    expect(csiDriverDefinition.validate?.(detached, driver)).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.tokenRequests[0].expirationSeconds', value: 60, detail: 'may not specify a duration less than 10 minutes' },
      { type: 'FieldValueInvalid', field: 'spec.attachRequired', value: false, detail: 'field is immutable' },
    ]);
  });

  it('wants CSINode drivers named once, with node IDs', () => {
    const node = CSINodeSchema.parse({
      metadata: { name: 'n' },
      spec: {
        drivers: [
          { name: 'a.example.com', nodeID: '' },
          { name: 'a.example.com', nodeID: 'n' },
        ],
      },
    });
    expect(csiNodeDefinition.validate?.(node)).toEqual([
      { type: 'FieldValueRequired', field: 'spec.drivers[0].nodeID' },
      { type: 'FieldValueDuplicate', field: 'spec.drivers[1].name', value: 'a.example.com' },
    ]);
  });

  it('wants exactly one VolumeAttachment source and an unchanged spec', () => {
    const attachment = (source: Record<string, unknown>) =>
      VolumeAttachmentSchema.parse({ metadata: { name: 'va' }, spec: { attacher: 'csi.example.com', source, nodeName: 'node-1' } });
    const exactlyOne = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';
    expect(volumeAttachmentDefinition.validate?.(attachment({}))).toEqual([{ type: 'FieldValueRequired', field: 'spec.source', detail: exactlyOne }]);
    expect(volumeAttachmentDefinition.validate?.(attachment({ persistentVolumeName: 'pv', inlineVolumeSpec: {} }))).toEqual([
      { type: 'FieldValueForbidden', field: 'spec.source', detail: exactlyOne },
    ]);
    const old = attachment({ persistentVolumeName: 'pv' });
    expect(volumeAttachmentDefinition.validate?.(old)).toEqual([]);
    expect(volumeAttachmentDefinition.validate?.(attachment({ persistentVolumeName: 'other' }), old)?.[0]?.detail).toBe('field is immutable');
  });

  it('checks CSIStorageCapacity sizes and prints class and capacity', () => {
    const capacity = CSIStorageCapacitySchema.parse({
      metadata: { name: 'c', namespace: 'kube-system' },
      storageClassName: 'standard',
      capacity: '-1Gi',
      maximumVolumeSize: 'lots',
    });
    expect(csiStorageCapacityDefinition.validate?.(capacity)?.map((e) => [e.field, e.detail])).toEqual([
      ['capacity', 'must be greater than or equal to 0'],
      ['maximumVolumeSize', expect.stringMatching(/^quantities must match the regular expression/)],
    ]);
    expect(csiStorageCapacityDefinition.printColumns.map((c) => c.cell({ ...capacity, capacity: undefined }, now))).toEqual(['c', 'standard', '<unset>']);
  });
});

describe('RuntimeClass', () => {
  it('wants a DNS-label handler that never changes', () => {
    const rc = (handler: string) => RuntimeClassSchema.parse({ metadata: { name: 'gvisor' }, handler });
    expect(runtimeClassDefinition.validate?.(rc('runsc'))).toEqual([]);
    expect(runtimeClassDefinition.validate?.(rc('Run_SC'))?.[0]?.field).toBe('handler');
    expect(runtimeClassDefinition.validate?.(rc('kata'), rc('runsc'))).toEqual([
      { type: 'FieldValueInvalid', field: 'handler', value: 'kata', detail: 'field is immutable' },
    ]);
  });
});
