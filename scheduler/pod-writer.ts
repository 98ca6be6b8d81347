/**
 * The scheduler's writes to pods, the only API calls it makes besides events:
 *   - bind: POST pods/{name}/binding with the decision as an annotation (the API server sets
 *     spec.nodeName and PodScheduled=True and copies the annotation onto the pod);
 *   - markUnschedulable: PodScheduled=False reason Unschedulable through pods/status (a
 *     strategic merge patch keyed by condition type, so other conditions stay), and the
 *     decision annotation through a metadata merge patch. Each is skipped when the pod
 *     already says the same, so an unchanged failure writes nothing.
 */
import { isNotFound } from '../apiserver/api/api-error.js';

import type { Pod } from '../apiserver/api/core/pod.js';
import { rfc3339 } from '../apiserver/api/machinery/time.js';
import type { KubeClient } from '../controllers/runtime/client/http-client.js';
import { KINDS } from '../controllers/runtime/kinds.js';
import { keyOf } from '../controllers/runtime/reconciler.js';
import type { Clock, Logger, ResourceClient } from '../controllers/runtime/types.js';
import { LAST_DECISION_ANNOTATION } from './explain.js';
import type { ReadonlyPod } from './framework.js';

/** PodWriter knows how to record the scheduler's decisions on pods. bind rejects with the
 * server's ApiError (409 when already bound); markUnschedulable logs failures instead. */
export interface PodWriter {
  bind(pod: ReadonlyPod, nodeName: string, decision: string): Promise<void>;
  markUnschedulable(pod: ReadonlyPod, message: string, decision: string): Promise<void>;
}

/** PodWriterOptions configures createPodWriter. */
export interface PodWriterOptions {
  client: KubeClient;
  clock: Clock;
  logger: Logger;
}

/** createPodWriter returns a PodWriter over HTTP. Writes about one pod run one after the
 * other, so a slow PodScheduled=False from a failed attempt can never land after the
 * binding of a later, successful one. */
export function createPodWriter(options: PodWriterOptions): PodWriter {
  const pods = options.client.resource(KINDS.pod);
  const serial = createSerializer();
  const recordFailure = async (pod: ReadonlyPod, message: string, decision: string) => {
    try {
      await patchCondition(pods, pod, message, options.clock.now());
      await patchAnnotation(pods, pod, decision);
    } catch (err) {
      // The pod may be gone already; anything else is retried with the next attempt.
      if (!isNotFound(err)) options.logger.warn({ err, pod: keyOf(pod) }, 'could not record the scheduling failure on the pod');
    }
  };
  return {
    bind: (pod, nodeName, decision) => serial(keyOf(pod), () => bind(options.client, pod, nodeName, decision)),
    markUnschedulable: (pod, message, decision) => serial(keyOf(pod), () => recordFailure(pod, message, decision)),
  };
}

/** createSerializer returns run(key, fn): fn starts once every earlier fn for `key` settled. */
function createSerializer(): <T>(key: string, fn: () => Promise<T>) => Promise<T> {
  const tails = new Map<string, Promise<unknown>>();
  return (key, fn) => {
    const previous = tails.get(key) ?? Promise.resolve();
    const next = previous.then(fn);
    const tail = next.catch(() => undefined); // Failures belong to the caller; the chain only orders.
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return next;
  };
}

async function bind(client: KubeClient, pod: ReadonlyPod, nodeName: string, decision: string): Promise<void> {
  const { namespace = '', name = '', uid } = pod.metadata;
  const binding = {
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name, namespace, uid, annotations: { [LAST_DECISION_ANNOTATION]: decision } },
    target: { apiVersion: 'v1', kind: 'Node', name: nodeName },
  };
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/binding`;
  await client.raw({ method: 'POST', path, body: JSON.stringify(binding), contentType: 'application/json' });
}

async function patchCondition(pods: ResourceClient<Pod>, pod: ReadonlyPod, message: string, nowMs: number): Promise<void> {
  const current = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
  if (current?.status === 'False' && current.reason === 'Unschedulable' && current.message === message) return;
  // The transition time moves only when the status does, as kube's UpdatePodCondition keeps it.
  const lastTransitionTime = current?.status === 'False' && current.lastTransitionTime ? current.lastTransitionTime : rfc3339(nowMs);
  const condition = { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message, lastTransitionTime };
  await pods.patch(
    pod.metadata.namespace ?? '',
    pod.metadata.name ?? '',
    { status: { conditions: [condition] } },
    { type: 'strategic', subresource: 'status' },
  );
}

async function patchAnnotation(pods: ResourceClient<Pod>, pod: ReadonlyPod, decision: string): Promise<void> {
  if (pod.metadata.annotations?.[LAST_DECISION_ANNOTATION] === decision) return;
  const patch = { metadata: { annotations: { [LAST_DECISION_ANNOTATION]: decision } } };
  await pods.patch(pod.metadata.namespace ?? '', pod.metadata.name ?? '', patch, { type: 'merge' });
}
