/**
 * The node monitor (kube's monitorNodeHealth), one node per reconcile:
 *
 *   heartbeat older than the grace period? ──yes──► conditions Unknown (/status)
 *        │                                          + event NodeNotReady
 *        ▼                                          + pods on the node Ready=False
 *   taints follow the conditions (main resource): Ready False → not-ready,
 *   Unknown → unreachable (NoSchedule + NoExecute); Ready True → neither
 *
 * The controller never sets Ready back to True: only the kubelet can vouch for its node, and
 * when it reports again the taints follow its conditions off the node. A ticker enqueues every
 * node each monitor period, because silence produces no watch event.
 */

import { isNotFound } from '../../apiserver/api/api-error.js';
import type { Lease } from '../../apiserver/api/coordination/lease.js';
import type { Node } from '../../apiserver/api/core/node.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { podReadyCondition } from '../../apiserver/api/core/pod-conditions.js';
import { isAbortError } from '../../apiserver/api/machinery/clock.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import { NODE_NAME_INDEX } from '../runtime/indexers.js';
import { keyOf, reconcileLogger } from '../runtime/reconciler.js';
import type { Clock, DeepReadonly, EventRecorder, Lister, Logger, Reconciler, ResourceClient, Result, Runnable, WorkQueue } from '../runtime/types.js';
import { assessNodeHealth, NODE_LEASE_NAMESPACE, readyStatus, unknownConditions } from './node-health.js';
import { desiredTaints } from './taints.js';

type ReadonlyNode = DeepReadonly<Node>;
type ReadonlyPod = DeepReadonly<Pod>;

/** NodeMonitorDeps are the node monitor's collaborators; podLister must carry NODE_NAME_INDEX. */
export interface NodeMonitorDeps {
  nodeLister: Lister<Node>;
  leaseLister: Lister<Lease>;
  podLister: Lister<Pod>;
  nodes: ResourceClient<Node>;
  pods: ResourceClient<Pod>;
  recorder: EventRecorder;
  clock: Clock;
  logger: Logger;
  /** nodeMonitorGracePeriod in cluster ms. */
  gracePeriodMs: number;
  /** nodeStartupGracePeriod in cluster ms. */
  startupGracePeriodMs: number;
}

/**
 * createNodeMonitorReconciler returns the Reconciler for node keys (see the module comment).
 * A reconcile returns {} when the node is gone; it throws (rate-limited retry) when a write
 * failed, a 409 included — the next pass reads a fresher cache and recomputes everything.
 */
export function createNodeMonitorReconciler(deps: NodeMonitorDeps): Reconciler {
  return { reconcile: (request) => monitorNodeHealth(deps, request.name) };
}

async function monitorNodeHealth(deps: NodeMonitorDeps, name: string): Promise<Result> {
  const cached = deps.nodeLister.get('', name);
  if (cached === undefined) return {};
  const nowMs = deps.clock.now();
  const { gracePeriodMs, startupGracePeriodMs } = deps;
  const lease = deps.leaseLister.get(NODE_LEASE_NAMESPACE, name);
  const health = assessNodeHealth({ node: cached, lease, nowMs, gracePeriodMs, startupGracePeriodMs });
  const node = health.stale ? await takeOverConditions(deps, cached, nowMs) : cached;
  if (node === undefined) return {};
  await syncTaints(deps, node, nowMs);
  if (health.stale) await markPodsNotReady(deps, name, nowMs);
  return {};
}

/**
 * takeOverConditions writes the kubelet conditions as Unknown when they are not yet, and
 * announces a Ready node going away with a NodeNotReady event. Returns the node as it now
 * stands, or undefined when it was deleted meanwhile.
 */
async function takeOverConditions(deps: NodeMonitorDeps, node: ReadonlyNode, nowMs: number): Promise<ReadonlyNode | undefined> {
  const conditions = unknownConditions(node, nowMs);
  if (conditions === undefined) return node;
  // NOTE: `node` is the informer's shared object; edit a copy.
  const copy = structuredClone(node) as Node;
  copy.status = { ...copy.status, conditions };
  let updated: Node;
  try {
    updated = await deps.nodes.updateStatus(copy);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
  const name = node.metadata.name ?? '';
  reconcileLogger(deps.logger).info({ node: name }, 'kubelet stopped posting node status; conditions set to Unknown');
  if (readyStatus(node) === 'True') deps.recorder.event(updated, 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
  return updated;
}

/** syncTaints makes the node's controller-owned taints follow its conditions (taints are
 * spec, so this is a PUT of the main resource carrying the resourceVersion just read). */
async function syncTaints(deps: NodeMonitorDeps, node: ReadonlyNode, nowMs: number): Promise<void> {
  const taints = desiredTaints(node, nowMs);
  if (taints === undefined) return;
  const copy = structuredClone(node) as Node;
  copy.spec = { ...copy.spec, taints: taints.length > 0 ? taints : undefined };
  try {
    await deps.nodes.update(copy);
  } catch (err) {
    if (isNotFound(err)) return;
    throw err;
  }
  const summary = taints.map((t) => `${t.key}:${t.effect}`);
  reconcileLogger(deps.logger).info({ node: node.metadata.name, taints: summary }, 'node taints updated');
}

/**
 * markPodsNotReady sets Ready=False on every pod of the silent node that still claims to be
 * ready (kube's MarkPodsNotReady), so Services and the ReplicaSet's availability stop
 * counting pods nobody can vouch for. Each pod also gets a Warning NodeNotReady event. All
 * pods are tried; the first failure (other than a pod already gone) is thrown afterwards.
 */
async function markPodsNotReady(deps: NodeMonitorDeps, nodeName: string, nowMs: number): Promise<void> {
  const pods = deps.podLister.byIndex(NODE_NAME_INDEX, nodeName).filter(claimsReady);
  const results = await Promise.allSettled(pods.map((pod) => markPodNotReady(deps, pod, nowMs)));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !isNotFound(r.reason));
  if (failed !== undefined) throw failed.reason;
}

function claimsReady(pod: ReadonlyPod): boolean {
  const ready = podReadyCondition(pod);
  return ready !== undefined && ready.status !== 'False';
}

async function markPodNotReady(deps: NodeMonitorDeps, pod: ReadonlyPod, nowMs: number): Promise<void> {
  const copy = structuredClone(pod) as Pod;
  for (const condition of copy.status?.conditions ?? []) {
    if (condition.type !== 'Ready') continue;
    condition.status = 'False';
    condition.lastTransitionTime = rfc3339(nowMs);
  }
  const updated = await deps.pods.updateStatus(copy);
  deps.recorder.event(updated, 'Warning', 'NodeNotReady', 'Node is not ready');
}

/** MonitorTickerOptions configure createMonitorTicker. */
export interface MonitorTickerOptions {
  clock: Clock;
  /** nodeMonitorPeriod in cluster ms. */
  periodMs: number;
  nodeLister: Lister<Node>;
  queue: WorkQueue;
}

/**
 * createMonitorTicker returns a Runnable that enqueues every cached node once per period of
 * cluster time until its signal aborts (then it resolves). It is the only trigger for a node
 * whose kubelet fell silent: silence produces no watch event.
 */
export function createMonitorTicker({ clock, periodMs, nodeLister, queue }: MonitorTickerOptions): Runnable {
  return {
    async start(signal) {
      for (;;) {
        try {
          await clock.sleep(periodMs, signal);
        } catch (err) {
          if (isAbortError(err)) return;
          throw err;
        }
        for (const node of nodeLister.list()) queue.add(keyOf(node));
      }
    },
  };
}
