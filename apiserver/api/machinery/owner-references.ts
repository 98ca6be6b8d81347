/**
 * The controlling owner of an object (Kubernetes' metav1.GetControllerOf): of its
 * ownerReferences, the one marked `controller: true` (validation allows at most one). The
 * garbage collector, the workload controllers, the kubelet and the server all ask it.
 */

/** Owned is the part of an object these functions read; generic in the reference type so a
 * read-only cached object hands back its own read-only reference. */
export interface Owned<R extends { readonly controller?: boolean; readonly uid: string }> {
  readonly metadata?: { readonly ownerReferences?: readonly R[] | undefined } | undefined;
}

/** controllerRefOf is the ownerReference marked controller=true, or undefined when the object
 * has no controller. */
export function controllerRefOf<R extends { readonly controller?: boolean; readonly uid: string }>(object: Owned<R>): R | undefined {
  return object.metadata?.ownerReferences?.find((reference) => reference.controller === true);
}

/** isControlledBy is true when `object`'s controller reference points at the object with `uid`. */
export function isControlledBy<R extends { readonly controller?: boolean; readonly uid: string }>(object: Owned<R>, uid: string | undefined): boolean {
  return uid !== undefined && controllerRefOf(object)?.uid === uid;
}

/** ControllerReference is the ownerReference a controller puts on what it creates. */
export interface ControllerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller: boolean;
  blockOwnerDeletion: boolean;
}

/**
 * newControllerRef is the reference a controller of kind `apiVersion`/`kind` puts on the objects
 * it creates or adopts (metav1.NewControllerRef): controller=true (it manages them) and
 * blockOwnerDeletion=true (a foreground deletion of the owner waits for them).
 */
export function newControllerRef(
  owner: { readonly metadata: { readonly name?: string; readonly uid?: string } },
  apiVersion: string,
  kind: string,
): ControllerReference {
  return { apiVersion, kind, name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}
