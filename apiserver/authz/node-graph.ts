/**
 * The Node authorizer's graph, cheaply: for every pod bound to a node, the secrets, configmaps,
 * persistent volume claims and service account it uses (volumes, env, envFrom, image pull
 * secrets, projected sources, ephemeral volumes' claims), counted per node; and each claim's
 * bound volume, so a node may read the PersistentVolume behind a claim its pods use. Kept
 * current from the store like the RBAC cache; answers are map lookups.
 */
import type { Store, StoredObject } from '../../store/index.js';
import type { PersistentVolumeClaim } from '../api/core/persistent-volume-claim.js';
import type { Pod } from '../api/core/pod.js';
import type { NodeGraph, NodeGraphKind } from './node-authorizer.js';
import { type Follower, followResource } from './store-follower.js';

/** The secret a volume source of a driver names (CSI, Ceph, iSCSI, ...), under either spelling. */
type SecretHolder = { secretRef?: { name?: string }; nodePublishSecretRef?: { name?: string }; secretName?: string } | undefined;
const SECRET_HOLDING_SOURCES = ['azureFile', 'cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos', 'csi'];

/** The objects one pod uses, as `kind/namespace/name` keys. */
function podReferences(pod: Pod): string[] {
  const namespace: string = pod.metadata?.namespace ?? '';
  const spec: NonNullable<Pod['spec']> = pod.spec ?? ({} as NonNullable<Pod['spec']>);
  const keys = new Set<string>();
  const add = (kind: NodeGraphKind, name: unknown) => {
    if (typeof name === 'string' && name !== '') keys.add(`${kind}/${namespace}/${name}`);
  };
  add('serviceaccounts', spec.serviceAccountName || 'default');
  for (const secret of spec.imagePullSecrets ?? []) add('secrets', secret?.name);
  const containers = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
  for (const container of containers) {
    for (const from of container?.envFrom ?? []) {
      add('secrets', from?.secretRef?.name);
      add('configmaps', from?.configMapRef?.name);
    }
    for (const env of container?.env ?? []) {
      add('secrets', env?.valueFrom?.secretKeyRef?.name);
      add('configmaps', env?.valueFrom?.configMapKeyRef?.name);
    }
  }
  for (const volume of spec.volumes ?? []) {
    add('secrets', volume?.secret?.secretName);
    add('configmaps', volume?.configMap?.name);
    add('persistentvolumeclaims', volume?.persistentVolumeClaim?.claimName);
    if (volume?.ephemeral) add('persistentvolumeclaims', `${pod.metadata?.name}-${volume.name}`);
    const projected = volume?.projected as { sources?: Array<{ secret?: { name?: string }; configMap?: { name?: string } }> } | undefined;
    for (const source of projected?.sources ?? []) {
      add('secrets', source?.secret?.name);
      add('configmaps', source?.configMap?.name);
    }
    for (const key of SECRET_HOLDING_SOURCES) {
      const source = (volume as Record<string, unknown>)[key] as SecretHolder;
      add('secrets', source?.secretRef?.name ?? source?.nodePublishSecretRef?.name ?? source?.secretName);
    }
  }
  return [...keys];
}

export interface NodeGraphCache extends NodeGraph {
  stop(): void;
}

export function startNodeGraph(store: Store, logger?: { error(fields: object, message: string): void }): NodeGraphCache {
  /** pod key → its node and references, for pods bound to a node. */
  const pods = new Map<string, { node: string; references: string[] }>();
  /** reference key → node → how many of the node's pods use it. */
  const uses = new Map<string, Map<string, number>>();
  /** claim key → bound volume name; volume name → claim keys. */
  const claimVolume = new Map<string, string>();
  const volumeClaims = new Map<string, Set<string>>();

  const count = (reference: string, node: string, delta: number) => {
    let nodes = uses.get(reference);
    if (!nodes) uses.set(reference, (nodes = new Map()));
    const next = (nodes.get(node) ?? 0) + delta;
    if (next > 0) nodes.set(node, next);
    else nodes.delete(node);
    if (nodes.size === 0) uses.delete(reference);
  };
  const applyPod = (key: string, object: StoredObject | undefined) => {
    const previous = pods.get(key);
    if (previous) for (const reference of previous.references) count(reference, previous.node, -1);
    pods.delete(key);
    const node = (object as Pod | undefined)?.spec?.nodeName;
    if (!object || typeof node !== 'string' || node === '') return;
    const references = podReferences(object as Pod);
    pods.set(key, { node, references });
    for (const reference of references) count(reference, node, 1);
  };
  const applyClaim = (key: string, object: StoredObject | undefined) => {
    const previous = claimVolume.get(key);
    if (previous) volumeClaims.get(previous)?.delete(key);
    claimVolume.delete(key);
    const volume = (object as PersistentVolumeClaim | undefined)?.spec?.volumeName;
    if (typeof volume !== 'string' || volume === '') return;
    claimVolume.set(key, volume);
    if (!volumeClaims.has(volume)) volumeClaims.set(volume, new Set());
    volumeClaims.get(volume)!.add(key);
  };
  const followers: Follower[] = [
    followResource(store, 'pods', {
      reset: () => {
        pods.clear();
        uses.clear();
      },
      apply: (ref, object) => applyPod(`${ref.namespace}/${ref.name}`, object),
      logger,
    }),
    followResource(store, 'persistentvolumeclaims', {
      reset: () => {
        claimVolume.clear();
        volumeClaims.clear();
      },
      apply: (ref, object) => applyClaim(`persistentvolumeclaims/${ref.namespace}/${ref.name}`, object),
      logger,
    }),
  ];
  const uses_ = (reference: string, node: string) => (uses.get(reference)?.get(node) ?? 0) > 0;
  return {
    related(node, kind, namespace, name) {
      if (kind === 'persistentvolumes') return [...(volumeClaims.get(name) ?? [])].some((claim) => uses_(claim, node));
      return uses_(`${kind}/${namespace}/${name}`, node);
    },
    podNode: (namespace, name) => pods.get(`${namespace}/${name}`)?.node,
    stop: () => {
      for (const follower of followers) follower.stop();
    },
  };
}
