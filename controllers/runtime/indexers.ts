/**
 * Index functions controllers share (client-go's cache.Indexers). Register them with
 * `informer.addIndexer(NAME, fn)` before start, then read with `lister.byIndex(NAME, value)`.
 */
import { controllerRefOf } from '../../apiserver/api/machinery/owner-references.js';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import type { DeepReadonly } from './types.js';

/** OWNER_UID_INDEX is the conventional name for indexByOwnerUid. */
export const OWNER_UID_INDEX = 'ownerUid';

/** CONTROLLER_UID_INDEX is the conventional name for indexByControllerUid. */
export const CONTROLLER_UID_INDEX = 'controllerUid';

/** NODE_NAME_INDEX is the conventional name for indexByNodeName. */
export const NODE_NAME_INDEX = 'nodeName';

/** indexByOwnerUid files an object under the uid of every ownerReference it has (none when it
 * has no owner), so a controller finds an owner's dependents with byIndex(OWNER_UID_INDEX, uid). */
export function indexByOwnerUid(object: DeepReadonly<KubeObject>): string[] {
  return (object.metadata.ownerReferences ?? []).map((reference) => reference.uid).filter((uid) => uid !== '');
}

/** indexByControllerUid files an object under its controller's uid (nothing without one), so
 * a controller finds what it controls with byIndex(CONTROLLER_UID_INDEX, uid). */
export function indexByControllerUid(object: DeepReadonly<KubeObject>): string[] {
  const uid = controllerRefOf(object)?.uid;
  return uid ? [uid] : [];
}

/** indexByControllerOfKind makes an index function that files an object under its controller's
 * uid only when that controller is a `kind` (a Job's pods, not a ReplicaSet's). Give each such
 * index its own name: several controllers may index one shared informer. */
export function indexByControllerOfKind(kind: string): (object: DeepReadonly<KubeObject>) => string[] {
  return (object) => {
    const reference = controllerRefOf(object);
    return reference?.uid && reference.kind === kind ? [reference.uid] : [];
  };
}

/** indexByNodeName files an object (a Pod) under spec.nodeName; unscheduled pods (no or empty
 * nodeName) are filed under nothing. */
export function indexByNodeName(object: DeepReadonly<KubeObject>): string[] {
  const spec = object['spec'] as { readonly nodeName?: unknown } | undefined;
  return typeof spec?.nodeName === 'string' && spec.nodeName !== '' ? [spec.nodeName] : [];
}
