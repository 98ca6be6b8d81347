/**
 * The scheduler's wiring: informers for all pods (indexed by node) and all nodes, handlers
 * that feed the scheduling queue, and the loop that pops pods and runs scheduleOne. Nothing
 * here makes decisions.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Pod } from '../apiserver/api/core/pod.js';
import type { ActivitySource, LoopActivity } from '../apiserver/api/machinery/activity.js';
import { indexByNodeName, NODE_NAME_INDEX } from '../controllers/runtime/indexers.js';
import { KINDS } from '../controllers/runtime/kinds.js';
import type { Manager } from '../controllers/runtime/manager.js';
import type { EventHandlers, Runnable } from '../controllers/runtime/types.js';
import { AssumedCache } from './assumed-cache.js';
import { DEFAULT_SCHEDULER_NAME, nodeEventHandlers, podEventHandlers } from './event-handlers.js';
import type { Profile } from './framework.js';
import { createPodWriter } from './pod-writer.js';
import { createDefaultProfile } from './profile.js';
import { type ScheduleOneContext, type SchedulerCounters, scheduleOne } from './schedule-one.js';
import { type QueueStats, SchedulingQueue } from './scheduling-queue.js';
import { NodeInfoCache } from './snapshot.js';

/** MAX_PENDING_WRITES bounds bindings and status writes in flight, like kube-scheduler's
 * client QPS limit: the loop waits for one to finish before deciding more. */
export const MAX_PENDING_WRITES = 32;

/** SchedulerOptions configures registerScheduler. */
export interface SchedulerOptions {
  /** Pods whose spec.schedulerName is this are ours. Default `default-scheduler`. */
  schedulerName?: string;
  /** Seeds the tie-break between equally scored nodes. Default 0. */
  seed?: number;
  /** Default: createDefaultProfile(). */
  profile?: Profile;
}

/** Scheduler is a Runnable with live counters (attempts/s for benchmarks) and queue stats. */
export interface Scheduler extends Runnable, ActivitySource {
  readonly counters: Readonly<SchedulerCounters>;
  queueStats(): QueueStats;
}

/**
 * registerScheduler adds the scheduler to `manager`: shared pod and node informers, their
 * handlers, and the scheduling loop, which starts once the caches synced. Call before
 * manager.start(). The manager should be created with component `default-scheduler`, the
 * name kubectl shows as the events' source.
 */
export function registerScheduler(manager: Manager, options: SchedulerOptions = {}): Scheduler {
  const schedulerName = options.schedulerName ?? DEFAULT_SCHEDULER_NAME;
  const podInformer = manager.informer(KINDS.pod);
  const nodeInformer = manager.informer(KINDS.node);
  podInformer.addIndexer(NODE_NAME_INDEX, indexByNodeName);
  const pending = new Set<Promise<void>>();
  const listers = { podLister: podInformer.lister, nodeLister: nodeInformer.lister };
  const ctx = createContext({ manager, options, schedulerName, pending, listers });
  podInformer.addEventHandlers(nodeInfoInvalidation(ctx.nodeInfos));
  podInformer.addEventHandlers(podEventHandlers({ queue: ctx.queue, podLister: podInformer.lister, schedulerName }));
  nodeInformer.addEventHandlers(nodeEventHandlers(ctx.queue));
  const scheduler: Scheduler = {
    counters: ctx.counters,
    queueStats: () => ctx.queue.stats(),
    activity: () => schedulerActivity(ctx.queue.stats(), pending.size),
    start: (signal) => runLoop({ ctx, pending, signal }),
  };
  manager.add(scheduler);
  return scheduler;
}

/** nodeInfoInvalidation tells the NodeInfo cache which nodes' pods changed (snapshot.ts). */
function nodeInfoInvalidation(nodeInfos: NodeInfoCache): EventHandlers<Pod> {
  return {
    onAdd: (pod) => nodeInfos.podChanged(pod),
    onUpdate: (old, cur) => {
      nodeInfos.podChanged(old);
      nodeInfos.podChanged(cur);
    },
    onDelete: (pod) => nodeInfos.podChanged(pod),
  };
}

/** schedulerActivity reports the queue as a loop: pods waiting to be tried, attempts and binding
 * writes in flight, and pods backing off or parked as unschedulable (delayed). */
function schedulerActivity(stats: QueueStats, pendingWrites: number): LoopActivity {
  return { name: 'scheduler', queued: stats.active, active: stats.inFlight + pendingWrites, delayed: stats.backoff + stats.unschedulable };
}

interface ContextParts {
  manager: Manager;
  options: SchedulerOptions;
  schedulerName: string;
  pending: Set<Promise<void>>;
  listers: Pick<ScheduleOneContext, 'podLister' | 'nodeLister'>;
}

/** createContext builds what scheduleOne needs; `track` adds to `pending`. */
function createContext({ manager, options, schedulerName, pending, listers }: ContextParts): ScheduleOneContext {
  const logger = manager.logger.child({ scheduler: schedulerName });
  return {
    profile: options.profile ?? createDefaultProfile(),
    schedulerName,
    seed: options.seed ?? 0,
    random: manager.random.fork('schedule-one'),
    ...listers,
    queue: new SchedulingQueue({ clock: manager.clock }),
    assumed: new AssumedCache({ clock: manager.clock }),
    nodeInfos: new NodeInfoCache(),
    writer: createPodWriter({ client: manager.client, clock: manager.clock, logger }),
    recorder: manager.recorder(),
    logger,
    counters: { attempts: 0, scheduled: 0, unschedulable: 0, bindFailures: 0, errors: 0 },
    track(work) {
      const tracked = work.catch((err: unknown) => logger.error({ err }, 'background write failed'));
      pending.add(tracked);
      void tracked.finally(() => pending.delete(tracked));
    },
  };
}

interface LoopParts {
  ctx: ScheduleOneContext;
  pending: Set<Promise<void>>;
  signal: AbortSignal;
}

/** runLoop pops and schedules until `signal` aborts, then waits for writes under way. */
async function runLoop({ ctx, pending, signal }: LoopParts): Promise<void> {
  const { queue, logger } = ctx;
  const stop = () => queue.close();
  signal.addEventListener('abort', stop, { once: true });
  if (signal.aborted) stop();
  queue.start();
  logger.info({}, 'scheduling');
  try {
    for (let info = await queue.pop(); info; info = await queue.pop()) {
      scheduleOne(ctx, info);
      while (pending.size >= MAX_PENDING_WRITES) await Promise.race(pending);
      // Each decision is synchronous: yield so watch events and binding I/O keep flowing.
      await yieldToEventLoop();
    }
  } finally {
    signal.removeEventListener('abort', stop);
    await Promise.all([...pending]);
    logger.info({ ...ctx.counters }, 'scheduler stopped');
  }
}
