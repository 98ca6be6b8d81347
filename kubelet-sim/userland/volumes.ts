/**
 * The pod's volumes as directory trees: ConfigMap, Secret, downward API and projected volumes
 * (files with their modes, re-read after a sync delay as the kubelet does), emptyDir shared by the
 * pod's containers, hostPath shared on a node, PVC-backed volumes that outlive the pod.
 */

import type { Pod } from '../../apiserver/api/core/pod.js';
import type { DeepReadonly } from '../../controllers/runtime/types.js';
import type { ObjectCache } from './cluster-objects.js';
import { nodeRoot } from './node-root.js';
import type { PidNamespaces } from './pid-namespace.js';
import { podField, resourceField } from './pod-fields.js';
import { type DirNode, type FsNode, newDir, newFile, splitPath } from './vfs.js';

type ReadonlyPod = DeepReadonly<Pod>;
type Volume = NonNullable<NonNullable<ReadonlyPod['spec']>['volumes']>[number];

/** How long the kubelet may take to show a changed ConfigMap or Secret in a volume (its sync
 * period; real kubelets take up to a minute plus the cache's TTL). */
export const VOLUME_SYNC_DELAY_MS = 60_000;

/** Where volumes that outlive a container live: per pod (emptyDir), per node (hostPath), per claim (PVC). */
export interface VolumeStores {
  readonly pods: Map<string, Map<string, DirNode>>;
  readonly shared: Map<string, DirNode>;
  /** The containers' PID namespaces (pid-namespace.ts): per kubelet, like the volumes. */
  readonly pids: PidNamespaces;
}

export const newVolumeStores = (): VolumeStores => ({ pods: new Map(), shared: new Map(), pids: new Map() });

interface KeyToPath {
  readonly key: string;
  readonly path: string;
  readonly mode?: number;
}

interface ProjectionSource {
  configMap?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  secret?: { name?: string; items?: KeyToPath[]; optional?: boolean };
  downwardAPI?: { items?: DownwardItem[] };
  serviceAccountToken?: { audience?: string; expirationSeconds?: number; path: string };
}

interface DownwardItem {
  path: string;
  fieldRef?: { fieldPath: string };
  resourceFieldRef?: { containerName?: string; resource: string; divisor?: string };
  mode?: number;
}

/** Files to write: relative path → bytes and mode. */
type Files = Map<string, { data: Uint8Array; mode: number }>;

export interface VolumeContext {
  readonly pod: ReadonlyPod;
  readonly objects: ObjectCache;
  readonly stores: VolumeStores;
  readonly now: number;
  readonly requestToken?: (serviceAccount: string, audience: string | undefined, expirationSeconds: number | undefined) => Promise<string | undefined>;
  /** A sync of a mounted volume: a ConfigMap or Secret (or listed key) that is missing and not
   * optional fails it, so the volume keeps its files, as the kubelet's SetUp fails. */
  readonly failOnMissing?: boolean;
}

/** isProjected: whether the kubelet rewrites the volume's files from API objects (and mounts it read-only). */
export const isProjected = (volume: Volume): boolean => !!(volume.configMap || volume.secret || volume.downwardAPI || volume.projected);

/** volumeRoot: the directory a volume mounts (a new one for projected kinds, the stored one otherwise). */
export async function volumeRoot(volume: Volume, context: VolumeContext): Promise<DirNode> {
  if (isProjected(volume)) return filesToDir(await projectedFiles(volume, context), context.now);
  const uid = context.pod.metadata?.uid ?? context.pod.metadata?.name ?? '';
  const stored = (key: string, store: Map<string, DirNode>, mode = 0o755, make = () => newDir(context.now, mode)) => {
    let dir = store.get(key);
    if (!dir) {
      dir = make();
      store.set(key, dir);
    }
    return dir;
  };
  if (volume.hostPath) {
    const node = context.pod.spec?.nodeName ?? '';
    // The node's own root (kubectl debug node/<n> mounts it at /host) is a node's filesystem.
    const make = volume.hostPath.path === '/' ? () => nodeRoot(node) : undefined;
    return stored(`host:${node}:${volume.hostPath.path}`, context.stores.shared, 0o755, make);
  }
  if (volume.persistentVolumeClaim)
    return stored(`pvc:${context.pod.metadata?.namespace ?? 'default'}/${volume.persistentVolumeClaim.claimName}`, context.stores.shared);
  let podVolumes = context.stores.pods.get(uid);
  if (!podVolumes) {
    podVolumes = new Map();
    context.stores.pods.set(uid, podVolumes);
  }
  // emptyDir and the kinds not simulated (csi, nfs, ephemeral, image) start empty and live with the pod.
  return stored(volume.name, podVolumes, 0o777);
}

/** refreshVolume rewrites a projected volume's files in place (mounts keep the same directory). */
export async function refreshVolume(volume: Volume, root: DirNode, context: VolumeContext): Promise<void> {
  const fresh = filesToDir(await projectedFiles(volume, { ...context, failOnMissing: true }), context.now);
  root.entries.clear();
  for (const [name, node] of fresh.entries) root.entries.set(name, node);
}

function filesToDir(files: Files, now: number): DirNode {
  // Like the kubelet's tmpfs for these volumes: a world-writable sticky root.
  const root = newDir(now, 0o1777);
  for (const [path, file] of files) {
    const parts = splitPath(path);
    const name = parts.pop()!;
    let dir = root;
    for (const part of parts) {
      let next: FsNode | undefined = dir.entries.get(part);
      if (next?.kind !== 'dir') {
        next = newDir(now);
        dir.entries.set(part, next);
      }
      dir = next;
    }
    dir.entries.set(name, newFile(file.data, now, file.mode));
  }
  return root;
}

async function projectedFiles(volume: Volume, context: VolumeContext): Promise<Files> {
  const files: Files = new Map();
  if (volume.configMap) await keyFiles(files, context, 'configmaps', volume.configMap, volume.configMap.name, volume.configMap.defaultMode);
  if (volume.secret) await keyFiles(files, context, 'secrets', volume.secret, volume.secret.secretName, volume.secret.defaultMode);
  const downward = volume.downwardAPI as { items?: DownwardItem[]; defaultMode?: number } | undefined;
  if (downward) await downwardFiles(files, context, downward.items ?? [], downward.defaultMode);
  const projected = volume.projected as { sources?: ProjectionSource[]; defaultMode?: number } | undefined;
  for (const source of projected?.sources ?? []) {
    const mode = projected?.defaultMode;
    if (source.configMap) await keyFiles(files, context, 'configmaps', source.configMap, source.configMap.name, mode);
    if (source.secret) await keyFiles(files, context, 'secrets', source.secret, source.secret.name, mode);
    if (source.downwardAPI) await downwardFiles(files, context, source.downwardAPI.items ?? [], mode);
    if (source.serviceAccountToken) await tokenFile(files, context, source.serviceAccountToken, mode);
  }
  return files;
}

/** keyFiles: a ConfigMap's or Secret's keys as files (all keys, or the listed items). */
async function keyFiles(
  files: Files,
  context: VolumeContext,
  resource: 'configmaps' | 'secrets',
  source: { readonly items?: readonly KeyToPath[]; readonly optional?: boolean },
  name: string | undefined,
  defaultMode: number | undefined,
): Promise<void> {
  const { items, optional } = source;
  const keys = name ? await context.objects.keys(resource, name) : undefined;
  const kind = resource === 'configmaps' ? 'configmap' : 'secret';
  if (!keys) {
    if (context.failOnMissing && !optional) throw new Error(`${kind} ${JSON.stringify(name ?? '')} not found`);
    return;
  }
  const mode = defaultMode ?? 0o644;
  if (!items || items.length === 0) {
    for (const [key, data] of keys) files.set(key, { data, mode });
    return;
  }
  for (const item of items) {
    const data = keys.get(item.key);
    if (data) files.set(item.path, { data, mode: item.mode ?? mode });
    else if (context.failOnMissing && !optional) throw new Error(`${kind} references non-existent ${kind === 'secret' ? 'secret' : 'config'} key: ${item.key}`);
  }
}

async function downwardFiles(files: Files, context: VolumeContext, items: readonly DownwardItem[], defaultMode: number | undefined): Promise<void> {
  const encoder = new TextEncoder();
  for (const item of items) {
    let value: string | undefined;
    if (item.fieldRef) value = podField(context.pod, item.fieldRef.fieldPath);
    else if (item.resourceFieldRef) {
      const { containerName = '', resource, divisor } = item.resourceFieldRef;
      const node = context.pod.spec?.nodeName ? await context.objects.get('nodes', context.pod.spec.nodeName, '') : undefined;
      const allocatable = ((node?.['status'] ?? {}) as { allocatable?: Record<string, string> }).allocatable;
      value = resourceField(context.pod, containerName, resource, divisor, allocatable);
    }
    if (value !== undefined) files.set(item.path, { data: encoder.encode(value), mode: item.mode ?? defaultMode ?? 0o644 });
  }
}

/** The file written when no token can be requested: says plainly what it is. */
export const PLACEHOLDER_TOKEN_PREFIX = 'kubesim-placeholder-token';

async function tokenFile(
  files: Files,
  context: VolumeContext,
  source: NonNullable<ProjectionSource['serviceAccountToken']>,
  defaultMode: number | undefined,
): Promise<void> {
  const serviceAccount = context.pod.spec?.serviceAccountName || 'default';
  const token = await context.requestToken?.(serviceAccount, source.audience, source.expirationSeconds);
  const namespace = context.pod.metadata?.namespace ?? 'default';
  // Without TokenRequest access the file still exists (programs look for it) and names itself.
  const text = token ?? `${PLACEHOLDER_TOKEN_PREFIX}:system:serviceaccount:${namespace}:${serviceAccount}`;
  files.set(source.path, { data: new TextEncoder().encode(text), mode: defaultMode ?? 0o644 });
}
