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
 * order. It never mutates its inputs. `reuse` (see NodeInfoCache) skips recomputing nodes
 * whose object and pods are unchanged since the last snapshot. */
export function buildSnapshot(source: SnapshotSource, reuse?: NodeInfoCache): Snapshot {
  const infos = [...source.nodes]
    .sort((a, b) => compareNames(a.metadata.name ?? '', b.metadata.name ?? ''))
    .map((node) => {
      const name = node.metadata.name ?? '';
      const pods = [...source.boundPods(name), ...(source.assumedPods.get(name) ?? [])];
      return reuse ? reuse.get(node, pods) : createNodeInfo(node, pods);
    });
  const byName = new Map(infos.map((info) => [info.name, info]));
  reuse?.retain(byName);
  return { nodes: infos, get: (name) => byName.get(name) };
}

/**
 * NodeInfoCache keeps the last NodeInfo of every node. Cache objects are immutable and
 * replaced on change, so a node whose object and pod objects are the same ones as last time
 * (compared by identity, in order) has the same NodeInfo: re-summing thousands of pods for
 * every attempt is the snapshot's main cost otherwise.
 */
export class NodeInfoCache {
  private readonly entries = new Map<string, { node: ReadonlyNode; pods: readonly ReadonlyPod[]; info: NodeInfo }>();

  /** get returns the cached NodeInfo when nothing changed, else a fresh one (and caches it). */
  get(node: ReadonlyNode, pods: readonly ReadonlyPod[]): NodeInfo {
    const name = node.metadata.name ?? '';
    const cached = this.entries.get(name);
    if (cached && cached.node === node && samePods(cached.pods, pods)) return cached.info;
    const info = createNodeInfo(node, pods);
    this.entries.set(name, { node, pods, info });
    return info;
  }

  /** retain forgets nodes that are gone. */
  retain(current: ReadonlyMap<string, NodeInfo>): void {
    for (const name of this.entries.keys()) if (!current.has(name)) this.entries.delete(name);
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
