/**
 * The per-attempt snapshot (kube-scheduler's cache Snapshot): one NodeInfo per node, built
 * from the informer caches plus the assumed pods, then read-only for the whole attempt, so
 * every plugin sees the same world.
 */
import type { NodeInfo, ReadonlyNode, ReadonlyPod } from './framework.js';
import { addInto, parseResourceList, podNonZeroRequests, podRequests } from './resources.js';

/** Snapshot is every node's NodeInfo for one attempt, in a stable (name) order. */
export interface Snapshot {
  readonly nodes: readonly NodeInfo[];
  get(name: string): NodeInfo | undefined;
}

/** SnapshotSource is what a snapshot is built from. */
export interface SnapshotSource {
  nodes: readonly ReadonlyNode[];
  /** Pods the informer shows bound to `nodeName`. */
  boundPods(nodeName: string): readonly ReadonlyPod[];
  /** Pods assumed onto each node (assumed-cache.ts), not yet visible in boundPods. */
  assumedPods: ReadonlyMap<string, readonly ReadonlyPod[]>;
}

/** isTerminal reports a pod that no longer holds node resources (Succeeded or Failed), which
 * kube-scheduler's informer excludes with a field selector. */
export function isTerminal(pod: ReadonlyPod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** buildSnapshot makes a Snapshot; nodes are sorted by name so results never depend on cache
 * order. It never mutates its inputs. `reuse` (see NodeInfoCache) skips re-sorting the nodes
 * and recomputing NodeInfos that nothing changed since the last snapshot. */
export function buildSnapshot(source: SnapshotSource, reuse?: NodeInfoCache): Snapshot {
  const sorted = reuse ? reuse.sortedNodes(source.nodes) : sortByName(source.nodes);
  const infos = sorted.map((node) => {
    const name = node.metadata.name ?? '';
    const assumed = source.assumedPods.get(name) ?? NO_PODS;
    return reuse ? reuse.get(node, assumed, () => source.boundPods(name)) : createNodeInfo(node, [...source.boundPods(name), ...assumed]);
  });
  const byName = new Map(infos.map((info) => [info.name, info]));
  reuse?.retain(byName);
  return { nodes: infos, get: (name) => byName.get(name) };
}

const NO_PODS: readonly ReadonlyPod[] = [];

function sortByName(nodes: readonly ReadonlyNode[]): ReadonlyNode[] {
  return [...nodes].sort((a, b) => compareNames(a.metadata.name ?? '', b.metadata.name ?? ''));
}

/**
 * NodeInfoCache keeps the last NodeInfo of every node and the nodes in name order (kube-
 * scheduler's cache generations, simplified), so an attempt costs O(nodes) pointer checks
 * instead of re-reading and re-summing every bound pod of the cluster: at 10,000 pods that
 * was the scheduler's main cost.
 *
 * A NodeInfo is reused while its node object and assumed pods are the same ones (cache
 * objects are immutable and replaced on change, so identity tells) and no pod on the node
 * changed: the owner must call podChanged for every pod informer event. A node missed by
 * podChanged would be stale, so the scheduler wires it to the informer that fills the
 * node index the snapshot reads, before anything else reads it.
 */
export class NodeInfoCache {
  private readonly entries = new Map<string, { node: ReadonlyNode; assumed: readonly ReadonlyPod[]; info: NodeInfo }>();
  /** Nodes with a bound pod added, changed or removed since their NodeInfo was built. */
  private readonly changedNodes = new Set<string>();
  private sorted: { listed: readonly ReadonlyNode[]; byName: readonly ReadonlyNode[] } | undefined;

  /** podChanged marks the node `pod` is (or was) bound to; call it for both sides of an update. */
  podChanged(pod: ReadonlyPod): void {
    const nodeName = pod.spec.nodeName;
    if (nodeName) this.changedNodes.add(nodeName);
  }

  /** sortedNodes is `listed` in name order, re-sorted only when the listed objects changed
   * (the lister lists in a stable order, so an unchanged cache lists the same objects). */
  sortedNodes(listed: readonly ReadonlyNode[]): readonly ReadonlyNode[] {
    const last = this.sorted;
    if (last && last.listed.length === listed.length && last.listed.every((node, i) => node === listed[i])) return last.byName;
    const byName = sortByName(listed);
    this.sorted = { listed, byName };
    return byName;
  }

  /** get returns the cached NodeInfo when nothing changed, else a fresh one (and caches it). */
  get(node: ReadonlyNode, assumed: readonly ReadonlyPod[], boundPods: () => readonly ReadonlyPod[]): NodeInfo {
    const name = node.metadata.name ?? '';
    const cached = this.entries.get(name);
    if (cached && cached.node === node && !this.changedNodes.has(name) && samePods(cached.assumed, assumed)) return cached.info;
    this.changedNodes.delete(name);
    const info = createNodeInfo(node, [...boundPods(), ...assumed]);
    this.entries.set(name, { node, assumed, info });
    return info;
  }

  /** retain forgets nodes that are gone. */
  retain(current: ReadonlyMap<string, NodeInfo>): void {
    for (const name of this.entries.keys()) if (!current.has(name)) this.entries.delete(name);
    for (const name of this.changedNodes) if (!current.has(name)) this.changedNodes.delete(name);
  }
}

function samePods(a: readonly ReadonlyPod[], b: readonly ReadonlyPod[]): boolean {
  return a.length === b.length && a.every((pod, i) => pod === b[i]);
}

/** createNodeInfo sums the non-terminal `pods` against `node` (see NodeInfo). */
export function createNodeInfo(node: ReadonlyNode, pods: readonly ReadonlyPod[]): NodeInfo {
  const requested: Record<string, number> = {};
  const nonZeroRequested: Record<string, number> = { cpu: 0, memory: 0 };
  const counted: ReadonlyPod[] = [];
  const podsByOwner = new Map<string, number>();
  for (const pod of pods) {
    if (isTerminal(pod)) continue;
    counted.push(pod);
    addInto(requested, podRequests(pod));
    addInto(nonZeroRequested, podNonZeroRequests(pod));
    const owner = pod.metadata.deletionTimestamp ? undefined : controllerUid(pod);
    if (owner) podsByOwner.set(owner, (podsByOwner.get(owner) ?? 0) + 1);
  }
  const allocatable = parseResourceList(node.status?.allocatable);
  return { name: node.metadata.name ?? '', node, pods: counted, requested, nonZeroRequested, allocatable, podsByOwner };
}

/** controllerUid is the uid of the pod's controlling owner (e.g. its ReplicaSet), or of its
 * first owner when none is marked controller, as kube's PodsWithOwnerRef keys by. */
export function controllerUid(pod: ReadonlyPod): string | undefined {
  const references = pod.metadata.ownerReferences ?? [];
  return (references.find((reference) => reference.controller) ?? references[0])?.uid || undefined;
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
