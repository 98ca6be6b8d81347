/**
 * WriteTracker remembers, per Service, the resourceVersion of every slice this controller
 * last wrote and the slices it deleted (Kubernetes' endpointSliceTracker). Until the informer
 * cache shows those writes, the cache is stale and a reconcile from it would create duplicate
 * slices: the reconciler then waits instead. In memory only: a restarted controller starts
 * from what the API server lists, which is never stale.
 */

/** DELETED marks a slice this controller deleted and expects to vanish from the cache. */
const DELETED = -1;

/** WriteTracker: see the module comment. */
export interface WriteTracker {
  /** Records a create or update of slice `name` that the server answered with `resourceVersion`. */
  wrote(serviceKey: string, name: string, resourceVersion: string | undefined): void;
  /** Records a delete of slice `name`. */
  deleted(serviceKey: string, name: string): void;
  /** True when `cached` (name → resourceVersion) does not yet reflect every recorded write. */
  isStale(serviceKey: string, cached: ReadonlyMap<string, string | undefined>): boolean;
  /** Forgets a Service (it was deleted). */
  forget(serviceKey: string): void;
}

/** createWriteTracker returns an empty WriteTracker. */
export function createWriteTracker(): WriteTracker {
  const byService = new Map<string, Map<string, number>>();
  const entries = (key: string) => byService.get(key) ?? byService.set(key, new Map()).get(key)!;
  return {
    wrote: (key, name, rv) => void entries(key).set(name, revision(rv)),
    deleted: (key, name) => void entries(key).set(name, DELETED),
    isStale(key, cached) {
      const tracked = byService.get(key) ?? new Map<string, number>();
      for (const [name, expected] of tracked) {
        // A delete the cache has shown needs no more watching.
        if (expected === DELETED && !cached.has(name)) tracked.delete(name);
        const seen = cached.get(name);
        if (expected === DELETED ? cached.has(name) : seen === undefined ? true : revision(seen) < expected) return true;
      }
      return false;
    },
    forget: (key) => void byService.delete(key),
  };
}

function revision(resourceVersion: string | undefined): number {
  const n = Number(resourceVersion);
  return Number.isFinite(n) ? n : 0;
}
