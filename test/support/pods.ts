/**
 * Pod status helpers for tests that run controllers without kubelets: they write what a
 * kubelet would write, through the pods/status subresource.
 */

import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import { request } from './http.js';
import type { TestCluster } from './test-cluster.js';

/** PodRef names a pod (namespace `default` unless given). */
export interface PodRef {
  metadata: { name?: string; namespace?: string };
}

/**
 * markPodRunningReady PUTs the pod's status as a kubelet reports a started, ready pod:
 * phase Running, the four standard conditions True (transitioned at `readySince`, default
 * now) and every container running and ready. Returns the updated pod; throws on any
 * non-200 answer (e.g. 409 when the pod changed between the read and the write).
 */
export async function markPodRunningReady(cluster: TestCluster, pod: PodRef, readySince = new Date()): Promise<any> {
  const namespace = pod.metadata.namespace ?? 'default';
  const url = `${cluster.url}/api/v1/namespaces/${namespace}/pods/${pod.metadata.name}`;
  const current = await request(url);
  if (current.status !== 200) throw new Error(`GET ${url}: ${current.status} ${JSON.stringify(current.body)}`);
  const at = rfc3339(readySince.getTime());
  const body = current.body;
  body.status = {
    ...body.status,
    phase: 'Running',
    startTime: at,
    conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((type) => ({ type, status: 'True', lastTransitionTime: at })),
    containerStatuses: body.spec.containers.map((container: { name: string; image: string }) => ({
      name: container.name,
      image: container.image,
      ready: true,
      started: true,
      restartCount: 0,
      state: { running: { startedAt: at } },
    })),
  };
  const updated = await request(`${url}/status`, { method: 'PUT', body });
  if (updated.status !== 200) throw new Error(`PUT ${url}/status: ${updated.status} ${JSON.stringify(updated.body)}`);
  return updated.body;
}
