/**
 * What each component's absence does to a cluster and how it catches up: the words chaos
 * answers with, so a learner knows what to look for in the live view after a disturbance.
 */
import { CONTROLLERS, isControllerName } from '../../controllers/catalog.js';

interface ComponentStory {
  /** What stops happening while it is down or cut off. */
  whileDown: string;
  /** What it does once it is back. */
  catchUp: string;
}

const NODE_GRACE = 'the node grace period (40 s of cluster time)';

const STORIES: Record<string, ComponentStory> = {
  replicaset: {
    whileDown: 'a deleted pod is not replaced and a scaled ReplicaSet does not change its pods',
    catchUp:
      'its informers re-list and it reconciles every ReplicaSet again — nothing changes unless something drifted while it was down (a pod deleted meanwhile is replaced now)',
  },
  deployment: {
    whileDown: 'Deployments are not scaled and rollouts stand still (their ReplicaSets keep their pods)',
    catchUp: 'its informers re-list and it reconciles every Deployment again; a scale or rollout asked for meanwhile proceeds now',
  },
  scheduler: {
    whileDown: 'new pods stay Pending (nothing binds them to a node)',
    catchUp: 'it re-lists and binds every Pending pod; they start on their nodes within a few seconds',
  },
  kubelet: {
    whileDown: `pods bound to the nodes are not started and the nodes send no heartbeats; after ${NODE_GRACE} the nodes turn NotReady`,
    catchUp: 'the simulated nodes re-register, heartbeat again and start or report their pods; NotReady nodes turn Ready',
  },
  'node-lifecycle': {
    whileDown: 'nobody notices nodes that stopped heartbeating: they keep their Ready condition and their pods',
    catchUp: 'it re-lists nodes and their leases and marks, taints and evicts what is overdue',
  },
  'garbage-collector': {
    whileDown: 'dependents of deleted owners (pods of a deleted ReplicaSet) are not deleted',
    catchUp: 'it rebuilds its owner graph and deletes the orphans left meanwhile',
  },
  endpointslice: {
    whileDown: 'Service endpoints do not follow pods becoming ready or going away',
    catchUp: 'it re-lists and rewrites every EndpointSlice that went stale',
  },
  endpoints: {
    whileDown: 'Endpoints objects do not follow pods becoming ready or going away',
    catchUp: 'it re-lists and rewrites every Endpoints object that went stale',
  },
  hpa: {
    whileDown: 'autoscalers make no decisions: replica counts stay where they are whatever the load',
    catchUp: 'it re-lists and, at its next sync, scales every target to what its metrics ask for',
  },
};

/** whileDown says what stops while `component` is down or cut off. */
export function whileDown(component: string): string {
  const story = STORIES[component]?.whileDown;
  if (story) return story;
  return isControllerName(component) ? `nobody does its work (it ${CONTROLLERS[component].summary})` : `nobody does the work of ${component}`;
}

/** catchUp says how `component` catches up once it is back. */
export function catchUp(component: string): string {
  return STORIES[component]?.catchUp ?? 'its informers re-list and it reconciles every object it watches again; whatever drifted meanwhile is put right';
}

/** nodeStopStory is what a stopped node's kubelet leads to. */
export const NODE_STOP_STORY =
  `after ${NODE_GRACE} the node-lifecycle controller marks the node NotReady and taints it; once the pods' ` +
  'toleration of that taint runs out (300 s of cluster time by default) they are evicted and their ReplicaSets replace them on the other nodes';

/** duration words a number of cluster seconds. */
export function duration(seconds: number): string {
  return `${Number(seconds.toFixed(1))} s of cluster time`;
}
