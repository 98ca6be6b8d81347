/** Follows every pod through a watch and records, per pod, when it was first seen, first seen
 * bound to a node, and first seen Ready — the client's view of pod startup. */
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import type { KubeClient } from '../../controllers/runtime/client/http-client.js';

export interface PodTracker {
  readonly ready: number;
  /** performance.now() of the latest first-binding seen. */
  readonly lastScheduledMs: number;
  startupLatencies(): { p50: number; p99: number };
  stop(): void;
}

interface PodTimes {
  seenMs: number;
  scheduledMs?: number;
  readyMs?: number;
}

function isReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0;
}

export async function trackPods(client: KubeClient): Promise<PodTracker> {
  const times = new Map<string, PodTimes>();
  const abort = new AbortController();
  let ready = 0;
  let lastScheduledMs = 0;
  const list = await client.resource(podDefinition).list();
  const observe = (pod: Pod) => {
    const now = performance.now();
    const uid = pod.metadata.uid ?? '';
    let entry = times.get(uid);
    if (!entry) times.set(uid, (entry = { seenMs: now }));
    if (pod.spec?.nodeName && entry.scheduledMs === undefined) lastScheduledMs = entry.scheduledMs = now;
    if (isReady(pod) && entry.readyMs === undefined) {
      entry.readyMs = now;
      ready++;
    }
  };
  void (async () => {
    for await (const event of client.resource(podDefinition).watch({ resourceVersion: list.metadata.resourceVersion, signal: abort.signal })) {
      if (event.type === 'ADDED' || event.type === 'MODIFIED') observe(event.object);
    }
  })().catch(() => undefined);
  return {
    get ready() {
      return ready;
    },
    get lastScheduledMs() {
      return lastScheduledMs;
    },
    startupLatencies() {
      const latencies = [...times.values()]
        .filter((t) => t.readyMs !== undefined)
        .map((t) => t.readyMs! - t.seenMs)
        .sort((a, b) => a - b);
      return { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
    },
    stop: () => abort.abort(),
  };
}
