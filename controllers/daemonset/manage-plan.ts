/**
 * The DaemonSet controller's per-node decision (Kubernetes' manage / podsShouldBeOnNode):
 * which nodes need a daemon pod and which pods must go. Pure apart from the failed-pod
 * backoff it consults and advances; performs no I/O and never mutates cache objects.
 */
import type { ReadonlyPod } from '../runtime/pods/pod-state.js';
import { isPodUpdated } from './daemon-pods.js';
import type { FailedPodBackoff } from './failed-pod-backoff.js';
import { nodeShouldRunDaemonPod, type ReadonlyDaemonSet, type ReadonlyNode } from './node-eligibility.js';

/** ManageInput is what planManage looks at. */
export interface ManageInput {
  ds: ReadonlyDaemonSet;
  nodes: readonly ReadonlyNode[];
  /** The DaemonSet's pods grouped by target node, oldest first (podsByNode). */
  podsByNode: ReadonlyMap<string, readonly ReadonlyPod[]>;
  hash: string;
  backoff: FailedPodBackoff;
  nowMs: number;
}

/** ManagePlan is what the controller should do now. */
export interface ManagePlan {
  /** Nodes that should run a pod and have none. */
  nodesNeedingPods: string[];
  /** Pods to delete: failed, surplus, or on nodes that should not run them. */
  podsToDelete: ReadonlyPod[];
  /** Pods bound to nodes that no longer exist: removed at once, as the pod GC would. */
  orphanedPods: ReadonlyPod[];
  /** Look again after this long (a failed pod waits out its backoff). */
  requeueAfterMs?: number;
}

/** planManage decides node by node (see podsOnNode), and collects the pods of nodes that are gone. */
export function planManage(input: ManageInput): ManagePlan {
  const plan: ManagePlan = { nodesNeedingPods: [], podsToDelete: [], orphanedPods: [] };
  const known = new Set<string>();
  for (const node of input.nodes) {
    const name = node.metadata.name ?? '';
    known.add(name);
    podsOnNode(input, node, input.podsByNode.get(name) ?? [], plan);
  }
  for (const [name, pods] of input.podsByNode) {
    if (known.has(name)) continue;
    plan.orphanedPods.push(...pods.filter((pod) => pod.spec.nodeName === name));
  }
  return plan;
}

/**
 * podsOnNode: a node that should run the pod and has none needs one; on a node where the pod
 * may continue, failed pods are deleted (once out of backoff), succeeded ones too, and of
 * several running pods all but the oldest (with surge: the oldest updated and the oldest old
 * one) are deleted; on a node where it may not continue, every pod is deleted.
 */
function podsOnNode(input: ManageInput, node: ReadonlyNode, pods: readonly ReadonlyPod[], plan: ManagePlan): void {
  const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(node, input.ds);
  if (shouldRun && pods.length === 0) {
    plan.nodesNeedingPods.push(node.metadata.name ?? '');
  } else if (shouldContinueRunning) {
    const running = keepRunning(input, node.metadata.name ?? '', pods, plan);
    plan.podsToDelete.push(...surplus(running, allowsSurge(input.ds), input.hash));
  } else {
    plan.podsToDelete.push(...pods.filter((pod) => pod.metadata.deletionTimestamp === undefined));
  }
}

/** keepRunning sorts a node's live pods: failed ones are scheduled for deletion (or wait out
 * their backoff), succeeded ones deleted; returns the rest. */
function keepRunning(input: ManageInput, nodeName: string, pods: readonly ReadonlyPod[], plan: ManagePlan): ReadonlyPod[] {
  const running: ReadonlyPod[] = [];
  const key = `${input.ds.metadata.uid ?? ''}/${nodeName}`;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp !== undefined) continue;
    const phase = pod.status?.phase;
    if (phase === 'Failed') {
      if (input.backoff.isInBackoff(key, input.nowMs)) {
        const waitMs = input.backoff.remainingMs(key, input.nowMs);
        plan.requeueAfterMs = Math.min(plan.requeueAfterMs ?? waitMs, waitMs);
        continue;
      }
      input.backoff.next(key, input.nowMs);
      plan.podsToDelete.push(pod);
    } else if (phase === 'Succeeded') {
      plan.podsToDelete.push(pod);
    } else {
      running.push(pod);
    }
  }
  return running;
}

/** surplus picks the running pods to delete: all but the oldest, or, when surging, all but
 * the oldest updated and the oldest old pod. `running` is oldest first. */
export function surplus(running: readonly ReadonlyPod[], surge: boolean, hash: string): ReadonlyPod[] {
  if (running.length <= 1) return [];
  if (!surge) return running.slice(1);
  let keptNew = false;
  let keptOld = false;
  return running.filter((pod) => {
    if (isPodUpdated(pod, hash)) {
      if (keptNew) return true;
      keptNew = true;
    } else {
      if (keptOld) return true;
      keptOld = true;
    }
    return false;
  });
}

/** allowsSurge is true for a RollingUpdate DaemonSet whose maxSurge is not zero. */
export function allowsSurge(ds: ReadonlyDaemonSet): boolean {
  const strategy = ds.spec.updateStrategy;
  if ((strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return false;
  const maxSurge = strategy?.rollingUpdate?.maxSurge ?? 0;
  return typeof maxSurge === 'number' ? maxSurge !== 0 : !/^0+%?$/.test(maxSurge);
}
