/**
 * The kubelet's resource usage report (`GET /stats/summary`, the Summary API that
 * metrics-server scrapes), for every powered-on node of this process: each running
 * container's CPU and memory from the usage model (usage.ts), with its pod's share of its
 * workload's load (workload-load.ts), and each node's total. Computed on every request from
 * the informer caches, so a change of load or replicas shows at the next scrape. A stopped
 * node reports nothing, as a kubelet without power answers nothing.
 */
import type { Pod } from '../apiserver/api/core/pod.js';
import { rfc3339 } from '../apiserver/api/machinery/time.js';
import type { ContainerStats, PodStats, Summary } from '../apiserver/api/metrics/stats-summary.js';
import { NODE_NAME_INDEX } from '../controllers/runtime/indexers.js';
import type { Clock, DeepReadonly, Lister, Logger } from '../controllers/runtime/types.js';
import { parseBehaviour } from './behaviour.js';
import type { NodeCapacity } from './node-object.js';
import { amountOf, type ContainerUsage, nodeUsage, podUsage, type Usage } from './usage.js';
import { loadShares, type OwnerLookup } from './workload-load.js';

/** StatsNode is what the report needs from a node agent. */
export interface StatsNode {
  readonly name: string;
  readonly capacity: NodeCapacity;
  isPoweredOn(): boolean;
}

/** StatsSummaryOptions wires the report to the kubelet's caches. */
export interface StatsSummaryOptions {
  /** Every bound pod of the cluster, indexed by node name (NODE_NAME_INDEX). */
  pods: Lister<Pod>;
  owners: OwnerLookup;
  nodes: ReadonlyMap<string, StatsNode>;
  clock: Clock;
  logger: Logger;
}

/** StatsSummaries reports usage; `summaries()` covers every powered-on node, in name order. */
export interface StatsSummaries {
  summaries(): Summary[];
}

/** createStatsSummaries returns the report builder. Invalid load annotations are logged
 * once per workload and value, then ignored. */
export function createStatsSummaries(options: StatsSummaryOptions): StatsSummaries {
  const warned = new Set<string>();
  return {
    summaries() {
      const shares = loadShares(options.pods.list(), options.owners);
      for (const [uid, { workload, problems }] of shares.problems) {
        const key = `${uid}:${problems.join()}`;
        if (warned.has(key)) continue;
        warned.add(key);
        options.logger.warn({ workload, problems }, 'ignoring invalid kubesim.io load annotations');
      }
      const time = rfc3339(options.clock.now());
      const nodes = [...options.nodes.values()].filter((node) => node.isPoweredOn()).sort((a, b) => (a.name < b.name ? -1 : 1));
      return nodes.map((node) => nodeSummary(node, options.pods.byIndex(NODE_NAME_INDEX, node.name), shares.byPodUid, time));
    },
  };
}

function nodeSummary(node: StatsNode, pods: readonly DeepReadonly<Pod>[], shares: ReadonlyMap<string, Partial<Usage>>, time: string): Summary {
  const capacity = capacityOf(node.capacity);
  const podStats: PodStats[] = [];
  const all: ContainerUsage[] = [];
  for (const pod of pods) {
    const { behaviour } = parseBehaviour(pod);
    const containers = podUsage({ pod, fixed: { cpu: behaviour.cpu, memory: behaviour.memory }, share: shares.get(pod.metadata.uid ?? ''), capacity });
    if (containers.length === 0) continue;
    all.push(...containers);
    podStats.push(podSummary(pod, containers, time));
  }
  const total = nodeUsage(node.name, all, capacity);
  return {
    node: {
      nodeName: node.name,
      cpu: cpuStats(total, time),
      memory: { ...memoryStats(total, time), availableBytes: Math.max(0, capacity.memoryBytes - total.memoryBytes) },
    },
    pods: podStats,
  };
}

function podSummary(pod: DeepReadonly<Pod>, containers: readonly ContainerUsage[], time: string): PodStats {
  const started = new Map((pod.status?.containerStatuses ?? []).map((s) => [s.name, s.state?.running?.startedAt]));
  const stats: ContainerStats[] = containers.map((c) => {
    const startTime = started.get(c.name);
    return { name: c.name, ...(startTime ? { startTime } : {}), cpu: cpuStats(c, time), memory: memoryStats(c, time) };
  });
  const total = containers.reduce((sum, c) => ({ cpuMillis: sum.cpuMillis + c.cpuMillis, memoryBytes: sum.memoryBytes + c.memoryBytes }), {
    cpuMillis: 0,
    memoryBytes: 0,
  });
  const { name = '', namespace = '', uid = '' } = pod.metadata;
  return {
    podRef: { name, namespace, uid },
    ...(pod.status?.startTime ? { startTime: pod.status.startTime } : {}),
    containers: stats,
    cpu: cpuStats(total, time),
    memory: memoryStats(total, time),
  };
}

const cpuStats = (usage: Usage, time: string) => ({ time, usageNanoCores: usage.cpuMillis * 1_000_000 });
const memoryStats = (usage: Usage, time: string) => ({ time, workingSetBytes: usage.memoryBytes, usageBytes: usage.memoryBytes });

function capacityOf(capacity: NodeCapacity): Usage {
  return { cpuMillis: amountOf(capacity.cpu, 'milli') ?? 0, memoryBytes: amountOf(capacity.memory, 'unit') ?? 0 };
}
