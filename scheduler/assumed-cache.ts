/**
 * Assumed pods (the "assume" half of kube-scheduler's cache): a pod the scheduler has chosen a
 * node for is counted against that node at once, before the binding's effect comes back
 * through the pod watch. Without this, the next attempt — milliseconds later — would see the
 * node as empty and overcommit it.
 *
 * An assumption ends when:
 *   - the informer shows the pod bound (spec.nodeName set): the node index counts it now;
 *   - the pod is gone or was re-created (another uid);
 *   - binding failed (forget);
 *   - it expires: ASSUMED_POD_TTL_MS after its binding finished without the informer ever
 *     showing it bound (a lost watch event must not hold capacity forever).
 * The first three are checked level-style in prune(), each time a snapshot is taken.
 */
import { keyOf } from '../controllers/runtime/reconciler.js';
import type { Clock } from '../controllers/runtime/types.js';
import type { ReadonlyPod } from './framework.js';

/** ASSUMED_POD_TTL_MS is how long a bound-but-unobserved pod keeps counting (kube's old
 * durationToExpireAssumedPod). */
export const ASSUMED_POD_TTL_MS = 30_000;

interface Assumption {
  readonly uid: string | undefined;
  readonly nodeName: string;
  /** The pod as it will be once bound: the cached object with spec.nodeName set. */
  readonly pod: ReadonlyPod;
  /** Set once the binding call finished; the TTL runs from here. */
  bindingFinishedAtMs?: number;
}

/** AssumedCacheOptions configures an AssumedCache. */
export interface AssumedCacheOptions {
  clock: Clock;
  ttlMs?: number;
}

/**
 * AssumedCache knows which pods the scheduler has placed but not yet seen bound. It holds
 * its own copies (never the informer's objects) and never calls the API.
 */
export class AssumedCache {
  private readonly assumptions = new Map<string, Assumption>();
  private readonly clock: Clock;
  private readonly ttlMs: number;

  constructor(options: AssumedCacheOptions) {
    this.clock = options.clock;
    this.ttlMs = options.ttlMs ?? ASSUMED_POD_TTL_MS;
  }

  /** assume counts `pod` against `nodeName` until one of the module comment's ends. */
  assume(pod: ReadonlyPod, nodeName: string): void {
    const bound = { ...pod, spec: { ...pod.spec, nodeName } } as ReadonlyPod;
    this.assumptions.set(keyOf(pod), { uid: pod.metadata.uid, nodeName, pod: bound });
  }

  /** finishBinding starts the expiry clock of a successful binding. */
  finishBinding(key: string): void {
    const assumption = this.assumptions.get(key);
    if (assumption) assumption.bindingFinishedAtMs = this.clock.now();
  }

  /** forget drops an assumption (its binding failed). */
  forget(key: string): void {
    this.assumptions.delete(key);
  }

  /** isAssumed says whether the pod at `key` is assumed; with `uid`, only that very pod
   * counts (a pod deleted and re-created under the same name, as StatefulSets do, is not). */
  isAssumed(key: string, uid?: string): boolean {
    const assumption = this.assumptions.get(key);
    return assumption !== undefined && (uid === undefined || assumption.uid === uid);
  }

  get size(): number {
    return this.assumptions.size;
  }

  /**
   * prune drops assumptions the informer has caught up with (bound, deleted, re-created) and
   * expired ones; `lookup` reads the pod informer's cache by key.
   */
  prune(lookup: (key: string) => ReadonlyPod | undefined): void {
    const nowMs = this.clock.now();
    for (const [key, assumption] of this.assumptions) {
      const cached = lookup(key);
      const observed = !cached || cached.metadata.uid !== assumption.uid || !!cached.spec.nodeName;
      const finished = assumption.bindingFinishedAtMs;
      const expired = finished !== undefined && nowMs - finished >= this.ttlMs;
      if (observed || expired) this.assumptions.delete(key);
    }
  }

  /** podsByNode returns the assumed pods grouped by node name. */
  podsByNode(): Map<string, ReadonlyPod[]> {
    const byNode = new Map<string, ReadonlyPod[]>();
    for (const { nodeName, pod } of this.assumptions.values()) {
      const list = byNode.get(nodeName);
      if (list) list.push(pod);
      else byNode.set(nodeName, [pod]);
    }
    return byNode;
  }
}
