/**
 * Which events wake which Deployment (deployment_controller.go's add/update/delete handlers).
 * Handlers are synchronous and only enqueue keys; a handler never calls the API.
 *
 *   Deployment added/updated/deleted → that Deployment
 *   ReplicaSet added/updated/deleted → its controlling Deployment (and, when the controller
 *       reference changed, the previous one); an orphan → every Deployment whose selector
 *       matches its labels, so one of them may adopt it
 *   Pod deleted → its Deployment, if that one uses Recreate (it waits for old pods to go)
 */
import type { Deployment } from '../../apiserver/api/apps/deployment.js';
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { deepEqual } from '../../apiserver/api/deep-equal.js';
import { labelSelectorFromStructured } from '../../apiserver/api/labels.js';
import { controllerRefOf } from '../../apiserver/api/machinery/owner-references.js';
import type { LabelSelector } from '../../apiserver/api/meta.js';
import type { DeepReadonly, EventHandlers, Lister } from '../runtime/types.js';

type ReadonlyDeployment = DeepReadonly<Deployment>;
type OwnerRef = { readonly kind: string; readonly name: string; readonly uid: string; readonly controller?: boolean | undefined };
interface Owned {
  readonly metadata: { readonly namespace?: string | undefined; readonly ownerReferences?: ReadonlyArray<OwnerRef> | undefined };
}

/** HandlerDeps are what the handlers read and where they put keys. */
export interface HandlerDeps {
  deploymentLister: Lister<Deployment>;
  replicaSetLister: Lister<ReplicaSet>;
  /** Adds the Deployment's key to the work queue. */
  enqueue(deployment: ReadonlyDeployment): void;
}

function controllerRef(object: Owned): OwnerRef | undefined {
  return controllerRefOf(object);
}

/** resolveDeployment returns the cached Deployment a controller reference names, or undefined
 * for another kind, a missing Deployment, or a different one re-created under that name. */
export function resolveDeployment(deps: HandlerDeps, namespace: string, ref: OwnerRef | undefined): ReadonlyDeployment | undefined {
  if (ref === undefined || ref.kind !== 'Deployment') return undefined;
  const d = deps.deploymentLister.get(namespace, ref.name);
  return d?.metadata.uid === ref.uid ? d : undefined;
}

/** deploymentsSelecting returns the Deployments whose (non-empty, valid) selector matches the
 * ReplicaSet's labels (GetDeploymentsForReplicaSet); none for an unlabelled ReplicaSet. */
export function deploymentsSelecting(deps: HandlerDeps, rs: DeepReadonly<ReplicaSet>): ReadonlyDeployment[] {
  const labels = rs.metadata.labels;
  if (labels === undefined || Object.keys(labels).length === 0) return [];
  return deps.deploymentLister.list(rs.metadata.namespace).filter((d) => {
    try {
      // labelSelectorFromStructured never mutates; its parameter is just not typed readonly.
      const selector = labelSelectorFromStructured(d.spec.selector as LabelSelector);
      // A Deployment with an empty selector matches nothing here, not everything.
      return !selector.isEverything() && selector.matches(labels);
    } catch {
      // An invalid selector (validation should have refused it) matches no ReplicaSet.
      return false;
    }
  });
}

/** deploymentEventHandlers enqueue the Deployment on every change, including deletion. */
export function deploymentEventHandlers(deps: HandlerDeps): EventHandlers<Deployment> {
  return { onAdd: deps.enqueue, onUpdate: (_old, cur) => deps.enqueue(cur), onDelete: deps.enqueue };
}

/** replicaSetEventHandlers enqueue the Deployment(s) a ReplicaSet change concerns. */
export function replicaSetEventHandlers(deps: HandlerDeps): EventHandlers<ReplicaSet> {
  const onDelete = (rs: DeepReadonly<ReplicaSet>) => {
    const d = resolveDeployment(deps, rs.metadata.namespace ?? '', controllerRef(rs));
    if (d) deps.enqueue(d);
  };
  const enqueueOwnerOrMatching = (rs: DeepReadonly<ReplicaSet>, orphanChanged: boolean) => {
    const ref = controllerRef(rs);
    if (ref) {
      const d = resolveDeployment(deps, rs.metadata.namespace ?? '', ref);
      if (d) deps.enqueue(d);
    } else if (orphanChanged) {
      for (const d of deploymentsSelecting(deps, rs)) deps.enqueue(d);
    }
  };
  return {
    // A ReplicaSet already being deleted when first seen (e.g. after a restart) is a delete.
    onAdd: (rs) => (rs.metadata.deletionTimestamp ? onDelete(rs) : enqueueOwnerOrMatching(rs, true)),
    onUpdate: (old, cur) => {
      // Periodic resyncs deliver unchanged objects; two versions always differ in resourceVersion.
      if (old.metadata.resourceVersion === cur.metadata.resourceVersion) return;
      const refChanged = !deepEqual(controllerRef(old), controllerRef(cur));
      if (refChanged) {
        const previous = resolveDeployment(deps, old.metadata.namespace ?? '', controllerRef(old));
        if (previous) deps.enqueue(previous);
      }
      enqueueOwnerOrMatching(cur, refChanged || !deepEqual(old.metadata.labels, cur.metadata.labels));
    },
    onDelete,
  };
}

/**
 * podEventHandlers wake a Recreate Deployment when one of its pods is deleted: it may have
 * been the last old pod it was waiting for. (Kubernetes enqueues only when none is left; a
 * sync that finds pods remaining is harmless, and this avoids counting pods in a handler.)
 */
export function podEventHandlers(deps: HandlerDeps): EventHandlers<Pod> {
  return {
    onDelete: (pod) => {
      const namespace = pod.metadata.namespace ?? '';
      const podRef = controllerRef(pod);
      if (podRef === undefined || podRef.kind !== 'ReplicaSet') return;
      const rs = deps.replicaSetLister.get(namespace, podRef.name);
      if (rs === undefined || rs.metadata.uid !== podRef.uid) return;
      const d = resolveDeployment(deps, namespace, controllerRef(rs));
      if (d?.spec.strategy?.type === 'Recreate') deps.enqueue(d);
    },
  };
}
