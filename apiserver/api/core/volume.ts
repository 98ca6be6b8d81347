/**
 * core/v1 Volume with the common sources modelled (emptyDir, configMap, secret, hostPath,
 * persistentVolumeClaim); the rarer ones are kept as pass-through objects.
 */
import { z } from 'zod';
import { QuantitySchema } from '../meta.js';
import { K8S_CORE, looseObject } from './schema-helpers.js';

export const KeyToPathSchema = z
  .object({
    key: z.string().describe('The key to project.'),
    path: z.string().describe('Relative path of the file to write the key to.'),
    mode: z.int32().optional().describe('File mode bits; defaultMode when unset.'),
  })
  .meta({ id: `${K8S_CORE}.KeyToPath`, description: 'Maps one key to a file path within a volume.' });

const itemsField = z.array(KeyToPathSchema).optional().describe('Keys to project and where; every key is projected to a file of its name when empty.');

export const ConfigMapVolumeSourceSchema = z
  .object({
    name: z.string().optional().describe('Name of the ConfigMap.'),
    items: itemsField,
    defaultMode: z.int32().optional().describe('Mode bits of created files. Defaults to 0644.'),
    optional: z.boolean().optional().describe('Whether the ConfigMap may be missing.'),
  })
  .meta({ id: `${K8S_CORE}.ConfigMapVolumeSource`, description: 'Projects the keys of a ConfigMap as files.' });

export const SecretVolumeSourceSchema = z
  .object({
    secretName: z.string().optional().describe('Name of the Secret.'),
    items: itemsField,
    defaultMode: z.int32().optional().describe('Mode bits of created files. Defaults to 0644.'),
    optional: z.boolean().optional().describe('Whether the Secret may be missing.'),
  })
  .meta({ id: `${K8S_CORE}.SecretVolumeSource`, description: 'Projects the keys of a Secret as files.' });

export const EmptyDirVolumeSourceSchema = z
  .object({
    medium: z.string().optional().describe('Storage medium: "" for the node default or "Memory" for tmpfs.'),
    sizeLimit: QuantitySchema.optional().describe('Maximum size of the directory.'),
  })
  .meta({ id: `${K8S_CORE}.EmptyDirVolumeSource`, description: "A temporary directory that shares the pod's lifetime." });

export const HostPathVolumeSourceSchema = z
  .object({
    path: z.string().describe('Path of the directory on the host.'),
    type: z.string().optional().describe('Expected type of the path (Directory, File, DirectoryOrCreate, ...).'),
  })
  .meta({ id: `${K8S_CORE}.HostPathVolumeSource`, description: 'A file or directory of the host node.' });

export const PersistentVolumeClaimVolumeSourceSchema = z
  .object({
    claimName: z.string().describe("Name of a PersistentVolumeClaim in the pod's namespace."),
    readOnly: z.boolean().optional().describe('Mount read-only when true.'),
  })
  .meta({ id: `${K8S_CORE}.PersistentVolumeClaimVolumeSource`, description: 'References a PersistentVolumeClaim.' });

/** NFSVolumeSourceSchema is shared with PersistentVolumeSpec: one definition per model id. */
export const NFSVolumeSourceSchema = looseObject(`${K8S_CORE}.NFSVolumeSource`, 'An NFS export.');

const loose = (type: string, description: string) => looseObject(`${K8S_CORE}.${type}`, description).optional();

export const VolumeSchema = z
  .object({
    name: z.string().describe('Name of the volume, a DNS label unique within the pod.'),
    emptyDir: EmptyDirVolumeSourceSchema.optional(),
    configMap: ConfigMapVolumeSourceSchema.optional(),
    secret: SecretVolumeSourceSchema.optional(),
    hostPath: HostPathVolumeSourceSchema.optional(),
    persistentVolumeClaim: PersistentVolumeClaimVolumeSourceSchema.optional(),
    projected: loose('ProjectedVolumeSource', 'Several sources projected into one directory.'),
    downwardAPI: loose('DownwardAPIVolumeSource', 'Pod fields exposed as files.'),
    ephemeral: loose('EphemeralVolumeSource', 'A volume backed by a claim that lives as long as the pod.'),
    csi: loose('CSIVolumeSource', 'A volume provided by a CSI driver.'),
    nfs: NFSVolumeSourceSchema.optional(),
    image: loose('ImageVolumeSource', 'An OCI image mounted read-only.'),
  })
  .meta({ id: `${K8S_CORE}.Volume`, description: 'Volume is a named directory that containers of the pod can mount. Exactly one source is set.' });

export type Volume = z.infer<typeof VolumeSchema>;

/** VOLUME_SOURCES lists the source fields of a Volume (everything but name). */
export const VOLUME_SOURCES = Object.keys(VolumeSchema.shape).filter((key) => key !== 'name') as Array<Exclude<keyof Volume, 'name'>>;

const DEFAULT_MODE = 0o644;

/** defaultVolume fills Kubernetes' volume defaults in place: a volume with no source is an
 * emptyDir, and projected files get mode 0644. */
export function defaultVolume(volume: Volume): void {
  if (!VOLUME_SOURCES.some((source) => volume[source] !== undefined)) volume.emptyDir = {};
  if (volume.configMap) volume.configMap.defaultMode ??= DEFAULT_MODE;
  if (volume.secret) volume.secret.defaultMode ??= DEFAULT_MODE;
  if (volume.hostPath) volume.hostPath.type ??= '';
  if (volume.projected) volume.projected['defaultMode'] ??= DEFAULT_MODE;
  if (volume.downwardAPI) volume.downwardAPI['defaultMode'] ??= DEFAULT_MODE;
}
