/**
 * One pass of the scheduling loop (kube's scheduleOne): take the pod popped from the queue,
 * decide (schedule-pod.ts), then act.
 *
 *   pod still ours and unbound? ──no──► done
 *        │ yes
 *   snapshot (informer caches + assumed pods) ─► schedulePod
 *        ├─ no node fits ─► FailedScheduling event, requeue as unschedulable,
 *        │                  PodScheduled=False + decision annotation (in the background)
 *        └─ node N ─► assume the pod on N ─► bind (in the background; the loop goes on)
 *                        ├─ ok ─► Scheduled event, done
 *                        └─ failed ─► forget the assumption; already bound or deleted: done;
 *                                     otherwise FailedScheduling event and retry after backoff
 *
 * The decision is synchronous, so two attempts never interleave and each sees the previous
 * one's assumption. Only API writes are asynchronous; they are handed to `track`.
 */
import { isConflict, isNotFound } from '../apiserver/api/api-error.js';
import type { Node } from '../apiserver/api/core/node.js';
import type { Pod } from '../apiserver/api/core/pod.js';
import { type Cause, runWithCause } from '../apiserver/api/machinery/cause.js';
import type { Random } from '../apiserver/api/machinery/random.js';
import { NODE_NAME_INDEX } from '../controllers/runtime/indexers.js';
import { parseKey } from '../controllers/runtime/reconciler.js';
import type { EventRecorder, Lister, Logger } from '../controllers/runtime/types.js';
import type { AssumedCache } from './assumed-cache.js';
import { shouldSchedule } from './event-handlers.js';
import { explainDecision } from './explain.js';
import type { Profile, ReadonlyPod } from './framework.js';
import type { PodWriter } from './pod-writer.js';
import { type ScheduleResult, schedulePod } from './schedule-pod.js';
import type { QueuedPodInfo, SchedulingQueue } from './scheduling-queue.js';
import { buildSnapshot, type NodeInfoCache, type Snapshot } from './snapshot.js';

/** SchedulerCounters count scheduling outcomes since start (attempts/s = Δattempts / Δt). */
export interface SchedulerCounters {
  /** Scheduling decisions made (filter + score runs). */
  attempts: number;
  /** Pods bound. */
  scheduled: number;
  /** Attempts that found no node. */
  unschedulable: number;
  /** Bindings the API server refused or that failed. */
  bindFailures: number;
  /** Attempts that threw (a bug or a plugin error); retried with backoff. */
  errors: number;
}

/** ScheduleOneContext is everything one pass needs; the scheduler builds it once. */
export interface ScheduleOneContext {
  profile: Profile;
  schedulerName: string;
  seed: number;
  /** Source of the reconcile ids in the causes of the scheduler's writes. */
  random: Random;
  podLister: Lister<Pod>;
  nodeLister: Lister<Node>;
  queue: SchedulingQueue;
  assumed: AssumedCache;
  /** Reuses unchanged nodes' NodeInfos between attempts. */
  nodeInfos: NodeInfoCache;
  writer: PodWriter;
  recorder: EventRecorder;
  logger: Logger;
  counters: SchedulerCounters;
  /** Runs background work (bindings, status writes); the scheduler awaits it on stop. */
  track(work: Promise<void>): void;
}

/** SCHEDULER_CAUSE_NAME names the scheduler in the causes of its writes (docs/history.md). */
export const SCHEDULER_CAUSE_NAME = 'scheduler';

/** scheduleOne handles one popped pod (see the module comment). Never rejects: failures are
 * requeued and counted. Its writes (binding, status, events) carry the pod's cause: the
 * event that queued it, or a resync when unknown. */
export function scheduleOne(ctx: ScheduleOneContext, info: QueuedPodInfo): void {
  const cause: Cause = { controller: SCHEDULER_CAUSE_NAME, key: info.key, reconcileId: ctx.random.hex(4), trigger: info.trigger ?? { kind: 'resync' } };
  runWithCause(cause, () => attemptOne(ctx, info));
}

function attemptOne(ctx: ScheduleOneContext, info: QueuedPodInfo): void {
  const { namespace, name } = parseKey(info.key);
  const pod = ctx.podLister.get(namespace, name);
  if (!pod || !shouldSchedule(pod, ctx.schedulerName) || ctx.assumed.isAssumed(info.key, pod.metadata.uid)) return ctx.queue.done(info);
  ctx.counters.attempts += 1;
  let result: ScheduleResult;
  try {
    result = schedulePod(ctx.profile, pod, takeSnapshot(ctx), { seed: ctx.seed });
  } catch (err) {
    ctx.counters.errors += 1;
    ctx.logger.error({ err, pod: info.key }, 'scheduling attempt failed');
    return ctx.queue.requeueBackoff(info);
  }
  if (result.kind === 'Unschedulable') return unschedulable(ctx, info, pod, result);
  ctx.assumed.assume(pod, result.nodeName);
  ctx.track(bindPod(ctx, info, pod, result));
}

/** takeSnapshot prunes settled assumptions and builds this attempt's snapshot. */
export function takeSnapshot(ctx: Pick<ScheduleOneContext, 'podLister' | 'nodeLister' | 'assumed' | 'nodeInfos'>): Snapshot {
  const { podLister, nodeLister, assumed, nodeInfos } = ctx;
  assumed.prune((key) => {
    const { namespace, name } = parseKey(key);
    return podLister.get(namespace, name);
  });
  return buildSnapshot(
    {
      nodes: nodeLister.list(),
      boundPods: (nodeName) => podLister.byIndex(NODE_NAME_INDEX, nodeName),
      assumedPods: assumed.podsByNode(),
    },
    nodeInfos,
  );
}

function unschedulable(ctx: ScheduleOneContext, info: QueuedPodInfo, pod: ReadonlyPod, result: ScheduleResult & { kind: 'Unschedulable' }): void {
  ctx.counters.unschedulable += 1;
  ctx.logger.debug({ pod: info.key, attempts: info.attempts, message: result.message }, 'unschedulable');
  ctx.recorder.event(pod, 'Warning', 'FailedScheduling', result.message);
  ctx.queue.requeueUnschedulable(info);
  ctx.track(ctx.writer.markUnschedulable(pod, result.message, explainDecision(result)));
}

async function bindPod(ctx: ScheduleOneContext, info: QueuedPodInfo, pod: ReadonlyPod, result: ScheduleResult & { kind: 'Scheduled' }): Promise<void> {
  const { nodeName } = result;
  try {
    await ctx.writer.bind(pod, nodeName, explainDecision(result));
  } catch (err) {
    return bindFailed(ctx, info, pod, err);
  }
  ctx.assumed.finishBinding(info.key);
  ctx.queue.done(info);
  ctx.counters.scheduled += 1;
  ctx.logger.debug({ pod: info.key, node: nodeName, attempts: info.attempts }, 'bound');
  ctx.recorder.event(pod, 'Normal', 'Scheduled', `Successfully assigned ${info.key} to ${nodeName}`);
}

function bindFailed(ctx: ScheduleOneContext, info: QueuedPodInfo, pod: ReadonlyPod, err: unknown): void {
  ctx.assumed.forget(info.key);
  ctx.counters.bindFailures += 1;
  // Already bound (by someone else) or deleted: the informer will show it; nothing to retry.
  if (isConflict(err) || isNotFound(err)) {
    ctx.logger.info({ pod: info.key, err }, 'binding refused; the pod is bound or gone');
    return ctx.queue.done(info);
  }
  ctx.logger.warn({ pod: info.key, err }, 'binding failed; retrying after backoff');
  ctx.recorder.event(pod, 'Warning', 'FailedScheduling', `Binding rejected: ${err instanceof Error ? err.message : String(err)}`);
  ctx.queue.requeueBackoff(info);
}
