/**
 * Protobuf tables of volume.ts (k8s.io/api/core/v1 generated.proto). Volume embeds
 * VolumeSource inline. The modelled sources are decoded, plus those kubesim keeps as
 * pass-through objects (projected, downwardAPI, csi, nfs, image, ephemeral); the cloud-disk
 * sources, which kubesim does not model, are skipped with a warning.
 */
import { LabelSelectorMessage, ObjectMetaMessage, QuantityMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import { ObjectFieldSelectorMessage, ResourceFieldSelectorMessage } from './container-protobuf.js';
import { LocalObjectReferenceMessage } from './object-reference-protobuf.js';
import { K8S_CORE } from './schema-helpers.js';

export const KeyToPathMessage = message(`${K8S_CORE}.KeyToPath`, {
  1: field.string('key', KEEP_ZERO),
  2: field.string('path', KEEP_ZERO),
  3: field.int32('mode', KEEP_ZERO),
});

export const ConfigMapVolumeSourceMessage = message(`${K8S_CORE}.ConfigMapVolumeSource`, {
  1: field.inline(LocalObjectReferenceMessage),
  2: field.repeated('items', KeyToPathMessage),
  3: field.int32('defaultMode', KEEP_ZERO),
  4: field.bool('optional', KEEP_ZERO),
});

export const SecretVolumeSourceMessage = message(`${K8S_CORE}.SecretVolumeSource`, {
  1: field.string('secretName'),
  2: field.repeated('items', KeyToPathMessage),
  3: field.int32('defaultMode', KEEP_ZERO),
  4: field.bool('optional', KEEP_ZERO),
});

export const EmptyDirVolumeSourceMessage = message(`${K8S_CORE}.EmptyDirVolumeSource`, {
  1: field.string('medium'),
  2: field.message('sizeLimit', QuantityMessage),
});

export const HostPathVolumeSourceMessage = message(`${K8S_CORE}.HostPathVolumeSource`, {
  1: field.string('path', KEEP_ZERO),
  2: field.string('type', KEEP_ZERO),
});

export const PersistentVolumeClaimVolumeSourceMessage = message(`${K8S_CORE}.PersistentVolumeClaimVolumeSource`, {
  1: field.string('claimName', KEEP_ZERO),
  2: field.bool('readOnly'),
});

export const DownwardAPIVolumeFileMessage = message(`${K8S_CORE}.DownwardAPIVolumeFile`, {
  1: field.string('path', KEEP_ZERO),
  2: field.message('fieldRef', ObjectFieldSelectorMessage),
  3: field.message('resourceFieldRef', ResourceFieldSelectorMessage),
  4: field.int32('mode', KEEP_ZERO),
});

export const DownwardAPIVolumeSourceMessage = message(`${K8S_CORE}.DownwardAPIVolumeSource`, {
  1: field.repeated('items', DownwardAPIVolumeFileMessage),
  2: field.int32('defaultMode', KEEP_ZERO),
});

const projection = (name: string) =>
  message(`${K8S_CORE}.${name}`, {
    1: field.inline(LocalObjectReferenceMessage),
    2: field.repeated('items', KeyToPathMessage),
    4: field.bool('optional', KEEP_ZERO),
  });

export const VolumeProjectionMessage = message(`${K8S_CORE}.VolumeProjection`, {
  1: field.message('secret', projection('SecretProjection')),
  2: field.message('downwardAPI', message(`${K8S_CORE}.DownwardAPIProjection`, { 1: field.repeated('items', DownwardAPIVolumeFileMessage) })),
  3: field.message('configMap', projection('ConfigMapProjection')),
  4: field.message(
    'serviceAccountToken',
    message(`${K8S_CORE}.ServiceAccountTokenProjection`, {
      1: field.string('audience'),
      2: field.int64('expirationSeconds', KEEP_ZERO),
      3: field.string('path', KEEP_ZERO),
    }),
  ),
  5: field.message(
    'clusterTrustBundle',
    message(`${K8S_CORE}.ClusterTrustBundleProjection`, {
      1: field.string('name', KEEP_ZERO),
      2: field.string('signerName', KEEP_ZERO),
      3: field.message('labelSelector', LabelSelectorMessage),
      4: field.string('path', KEEP_ZERO),
      5: field.bool('optional', KEEP_ZERO),
    }),
  ),
});

export const ProjectedVolumeSourceMessage = message(`${K8S_CORE}.ProjectedVolumeSource`, {
  1: field.repeated('sources', VolumeProjectionMessage),
  2: field.int32('defaultMode', KEEP_ZERO),
});

export const CSIVolumeSourceMessage = message(`${K8S_CORE}.CSIVolumeSource`, {
  1: field.string('driver', KEEP_ZERO),
  2: field.bool('readOnly', KEEP_ZERO),
  3: field.string('fsType', KEEP_ZERO),
  4: field.map('volumeAttributes'),
  5: field.message('nodePublishSecretRef', LocalObjectReferenceMessage),
});

export const NFSVolumeSourceMessage = message(`${K8S_CORE}.NFSVolumeSource`, {
  1: field.string('server', KEEP_ZERO),
  2: field.string('path', KEEP_ZERO),
  3: field.bool('readOnly'),
});

export const ImageVolumeSourceMessage = message(`${K8S_CORE}.ImageVolumeSource`, {
  1: field.string('reference'),
  2: field.string('pullPolicy'),
});

const typedReference = (name: string) =>
  message(`${K8S_CORE}.${name}`, {
    1: field.string('apiGroup', KEEP_ZERO),
    2: field.string('kind', KEEP_ZERO),
    3: field.string('name', KEEP_ZERO),
    4: field.string('namespace', KEEP_ZERO),
  });

export const PersistentVolumeClaimSpecMessage = message(`${K8S_CORE}.PersistentVolumeClaimSpec`, {
  1: field.repeated('accessModes', 'string'),
  2: field.message(
    'resources',
    message(`${K8S_CORE}.VolumeResourceRequirements`, { 1: field.map('limits', QuantityMessage), 2: field.map('requests', QuantityMessage) }),
  ),
  3: field.string('volumeName'),
  4: field.message('selector', LabelSelectorMessage),
  5: field.string('storageClassName', KEEP_ZERO),
  6: field.string('volumeMode', KEEP_ZERO),
  7: field.message('dataSource', typedReference('TypedLocalObjectReference')),
  8: field.message('dataSourceRef', typedReference('TypedObjectReference')),
  9: field.string('volumeAttributesClassName', KEEP_ZERO),
});

export const EphemeralVolumeSourceMessage = message(`${K8S_CORE}.EphemeralVolumeSource`, {
  1: field.message(
    'volumeClaimTemplate',
    message(`${K8S_CORE}.PersistentVolumeClaimTemplate`, {
      1: field.message('metadata', ObjectMetaMessage),
      2: field.message('spec', PersistentVolumeClaimSpecMessage),
    }),
  ),
});

export const VolumeSourceMessage = message(`${K8S_CORE}.VolumeSource`, {
  1: field.message('hostPath', HostPathVolumeSourceMessage),
  2: field.message('emptyDir', EmptyDirVolumeSourceMessage),
  6: field.message('secret', SecretVolumeSourceMessage),
  7: field.message('nfs', NFSVolumeSourceMessage),
  10: field.message('persistentVolumeClaim', PersistentVolumeClaimVolumeSourceMessage),
  16: field.message('downwardAPI', DownwardAPIVolumeSourceMessage),
  19: field.message('configMap', ConfigMapVolumeSourceMessage),
  26: field.message('projected', ProjectedVolumeSourceMessage),
  28: field.message('csi', CSIVolumeSourceMessage),
  29: field.message('ephemeral', EphemeralVolumeSourceMessage),
  30: field.message('image', ImageVolumeSourceMessage),
});

export const VolumeMessage = message(`${K8S_CORE}.Volume`, {
  1: field.string('name', KEEP_ZERO),
  2: field.inline(VolumeSourceMessage),
});
