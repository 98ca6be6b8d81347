/**
 * Expectations: the ReplicaSet controller's guard against acting twice on its own writes
 * (Kubernetes' ControllerExpectations + UIDTrackingControllerExpectations).
 *
 * Why: a reconcile creates pods through the API, but the next reconcile reads pods from the
 * informer cache, which learns about those pods only when their watch events arrive. A
 * reconcile that ran in between would see too few pods and create them again. So before
 * acting, a reconcile records how many creates (and which deletes) it expects to observe; the
 * pod event handlers tick them off; and manageReplicas is skipped until they are all seen.
 *
 * They are an optimisation, not state the controller depends on: they expire after
 * `ttlMs` (5 minutes, as Kubernetes) so a lost event cannot stall a ReplicaSet forever, and a
 * restarted controller starts without any, trusting its freshly listed cache instead.
 *
 * Invariant per key: `pendingCreates` ≥ 0 only matters while positive; `pendingDeletes` holds
 * the keys of pods whose deletion was requested and not yet observed, so each deletion is
 * counted exactly once even though it is seen twice (deletionTimestamp update, then delete).
 */
import type { Clock } from './types.js';

/** EXPECTATIONS_TTL_MS is how long unmet expectations block a ReplicaSet (5 minutes). */
export const EXPECTATIONS_TTL_MS = 5 * 60 * 1000;

interface ExpectationRecord {
  pendingCreates: number;
  pendingDeletes: Set<string>;
  /** Cluster time when the expectations were set; they expire ttlMs later. */
  setAtMs: number;
}

/**
 * Expectations tracks, per controller key, the pod creations and deletions a reconcile is
 * waiting to see in the informer cache. Methods are synchronous, never throw, and may be
 * called from informer handlers.
 */
export interface Expectations {
  /** Records that `count` creations are about to be issued (replacing older expectations). */
  expectCreations(key: string, count: number): void;
  /** Records that the pods with these keys (`namespace/name`) are about to be deleted. */
  expectDeletions(key: string, podKeys: readonly string[]): void;
  /** Ticks off one creation: a pod was observed, or a create failed or was skipped. */
  creationObserved(key: string): void;
  /** Ticks off the deletion of `podKey`; a second call for the same pod does nothing. */
  deletionObserved(key: string, podKey: string): void;
  /** True when nothing is pending for `key` (or never was), or its expectations expired. */
  satisfied(key: string): boolean;
  /** Forgets `key` (its ReplicaSet was deleted, or re-created under the same name). */
  delete(key: string): void;
}

/** ExpectationsOptions configures createExpectations. */
export interface ExpectationsOptions {
  clock: Clock;
  /** Default EXPECTATIONS_TTL_MS. */
  ttlMs?: number;
}

/** createExpectations returns an empty, in-memory Expectations that reads time from `clock`. */
export function createExpectations({ clock, ttlMs = EXPECTATIONS_TTL_MS }: ExpectationsOptions): Expectations {
  const records = new Map<string, ExpectationRecord>();
  const fresh = (): ExpectationRecord => ({ pendingCreates: 0, pendingDeletes: new Set(), setAtMs: clock.now() });
  return {
    expectCreations(key, count) {
      records.set(key, { ...fresh(), pendingCreates: count });
    },
    expectDeletions(key, podKeys) {
      records.set(key, { ...fresh(), pendingDeletes: new Set(podKeys) });
    },
    creationObserved(key) {
      const record = records.get(key);
      if (record) record.pendingCreates--;
    },
    deletionObserved(key, podKey) {
      records.get(key)?.pendingDeletes.delete(podKey);
    },
    satisfied(key) {
      const record = records.get(key);
      if (record === undefined) return true;
      const fulfilled = record.pendingCreates <= 0 && record.pendingDeletes.size === 0;
      return fulfilled || clock.now() - record.setAtMs > ttlMs;
    },
    delete(key) {
      records.delete(key);
    },
  };
}
