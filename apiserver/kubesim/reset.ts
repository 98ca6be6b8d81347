/**
 * reset brings the cluster back to the state captured just after it started, in place: the
 * store is made equal to the baseline by ordinary writes (so every informer sees normal
 * events and every loop stays consistent), then the cluster settles, and the comparison is
 * repeated in case a loop reacted to the deletions before it saw all of them.
 *
 * What the simulated machines own is kept as it is now, not rewound: node leases and node
 * status (rewinding a heartbeat would make the node look dead), and leader-election leases.
 */
import type { SnapshotEntry, Store, StoreSnapshot } from '../../store/index.js';
import type { ClusterControl, ResetResult } from './cluster-control.js';

const LEASES = 'leases.coordination.k8s.io';
const HEARTBEAT_NAMESPACES = new Set(['kube-node-lease', 'kube-system']);
const MAX_ROUNDS = 4;

/** Resetter knows the baseline and how to return to it. */
export interface Resetter {
  /** capture records the current state as the baseline, and returns it. */
  capture(): StoreSnapshot;
  /** adopt makes `snapshot` the baseline (one captured by an earlier process on the same data). */
  adopt(snapshot: StoreSnapshot): void;
  reset(): Promise<ResetResult>;
}

export function createResetter(store: Store, control: Pick<ClusterControl, 'settle'>): Resetter {
  let baseline: StoreSnapshot | undefined;
  return {
    capture() {
      baseline = store.exportObjects();
      return baseline;
    },
    adopt(snapshot) {
      baseline = snapshot;
    },
    async reset() {
      if (!baseline) throw new Error('reset before the baseline was captured');
      const started = performance.now();
      const total = { created: 0, updated: 0, deleted: 0 };
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const current = store.exportObjects();
        const target = targetState(baseline, current);
        let changes = 0;
        // Owners go first, each generation at lower revisions than its dependents, so a loop that
        // hears of a dependent's deletion already sees its owner gone (and makes no replacement).
        for (const step of [...deletionSteps(target, current), target]) {
          const result = store.restoreObjects(step);
          changes += result.created + result.updated + result.deleted;
          total.created += result.created;
          total.updated += result.updated;
          total.deleted += result.deleted;
        }
        if (changes === 0) break;
        await control.settle({ quietMs: 5, countTransitions: false });
      }
      return { ...total, elapsedMs: Math.round((performance.now() - started) * 100) / 100 };
    },
  };
}

/**
 * deletionSteps are the intermediate states that remove what `target` drops generation by
 * generation: first the objects none of whose owners is being removed too (Deployments,
 * namespaces, bare pods), then their dependents, and so on.
 */
function deletionSteps(target: StoreSnapshot, current: StoreSnapshot): StoreSnapshot[] {
  const kept = new Set(target.objects.map(keyOf));
  let remaining = current.objects.filter((entry) => !kept.has(keyOf(entry)));
  let objects = current.objects;
  const steps: StoreSnapshot[] = [];
  while (remaining.length > 0) {
    const dying = new Set(remaining.map((entry) => entry.object.metadata['uid']));
    let generation = remaining.filter((entry) => !ownerUids(entry).some((uid) => dying.has(uid)));
    if (generation.length === 0) generation = remaining; // an ownership cycle: remove the rest at once
    const removed = new Set(generation.map(keyOf));
    objects = objects.filter((entry) => !removed.has(keyOf(entry)));
    remaining = remaining.filter((entry) => !removed.has(keyOf(entry)));
    steps.push({ ...current, objects });
  }
  return steps;
}

function ownerUids(entry: SnapshotEntry): unknown[] {
  const owners = (entry.object.metadata as { ownerReferences?: Array<{ uid?: unknown }> }).ownerReferences;
  return Array.isArray(owners) ? owners.map((owner) => owner.uid) : [];
}

/** targetState is the baseline with the machine-owned parts taken from `current`. */
function targetState(baseline: StoreSnapshot, current: StoreSnapshot): StoreSnapshot {
  const now = new Map(current.objects.map((entry) => [keyOf(entry), entry]));
  const objects: SnapshotEntry[] = [];
  for (const entry of baseline.objects) {
    if (isHeartbeatLease(entry)) continue;
    const live = now.get(keyOf(entry));
    if (entry.resource === 'nodes' && live) objects.push({ ...entry, object: { ...entry.object, status: live.object['status'] } });
    else objects.push(entry);
  }
  for (const entry of current.objects) if (isHeartbeatLease(entry)) objects.push(entry);
  const keyed = objects.map((entry) => ({ key: keyOf(entry), entry }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { ...baseline, objects: keyed.map(({ entry }) => entry) };
}

function isHeartbeatLease(entry: SnapshotEntry): boolean {
  return entry.resource === LEASES && HEARTBEAT_NAMESPACES.has(entry.namespace);
}

function keyOf(entry: SnapshotEntry): string {
  return `${entry.resource}\u0000${entry.namespace}\u0000${entry.name}`;
}
