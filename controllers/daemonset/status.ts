/**
 * The DaemonSet's status, computed from the nodes and its pods (Kubernetes'
 * updateDaemonSetStatus): per eligible node, whether it has a pod, whether the oldest one is
 * ready, available and updated; per ineligible node with a pod, one misscheduled. Pure.
 */
import type { DaemonSetStatus } from '../../apiserver/api/apps/daemon-set.js';
import { isPodAvailable, isPodReady } from '../../apiserver/api/core/pod-conditions.js';
import { deepEqual } from '../../apiserver/api/deep-equal.js';
import type { ReadonlyPod } from '../runtime/pods/pod-state.js';
import { isPodUpdated } from './daemon-pods.js';
import { nodeShouldRunDaemonPod, type ReadonlyDaemonSet, type ReadonlyNode } from './node-eligibility.js';

/** StatusInput is what calculateStatus looks at. */
export interface StatusInput {
  ds: ReadonlyDaemonSet;
  nodes: readonly ReadonlyNode[];
  /** The DaemonSet's pods grouped by target node, oldest (scheduled) first. */
  podsByNode: ReadonlyMap<string, readonly ReadonlyPod[]>;
  hash: string;
  nowMs: number;
}

/** calculateStatus returns the status to write; observedGeneration is the DaemonSet's
 * generation and collisionCount/conditions are carried over. Never mutates its inputs. */
export function calculateStatus({ ds, nodes, podsByNode, hash, nowMs }: StatusInput): DaemonSetStatus {
  const counts = { desired: 0, current: 0, ready: 0, available: 0, updated: 0, misscheduled: 0 };
  const minReadySeconds = ds.spec.minReadySeconds ?? 0;
  for (const node of nodes) {
    const pod = podsByNode.get(node.metadata.name ?? '')?.[0];
    if (!nodeShouldRunDaemonPod(node, ds).shouldRun) {
      if (pod !== undefined) counts.misscheduled++;
      continue;
    }
    counts.desired++;
    if (pod === undefined) continue;
    counts.current++;
    if (isPodReady(pod)) counts.ready++;
    if (isPodAvailable(pod, minReadySeconds, nowMs)) counts.available++;
    if (isPodUpdated(pod, hash)) counts.updated++;
  }
  return withCarriedFields(ds, {
    currentNumberScheduled: counts.current,
    numberMisscheduled: counts.misscheduled,
    desiredNumberScheduled: counts.desired,
    numberReady: counts.ready,
    observedGeneration: ds.metadata.generation,
    updatedNumberScheduled: counts.updated,
    numberAvailable: counts.available,
    numberUnavailable: counts.desired - counts.available,
  });
}

function withCarriedFields(ds: ReadonlyDaemonSet, status: DaemonSetStatus): DaemonSetStatus {
  const previous = ds.status;
  if (previous?.collisionCount !== undefined) status.collisionCount = previous.collisionCount;
  if (previous?.conditions !== undefined) status.conditions = structuredClone(previous.conditions) as DaemonSetStatus['conditions'];
  return status;
}

/** statusNeedsUpdate is true when `status` differs from what the DaemonSet reports. */
export function statusNeedsUpdate(ds: ReadonlyDaemonSet, status: DaemonSetStatus): boolean {
  return !deepEqual(stripUndefined(ds.status ?? {}), stripUndefined(status));
}

function stripUndefined(value: object): unknown {
  return JSON.parse(JSON.stringify(value));
}
