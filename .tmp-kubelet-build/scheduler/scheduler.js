/**
 * The scheduler's wiring: informers for all pods (indexed by node) and all nodes, handlers
 * that feed the scheduling queue, and the loop that pops pods and runs scheduleOne. Nothing
 * here makes decisions.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { nodeDefinition } from '../apiserver/api/core/node.js';
import { podDefinition } from '../apiserver/api/core/pod.js';
import { indexByNodeName, NODE_NAME_INDEX } from '../controllers/runtime/indexers.js';
import { AssumedCache } from './assumed-cache.js';
import { DEFAULT_SCHEDULER_NAME, nodeEventHandlers, podEventHandlers } from './event-handlers.js';
import { createPodWriter } from './pod-writer.js';
import { createDefaultProfile } from './profile.js';
import { scheduleOne } from './schedule-one.js';
import { SchedulingQueue } from './scheduling-queue.js';
import { NodeInfoCache } from './snapshot.js';
/** MAX_PENDING_WRITES bounds bindings and status writes in flight, like kube-scheduler's
 * client QPS limit: the loop waits for one to finish before deciding more. */
export const MAX_PENDING_WRITES = 32;
/**
 * registerScheduler adds the scheduler to `manager`: shared pod and node informers, their
 * handlers, and the scheduling loop, which starts once the caches synced. Call before
 * manager.start(). The manager should be created with component `default-scheduler`, the
 * name kubectl shows as the events' source.
 */
export function registerScheduler(manager, options = {}) {
    const schedulerName = options.schedulerName ?? DEFAULT_SCHEDULER_NAME;
    const podInformer = manager.informer(podDefinition);
    const nodeInformer = manager.informer(nodeDefinition);
    podInformer.addIndexer(NODE_NAME_INDEX, indexByNodeName);
    const pending = new Set();
    const listers = { podLister: podInformer.lister, nodeLister: nodeInformer.lister };
    const ctx = createContext({ manager, options, schedulerName, pending, listers });
    podInformer.addEventHandlers(podEventHandlers({ queue: ctx.queue, podLister: podInformer.lister, schedulerName }));
    nodeInformer.addEventHandlers(nodeEventHandlers(ctx.queue));
    const scheduler = {
        counters: ctx.counters,
        queueStats: () => ctx.queue.stats(),
        start: (signal) => runLoop({ ctx, pending, signal }),
    };
    manager.add(scheduler);
    return scheduler;
}
/** createContext builds what scheduleOne needs; `track` adds to `pending`. */
function createContext({ manager, options, schedulerName, pending, listers }) {
    const logger = manager.logger.child({ scheduler: schedulerName });
    return {
        profile: options.profile ?? createDefaultProfile(),
        schedulerName,
        seed: options.seed ?? 0,
        ...listers,
        queue: new SchedulingQueue({ clock: manager.clock }),
        assumed: new AssumedCache({ clock: manager.clock }),
        nodeInfos: new NodeInfoCache(),
        writer: createPodWriter({ client: manager.client, clock: manager.clock, logger }),
        recorder: manager.recorder(),
        logger,
        counters: { attempts: 0, scheduled: 0, unschedulable: 0, bindFailures: 0, errors: 0 },
        track(work) {
            const tracked = work.catch((err) => logger.error({ err }, 'background write failed'));
            pending.add(tracked);
            void tracked.finally(() => pending.delete(tracked));
        },
    };
}
/** runLoop pops and schedules until `signal` aborts, then waits for writes under way. */
async function runLoop({ ctx, pending, signal }) {
    const { queue, logger } = ctx;
    const stop = () => queue.close();
    signal.addEventListener('abort', stop, { once: true });
    if (signal.aborted)
        stop();
    queue.start();
    logger.info({}, 'scheduling');
    try {
        for (let info = await queue.pop(); info; info = await queue.pop()) {
            scheduleOne(ctx, info);
            while (pending.size >= MAX_PENDING_WRITES)
                await Promise.race(pending);
            // Each decision is synchronous: yield so watch events and binding I/O keep flowing.
            await yieldToEventLoop();
        }
    }
    finally {
        signal.removeEventListener('abort', stop);
        await Promise.all([...pending]);
        logger.info({ ...ctx.counters }, 'scheduler stopped');
    }
}
//# sourceMappingURL=scheduler.js.map