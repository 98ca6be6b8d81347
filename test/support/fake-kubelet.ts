/**
 * A stand-in kubelet for integration tests (the real kubelet-sim comes later): it watches all
 * pods and, through the pods/status subresource, reports each one as a kubelet would once its
 * containers started — phase Running, PodScheduled/Initialized/ContainersReady/Ready, every
 * container running, a pod IP. Pods `isReady` refuses stay Running but not Ready (a readiness
 * probe that never passes). Pods marked for deletion are confirmed deleted (grace period 0),
 * as a kubelet does once their containers stopped.
 *
 * It is itself a tiny level-based controller (informer → queue → reconcile), so a missed or
 * conflicting write is simply retried.
 */
import { isConflict, isNotFound } from '../../apiserver/api/api-error.js';
import { type Pod, podDefinition } from '../../apiserver/api/core/pod.js';
import { createRealClock, isAbortError } from '../../apiserver/api/machinery/clock.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import type { KubeClient } from '../../controllers/runtime/client/http-client.js';
import { createController } from '../../controllers/runtime/controller.js';
import { createInformer } from '../../controllers/runtime/informer.js';
import { silentLogger } from '../../controllers/runtime/logger.js';
import { keyOf } from '../../controllers/runtime/reconciler.js';
import type { Clock, DeepReadonly, Logger, Request, Result } from '../../controllers/runtime/types.js';

/** FakeKubeletOptions configures startFakeKubelet. */
export interface FakeKubeletOptions {
  client: KubeClient;
  clock?: Clock;
  logger?: Logger;
  /** Whether a pod's containers pass readiness; default every pod does. */
  isReady?: (pod: DeepReadonly<Pod>) => boolean;
}

/** FakeKubelet runs until stop(). */
export interface FakeKubelet {
  stop(): Promise<void>;
}

/** startFakeKubelet starts watching pods and resolves once its cache has synced. */
export async function startFakeKubelet(options: FakeKubeletOptions): Promise<FakeKubelet> {
  const clock = options.clock ?? createRealClock();
  const logger = options.logger ?? silentLogger;
  const pods = options.client.resource(podDefinition);
  const informer = createInformer({ client: pods, clock, logger });
  let nextIp = 1;
  const reconcile = async ({ namespace, name }: Request): Promise<Result> => {
    const pod = informer.lister.get(namespace, name);
    if (pod === undefined) return {};
    if (pod.metadata.deletionTimestamp) return confirmDeletion(pod);
    const ready = options.isReady?.(pod) ?? true;
    if (reported(pod, ready)) return {};
    const status = runningStatus(pod, { ready, nowMs: clock.now(), ip: pod.status?.podIP ?? `10.244.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}` });
    try {
      await pods.updateStatus({ ...(structuredClone(pod) as Pod), status });
    } catch (err) {
      // A newer version of the pod is on its way through the watch; it will be looked at again.
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
    return {};
  };
  const confirmDeletion = async (pod: DeepReadonly<Pod>): Promise<Result> => {
    try {
      await pods.delete(pod.metadata.namespace ?? '', pod.metadata.name ?? '', { gracePeriodSeconds: 0 });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    return {};
  };
  const controller = createController({ name: 'fake-kubelet', reconciler: { reconcile }, workers: 4, clock, logger });
  const enqueue = (pod: DeepReadonly<Pod>) => controller.queue.add(keyOf(pod));
  informer.addEventHandlers({ onAdd: enqueue, onUpdate: (_old, pod) => enqueue(pod) });
  const abort = new AbortController();
  const running = Promise.all([informer.start(abort.signal), controller.start(abort.signal)]).catch((err: unknown) => {
    if (!isAbortError(err)) throw err;
  });
  await informer.waitForSync(abort.signal);
  return {
    async stop() {
      abort.abort();
      await running;
    },
  };
}

/** reported: the pod already shows what this kubelet would write. */
function reported(pod: DeepReadonly<Pod>, ready: boolean): boolean {
  const readyCondition = pod.status?.conditions?.find((condition) => condition.type === 'Ready');
  return pod.status?.phase === 'Running' && readyCondition?.status === (ready ? 'True' : 'False');
}

function runningStatus(pod: DeepReadonly<Pod>, { ready, nowMs, ip }: { ready: boolean; nowMs: number; ip: string }): Pod['status'] {
  const at = rfc3339(nowMs);
  const readiness = ready ? 'True' : 'False';
  const condition = (type: string, status: 'True' | 'False') => ({ type, status, lastTransitionTime: at });
  return {
    phase: 'Running',
    startTime: pod.status?.startTime ?? at,
    podIP: ip,
    podIPs: [{ ip }],
    conditions: [condition('PodScheduled', 'True'), condition('Initialized', 'True'), condition('ContainersReady', readiness), condition('Ready', readiness)],
    containerStatuses: pod.spec.containers.map((container) => ({
      name: container.name,
      image: container.image,
      ready,
      started: true,
      restartCount: 0,
      state: { running: { startedAt: at } },
    })),
  };
}
