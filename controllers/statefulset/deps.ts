/**
 * What the StatefulSet reconciler works with: listers of the shared caches (never mutated),
 * clients for its writes, the event recorder, clock and logger.
 */
import type { ControllerRevision } from '../../apiserver/api/apps/controller-revision.js';
import type { StatefulSet } from '../../apiserver/api/apps/stateful-set.js';
import type { PersistentVolumeClaim } from '../../apiserver/api/core/persistent-volume-claim.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import { indexByControllerOfKind } from '../runtime/indexers.js';
import type { Clock, DeepReadonly, EventRecorder, IndexFunc, Lister, Logger, ResourceClient } from '../runtime/types.js';

/** SET_UID_INDEX files pods and revisions under the uid of the StatefulSet controlling them. */
export const SET_UID_INDEX = 'statefulSetUid';

/** indexBySetUid is the SET_UID_INDEX function. */
export const indexBySetUid: IndexFunc<KubeObject> = indexByControllerOfKind('StatefulSet');

/** StatefulSetDeps are the reconciler's collaborators. The pod and revision listers carry SET_UID_INDEX. */
export interface StatefulSetDeps {
  setLister: Lister<StatefulSet>;
  podLister: Lister<Pod>;
  revisionLister: Lister<ControllerRevision>;
  claimLister: Lister<PersistentVolumeClaim>;
  sets: ResourceClient<StatefulSet>;
  pods: ResourceClient<Pod>;
  revisions: ResourceClient<ControllerRevision>;
  claims: ResourceClient<PersistentVolumeClaim>;
  recorder: EventRecorder;
  clock: Clock;
  logger: Logger;
}

/** ReadonlySet is a StatefulSet as the cache hands it out. */
export type ReadonlyStatefulSet = DeepReadonly<StatefulSet>;

/** eventTarget names the set with its kind (list items may lack apiVersion/kind, which
 * `kubectl describe` filters events on). A shallow copy; the cache object is untouched. */
export function eventTarget(set: ReadonlyStatefulSet): KubeObject {
  return { ...(set as KubeObject), apiVersion: 'apps/v1', kind: 'StatefulSet' };
}

/** asError normalises a thrown value. */
export function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
