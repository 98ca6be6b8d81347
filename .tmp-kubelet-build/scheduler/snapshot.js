import { addInto, parseResourceList, podNonZeroRequests, podRequests } from './resources.js';
/** isTerminal reports a pod that no longer holds node resources (Succeeded or Failed), which
 * kube-scheduler's informer excludes with a field selector. */
export function isTerminal(pod) {
    const phase = pod.status?.phase;
    return phase === 'Succeeded' || phase === 'Failed';
}
/** buildSnapshot makes a Snapshot; nodes are sorted by name so results never depend on cache
 * order. It never mutates its inputs. `reuse` (see NodeInfoCache) skips recomputing nodes
 * whose object and pods are unchanged since the last snapshot. */
export function buildSnapshot(source, reuse) {
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
    entries = new Map();
    /** get returns the cached NodeInfo when nothing changed, else a fresh one (and caches it). */
    get(node, pods) {
        const name = node.metadata.name ?? '';
        const cached = this.entries.get(name);
        if (cached && cached.node === node && samePods(cached.pods, pods))
            return cached.info;
        const info = createNodeInfo(node, pods);
        this.entries.set(name, { node, pods, info });
        return info;
    }
    /** retain forgets nodes that are gone. */
    retain(current) {
        for (const name of this.entries.keys())
            if (!current.has(name))
                this.entries.delete(name);
    }
}
function samePods(a, b) {
    return a.length === b.length && a.every((pod, i) => pod === b[i]);
}
/** createNodeInfo sums the non-terminal `pods` against `node` (see NodeInfo). */
export function createNodeInfo(node, pods) {
    const requested = {};
    const nonZeroRequested = { cpu: 0, memory: 0 };
    const counted = [];
    const podsByOwner = new Map();
    for (const pod of pods) {
        if (isTerminal(pod))
            continue;
        counted.push(pod);
        addInto(requested, podRequests(pod));
        addInto(nonZeroRequested, podNonZeroRequests(pod));
        const owner = pod.metadata.deletionTimestamp ? undefined : controllerUid(pod);
        if (owner)
            podsByOwner.set(owner, (podsByOwner.get(owner) ?? 0) + 1);
    }
    const allocatable = parseResourceList(node.status?.allocatable);
    return { name: node.metadata.name ?? '', node, pods: counted, requested, nonZeroRequested, allocatable, podsByOwner };
}
/** controllerUid is the uid of the pod's controlling owner (e.g. its ReplicaSet), or of its
 * first owner when none is marked controller, as kube's PodsWithOwnerRef keys by. */
export function controllerUid(pod) {
    const references = pod.metadata.ownerReferences ?? [];
    return (references.find((reference) => reference.controller) ?? references[0])?.uid || undefined;
}
function compareNames(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
}
//# sourceMappingURL=snapshot.js.map