/**
 * The causal tree `kubesim trace` prints (docs/history.md). Pure: history entries in, tree
 * and lines out.
 *
 * An entry is a child of an earlier entry of the tree when its actor's trigger is the watch
 * event of that entry (trigger.object.resourceVersion is the entry's revision: revisions are
 * global, so the revision alone names the write); a requeue (or a kubelet stage coming due)
 * continues the latest tree entry of the same loop and key, or — when the reconciles before
 * it wrote nothing — the entry whose event started the run (its `origin`). Anything else —
 * resyncs, heartbeats, other users' writes — started a chain of its own and stays out.
 */

import { isPodReady } from '../../apiserver/api/core/pod-conditions.js';
import type { HistoryItem } from '../../apiserver/api/kubesim/history.js';
import { actorLabel, describeChange, isLoopActor } from './history-format.js';

/** TraceNode is one entry of the tree and the entries it caused, in revision order. */
export interface TraceNode {
  item: HistoryItem;
  children: TraceNode[];
}

/** NOISE_RESOURCES are written alongside real work (Events, heartbeat Leases) but cause nothing. */
const NOISE_RESOURCES = new Set(['events', 'events.events.k8s.io', 'leases.coordination.k8s.io']);

/** pickRoot is the entry a trace starts from: the latest change to the object by a user
 * (an actor that is not a loop), else its latest change. `history` is the object's own
 * history, oldest first. */
export function pickRoot(history: readonly HistoryItem[]): HistoryItem | undefined {
  const byUser = history.filter((item) => !isLoopActor(item.actor) && item.actor !== null);
  return byUser[byUser.length - 1] ?? history[history.length - 1];
}

/** buildTraceTree walks `items` (oldest first, starting at or before `root`) forward and
 * returns the tree of everything `root` caused. */
export function buildTraceTree(items: readonly HistoryItem[], root: HistoryItem): TraceNode {
  const top: TraceNode = { item: root, children: [] };
  const byRevision = new Map<number, TraceNode>([[root.revision, top]]);
  const latestByLoop = new Map<string, TraceNode>();
  for (const item of items) {
    if (item.revision <= root.revision || NOISE_RESOURCES.has(item.resource)) continue;
    const parent = parentOf(item, byRevision, latestByLoop);
    if (!parent) continue;
    const node: TraceNode = { item, children: [] };
    parent.children.push(node);
    byRevision.set(item.revision, node);
    latestByLoop.set(loopKey(item), node);
  }
  return top;
}

function parentOf(item: HistoryItem, byRevision: Map<number, TraceNode>, latestByLoop: Map<string, TraceNode>): TraceNode | undefined {
  const trigger = item.actor?.trigger;
  if (!trigger) return undefined;
  switch (trigger.kind) {
    case 'event':
      return byRevision.get(Number(trigger.object.resourceVersion));
    case 'requeue':
    case 'stage': {
      const origin = trigger.origin;
      return latestByLoop.get(loopKey(item)) ?? (origin?.kind === 'event' ? byRevision.get(Number(origin.object.resourceVersion)) : undefined);
    }
    case 'resync':
    case 'heartbeat':
      return undefined;
    default: {
      const unknown: never = trigger;
      return unknown;
    }
  }
}

function loopKey(item: HistoryItem): string {
  return `${item.actor?.controller ?? ''}\u0000${item.actor?.key ?? ''}`;
}

/** countNodes counts the entries of a tree. */
export function countNodes(node: TraceNode): number {
  return 1 + node.children.reduce((sum, child) => sum + countNodes(child), 0);
}

/** renderTree draws the tree as indented lines, one sentence per entry (`└ ` / `├ `
 * connectors), at most `maxLines` of them (then a line saying how many were left out). */
export function renderTree(root: TraceNode, maxLines = 200): string[] {
  const namespace = root.item.namespace;
  const lines = [`${actorLabel(root.item.actor)} ${describeChange(root.item)}`];
  const walk = (node: TraceNode, indent: string) => {
    node.children.forEach((child, i) => {
      const isLast = i === node.children.length - 1;
      lines.push(`${indent}${isLast ? '└' : '├'} ${actorLabel(child.item.actor)} ${describeChange(child.item, namespace)}`);
      walk(child, `${indent}${isLast ? '  ' : '│ '}`);
    });
  };
  walk(root, '');
  if (lines.length <= maxLines) return lines;
  return [...lines.slice(0, maxLines), `… ${lines.length - maxLines} more changes (--max-lines to see them)`];
}

/** convergedLine describes the state the traced object reached: replicas ready for a
 * workload, phase and readiness for a pod, else its latest revision. `latest` is the object's
 * latest history entry, with its object (includeObject). */
export function convergedLine(latest: HistoryItem): string {
  if (latest.type === 'DELETED') return 'converged: deleted';
  const object = latest.object ?? {};
  const spec = object['spec'] as { replicas?: unknown } | undefined;
  const status = object['status'] as { readyReplicas?: number; phase?: string; conditions?: Array<{ type: string; status: string }> } | undefined;
  if (typeof spec?.replicas === 'number') {
    const ready = status?.readyReplicas ?? 0;
    return `${ready === spec.replicas ? 'converged' : 'not converged yet'}: ${ready}/${spec.replicas} ready`;
  }
  if (status?.phase) {
    const isReady = isPodReady({ status });
    return `converged: ${status.phase}${isReady ? ', Ready' : ''}`;
  }
  return `latest: revision ${latest.revision}`;
}
