/**
 * measureRollout: the whole-cluster benches' measurement — create a Deployment of `pods`
 * replicas on a running cluster, wait (printing progress) until every pod is Running and
 * Ready as a watcher sees it, and report the time, scheduling rate, pod startup latency, how
 * many writes the store took (its revision moved by that much) and the CPU and memory the
 * named processes used meanwhile.
 */
import { type Deployment, deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { namespaceDefinition } from '../../apiserver/api/core/namespace.js';
import { nodeDefinition } from '../../apiserver/api/core/node.js';
import type { KubeClient } from '../../controllers/runtime/client/http-client.js';
import { type ProcessUsage, treeUsage } from './cluster-process.js';
import { deploymentManifest } from './pod-manifest.js';
import { trackPods } from './pod-tracker.js';
import { waitUntil } from './wait-until.js';

export interface RolloutFigures {
  allReadyMs: number;
  podsScheduledPerSecond: number;
  startupP50Ms: number;
  startupP99Ms: number;
  /** How far the store's revision moved: every create, update and delete of the rollout. */
  writes: number;
  /** CPU and memory of each named group of processes over the rollout (RSS: at its end). */
  usage: Record<string, ProcessUsage>;
}

/** storeRevision is the cluster's current resourceVersion (a small list's). */
async function storeRevision(client: KubeClient): Promise<number> {
  return Number((await client.resource(namespaceDefinition).list()).metadata.resourceVersion);
}

/** Groups of processes to account CPU and memory for, by name; each lists its pids when asked. */
export type UsageGroups = Record<string, () => number[]>;

function usageOf(groups: UsageGroups): Record<string, ProcessUsage> {
  return Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, treeUsage(pids())]));
}

/** nodesReady says whether at least `count` nodes report Ready. */
export async function nodesReady(client: KubeClient, count: number): Promise<boolean> {
  const nodes = await client.resource(nodeDefinition).list();
  return nodes.items.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length >= count;
}

export async function measureRollout(client: KubeClient, pods: number, groups: UsageGroups, name = 'scale'): Promise<RolloutFigures> {
  const tracker = await trackPods(client);
  try {
    const before = usageOf(groups);
    const revisionBefore = await storeRevision(client);
    const start = performance.now();
    await client.resource(deploymentDefinition).create(deploymentManifest(name, pods) as Deployment);
    await waitUntil(
      () => `${pods} pods Running and Ready (${tracker.ready} so far)`,
      () => tracker.ready >= pods,
      900_000,
    );
    const allReadyMs = performance.now() - start;
    const after = usageOf(groups);
    const startup = tracker.startupLatencies();
    return {
      allReadyMs,
      podsScheduledPerSecond: pods / ((tracker.lastScheduledMs - start) / 1000),
      startupP50Ms: startup.p50,
      startupP99Ms: startup.p99,
      writes: (await storeRevision(client)) - revisionBefore,
      usage: Object.fromEntries(Object.entries(after).map(([group, end]) => [group, { rssBytes: end.rssBytes, cpuMs: end.cpuMs - before[group]!.cpuMs }])),
    };
  } finally {
    tracker.stop();
  }
}
