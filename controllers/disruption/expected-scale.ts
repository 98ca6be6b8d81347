/**
 * expectedScale: how many pods the controllers of a budget's pods want (Kubernetes'
 * getExpectedScale). Each pod's controller is resolved once; a ReplicaSet controlled by a
 * Deployment counts as that Deployment, so a rollout's two ReplicaSets count once. The count
 * comes from each controller's /scale, so any kind serving it (StatefulSets, custom kinds
 * known to the client) works.
 */

import { controllerRefOf } from '../../apiserver/api/machinery/owner-references.js';
import type { OwnerReference } from '../../apiserver/api/meta.js';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import type { KubeClient } from '../runtime/client/http-client.js';
import type { DeepReadonly, ResourceClient } from '../runtime/types.js';

type Reference = DeepReadonly<OwnerReference>;

/** ScaleError is a budget whose pods' controllers cannot be found: the budget's status
 * reports it (SyncFailed) and `reason` names the event (NoControllerRef, NoControllers). */
export class ScaleError extends Error {
  constructor(
    readonly reason: 'NoControllerRef' | 'NoControllers',
    message: string,
  ) {
    super(message);
    this.name = 'ScaleError';
  }
}

interface OwnedPod {
  readonly metadata: { readonly name?: string; readonly namespace?: string; readonly ownerReferences?: readonly Reference[] | undefined };
}

/**
 * expectedScale sums the desired replicas of the distinct controllers of `pods`. Throws
 * ScaleError for a pod without a controller or whose controller is not found (or serves no
 * /scale), and the client's errors for anything else.
 */
export async function expectedScale(client: KubeClient, pods: readonly OwnedPod[]): Promise<number> {
  const scales = new Map<string, number>();
  const seen = new Set<string>();
  for (const pod of pods) {
    const reference = controllerRefOf(pod);
    if (reference === undefined) throw new ScaleError('NoControllerRef', `found no controller ref for pod "${pod.metadata.name ?? ''}"`);
    if (seen.has(reference.uid)) continue;
    seen.add(reference.uid);
    const found = await controllerScale(client, pod.metadata.namespace ?? '', reference);
    if (found === undefined) throw new ScaleError('NoControllers', `found no controllers for pod "${pod.metadata.name ?? ''}"`);
    scales.set(found.uid, found.replicas);
  }
  return [...scales.values()].reduce((sum, replicas) => sum + replicas, 0);
}

/** controllerScale resolves `reference` (one level up for a ReplicaSet a Deployment
 * controls) and reads its /scale; undefined when it is gone, replaced or has no /scale. */
async function controllerScale(client: KubeClient, namespace: string, reference: Reference): Promise<{ uid: string; replicas: number } | undefined> {
  const owner = await getOwner(client, namespace, reference);
  if (owner === undefined) return undefined;
  const parent = controllerRefOf(owner);
  if (reference.kind === 'ReplicaSet' && parent?.kind === 'Deployment' && parent.apiVersion === 'apps/v1') {
    return controllerScale(client, namespace, parent);
  }
  const resource = await client.forKind(reference.apiVersion, reference.kind);
  if (!resource.definition.subresources.scale) return undefined;
  const scale = await resource.getScale(namespace, reference.name);
  return { uid: reference.uid, replicas: scale.spec.replicas ?? 0 };
}

async function getOwner(client: KubeClient, namespace: string, reference: Reference): Promise<KubeObject | undefined> {
  let resource: ResourceClient;
  try {
    resource = await client.forKind(reference.apiVersion, reference.kind);
  } catch {
    return undefined; // a kind the client does not know: no controller kubesim can scale
  }
  const owner = await resource.get(namespace, reference.name).catch((err: unknown) => {
    if ((err as { reason?: string }).reason === 'NotFound') return undefined;
    throw err;
  });
  return owner?.metadata.uid === reference.uid ? owner : undefined;
}
