/**
 * A stand-in scheduler for integration tests that need pods placed on nodes: it binds every
 * unscheduled pod (pods/binding, as kube-scheduler does) to the next schedulable node in name
 * order — Ready=True and without NoSchedule or NoExecute taints — round robin. A pod with no
 * schedulable node is looked at again a second of cluster time later. Deterministic on
 * purpose: the real scheduler's scoring is not what these tests are about.
 */
import { isConflict, isNotFound } from '../../apiserver/api/api-error.js';
import { type Node, nodeDefinition } from '../../apiserver/api/core/node.js';
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import { isAbortError } from '../../apiserver/api/machinery/clock.js';
import type { KubeClient } from '../../controllers/runtime/client/http-client.js';
import { createController } from '../../controllers/runtime/controller.js';
import { createInformer } from '../../controllers/runtime/informer.js';
import { silentLogger } from '../../controllers/runtime/logger.js';
import { keyOf } from '../../controllers/runtime/reconciler.js';
import type { Clock, DeepReadonly, Request, Result } from '../../controllers/runtime/types.js';

/** RoundRobinBinder runs until stop(). */
export interface RoundRobinBinder {
  stop(): Promise<void>;
}

const schedulable = (node: DeepReadonly<Node>) =>
  node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true &&
  !(node.spec?.taints ?? []).some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');

/** startRoundRobinBinder starts binding and resolves once its caches have synced. */
export async function startRoundRobinBinder(client: KubeClient, clock: Clock): Promise<RoundRobinBinder> {
  const pods = createInformer({ client: client.resource(podDefinition), clock, logger: silentLogger });
  const nodes = createInformer({ client: client.resource(nodeDefinition), clock, logger: silentLogger });
  let next = 0;
  const reconcile = async ({ namespace, name }: Request): Promise<Result> => {
    const pod = pods.lister.get(namespace, name);
    if (pod === undefined || pod.spec.nodeName || pod.metadata.deletionTimestamp) return {};
    const candidates = nodes.lister
      .list()
      .filter(schedulable)
      .map((n) => n.metadata.name ?? '')
      .sort();
    const target = candidates[next++ % Math.max(1, candidates.length)];
    if (target === undefined) return { requeueAfterMs: 1_000 };
    try {
      await bind(client, pod, target);
    } catch (err) {
      // Bound meanwhile, or gone: nothing left to do for this pod.
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
    return {};
  };
  // One worker: the round robin must see the binds in order.
  const controller = createController({ name: 'round-robin-binder', reconciler: { reconcile }, workers: 1, clock, logger: silentLogger });
  const enqueue = (pod: DeepReadonly<Pod>) => void (pod.spec.nodeName ? undefined : controller.queue.add(keyOf(pod)));
  pods.addEventHandlers({ onAdd: enqueue, onUpdate: (_old, pod) => enqueue(pod) });
  const abort = new AbortController();
  const running = Promise.all([pods.start(abort.signal), nodes.start(abort.signal), controller.start(abort.signal)]).catch((err: unknown) => {
    if (!isAbortError(err)) throw err;
  });
  await Promise.all([pods.waitForSync(abort.signal), nodes.waitForSync(abort.signal)]);
  return {
    async stop() {
      abort.abort();
      await running;
    },
  };
}

async function bind(client: KubeClient, pod: DeepReadonly<Pod>, nodeName: string): Promise<void> {
  const { namespace = 'default', name = '' } = pod.metadata;
  const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace }, target: { apiVersion: 'v1', kind: 'Node', name: nodeName } };
  await client.raw({
    method: 'POST',
    path: `/api/v1/namespaces/${namespace}/pods/${name}/binding`,
    body: JSON.stringify(binding),
    contentType: 'application/json',
  });
}
