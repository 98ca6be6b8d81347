/**
 * The metrics pipeline's data, and the pure steps between the wire and it: which kubelet
 * endpoints to scrape (from the Node objects) and what their Summary reports say. The
 * scraper (scraper.ts) does the I/O around these.
 */

import type { SummaryList } from '../api/metrics/stats-summary.js';
import type { KubeObject } from '../api/resource-definition.js';

/** ContainerSample is one container's usage: CPU in nanocores, memory working set in bytes. */
export interface ContainerSample {
  name: string;
  cpuNanoCores: number;
  memoryBytes: number;
}

/** PodSample is one pod's containers as its kubelet last reported them. */
export interface PodSample {
  namespace: string;
  name: string;
  /** Ties the sample to one pod instance: a pod re-created under the same name is another pod. */
  uid: string;
  /** When the API server received the report (cluster time, ms). */
  timestampMs: number;
  containers: ContainerSample[];
}

/** NodeSample is one node's usage as its kubelet last reported it. */
export interface NodeSample {
  name: string;
  timestampMs: number;
  cpuNanoCores: number;
  memoryBytes: number;
}

/** MetricsSnapshot is the outcome of one scrape round: the latest sample of every node and
 * pod (keyed `namespace/name`) a reachable kubelet reported. Never mutated once published. */
export interface MetricsSnapshot {
  nodes: ReadonlyMap<string, NodeSample>;
  pods: ReadonlyMap<string, PodSample>;
}

/** EMPTY_SNAPSHOT is what the server knows before its first scrape. */
export const EMPTY_SNAPSHOT: MetricsSnapshot = Object.freeze({ nodes: new Map(), pods: new Map() });

interface NodeShape {
  metadata: KubeObject['metadata'];
  status?: { addresses?: Array<{ type?: string; address?: string }>; daemonEndpoints?: { kubeletEndpoint?: { Port?: number } } };
}

/** kubeletEndpointOf is `host:port` of a node's kubelet (InternalIP and
 * daemonEndpoints.kubeletEndpoint.Port, as kube-apiserver and metrics-server find it), or
 * undefined when the node does not say. */
export function kubeletEndpointOf(node: KubeObject): string | undefined {
  const { status } = node as unknown as NodeShape;
  const ip = status?.addresses?.find((address) => address.type === 'InternalIP')?.address;
  const port = status?.daemonEndpoints?.kubeletEndpoint?.Port;
  if (!ip || !port) return undefined;
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** groupByEndpoint maps each kubelet endpoint to the nodes it serves: kubelet-sim runs many
 * nodes behind one server, and each endpoint is scraped once per round. Nodes without an
 * endpoint are left out. */
export function groupByEndpoint(nodes: readonly KubeObject[]): Map<string, Set<string>> {
  const endpoints = new Map<string, Set<string>>();
  for (const node of nodes) {
    const endpoint = kubeletEndpointOf(node);
    const name = node.metadata.name;
    if (!endpoint || !name) continue;
    let names = endpoints.get(endpoint);
    if (!names) endpoints.set(endpoint, (names = new Set()));
    names.add(name);
  }
  return endpoints;
}

/** SampleBatch is what one endpoint's report contributed. */
export interface SampleBatch {
  nodes: NodeSample[];
  pods: PodSample[];
}

/**
 * samplesFromSummaries turns one endpoint's SummaryList into samples stamped `timestampMs`.
 * Only nodes in `expected` count: a kubelet reporting a node the API server places elsewhere
 * is not believed. A pod's containers without CPU or memory figures are left out, and a pod
 * left with no containers is not reported (it has nothing running), as metrics-server does.
 */
export function samplesFromSummaries(list: SummaryList, expected: ReadonlySet<string>, timestampMs: number): SampleBatch {
  const batch: SampleBatch = { nodes: [], pods: [] };
  for (const summary of list.items) {
    const { node } = summary;
    if (!expected.has(node.nodeName)) continue;
    const cpu = node.cpu?.usageNanoCores;
    const memory = node.memory?.workingSetBytes;
    if (cpu !== undefined && memory !== undefined) batch.nodes.push({ name: node.nodeName, timestampMs, cpuNanoCores: cpu, memoryBytes: memory });
    for (const pod of summary.pods) {
      const containers = pod.containers.flatMap((c) => {
        const cpuNanoCores = c.cpu?.usageNanoCores;
        const memoryBytes = c.memory?.workingSetBytes;
        return cpuNanoCores === undefined || memoryBytes === undefined ? [] : [{ name: c.name, cpuNanoCores, memoryBytes }];
      });
      if (containers.length === 0) continue;
      batch.pods.push({ namespace: pod.podRef.namespace, name: pod.podRef.name, uid: pod.podRef.uid, timestampMs, containers });
    }
  }
  return batch;
}

/** mergeBatches builds the snapshot of a round from every endpoint's batch. */
export function mergeBatches(batches: readonly SampleBatch[]): MetricsSnapshot {
  const nodes = new Map<string, NodeSample>();
  const pods = new Map<string, PodSample>();
  for (const batch of batches) {
    for (const node of batch.nodes) nodes.set(node.name, node);
    for (const pod of batch.pods) pods.set(`${pod.namespace}/${pod.name}`, pod);
  }
  return { nodes, pods };
}
