/**
 * The garbage collector's wiring: discovery decides which kinds are watched (monitors.ts),
 * their handlers feed one work queue of uids (event-handlers.ts), and workers run the
 * reconciler (reconcile.ts). Discovery is repeated periodically so kinds that appear later
 * (CustomResourceDefinitions) are collected too. Nothing here makes decisions.
 *
 * Wired by hand, not with the controller builder (runtime/builder.ts): the kinds it watches
 * are known only after discovery, at run time, and change while it runs (built-in kinds use
 * the manager's shared informers, custom resources informers of the collector's own); and its
 * controller runs inside a runnable that first waits for those caches.
 */
import { isAbortError } from '../../apiserver/api/machinery/clock.js';
import type { DiscoveredResource } from '../runtime/client/discovery.js';
import { type Controller, createController } from '../runtime/controller.js';
import type { Manager } from '../runtime/manager.js';
import type { Logger, Runnable } from '../runtime/types.js';
import { createWorkQueue } from '../runtime/workqueue/queue.js';
import { garbageCollectorHandlers } from './event-handlers.js';
import { gcKey } from './keys.js';
import { type GroupResource, MonitorSet } from './monitors.js';
import { createGarbageCollectorReconciler } from './reconcile.js';

/** GARBAGE_COLLECTOR_NAME names the controller in logs and counters. */
export const GARBAGE_COLLECTOR_NAME = 'garbage-collector';

/** GarbageCollectorOptions configures registerGarbageCollector; every field has a default. */
export interface GarbageCollectorOptions {
  /** Concurrent reconciles (of different objects). Default 20, as kube-controller-manager's --concurrent-gc-syncs. */
  workers?: number;
  /** Cluster time between discoveries that add or drop watched kinds. Default 30 s. */
  rediscoveryIntervalMs?: number;
  /** Cluster time before a waiting foreground owner or an unresolvable owner is looked at again. Default 10 s. */
  recheckMs?: number;
  /** Informer resync period: every owned object is looked at again this often. Default 10 min; 0 disables. */
  resyncMs?: number;
  /** Kinds never watched or collected. Default: core and events.k8s.io Events. */
  ignoredResources?: readonly GroupResource[];
}

/** GarbageCollector is what registerGarbageCollector returns: its controller (stats, queue)
 * and the monitors (which kinds are watched). */
export interface GarbageCollector {
  readonly controller: Controller;
  readonly monitors: MonitorSet;
}

/**
 * registerGarbageCollector adds the garbage collector to `manager` (call before
 * manager.start()). Once the manager runs it, it discovers the served kinds, watches every
 * kind it can list, watch and delete, waits for those caches, and then:
 * - deletes objects all of whose owners are gone (Background; Foreground when an owner waits);
 * - drops references to absent owners from objects that still have a live one;
 * - finishes `orphan` and `foregroundDeletion` deletions of owners.
 * Discovery failures are logged and retried; they never stop the manager.
 */
export function registerGarbageCollector(manager: Manager, options: GarbageCollectorOptions = {}): GarbageCollector {
  const logger = manager.logger.child({ controller: GARBAGE_COLLECTOR_NAME });
  const monitors = new MonitorSet({
    client: manager.client,
    clock: manager.clock,
    logger,
    resyncMs: options.resyncMs ?? 10 * 60_000,
    ...(options.ignoredResources ? { ignoredResources: options.ignoredResources } : {}),
    // Built-in kinds come from the process's shared informers (one pod cache per process).
    sharedInformer: (resource) => manager.informer(resource, { resyncMs: options.resyncMs ?? 10 * 60_000 }),
  });
  // The queue exists before the controller because the reconciler feeds it too.
  const queue = createWorkQueue({ clock: manager.clock, name: GARBAGE_COLLECTOR_NAME });
  const reconciler = createGarbageCollectorReconciler({
    monitors,
    client: manager.client,
    enqueue: (uid) => queue.add(gcKey(uid)),
    logger,
    recheckMs: options.recheckMs ?? 10_000,
  });
  const controller = createController({
    name: GARBAGE_COLLECTOR_NAME,
    reconciler,
    queue,
    workers: options.workers ?? 20,
    clock: manager.clock,
    logger: manager.logger,
    random: manager.random.fork(GARBAGE_COLLECTOR_NAME),
  });
  monitors.addEventHandlers(garbageCollectorHandlers({ queue: controller.queue, monitors }));
  manager.add(new GarbageCollectorRunnable({ manager, monitors, controller, logger, rediscoveryIntervalMs: options.rediscoveryIntervalMs ?? 30_000 }));
  return { controller, monitors };
}

interface RunnableParts {
  manager: Manager;
  monitors: MonitorSet;
  controller: Controller;
  logger: Logger;
  rediscoveryIntervalMs: number;
}

/**
 * GarbageCollectorRunnable runs discovery, the monitors and the workers in order:
 *   discover (retrying) ─► start monitors ─► wait for their caches ─► workers + periodic re-discovery
 * and stops them all when the signal aborts.
 */
class GarbageCollectorRunnable implements Runnable {
  constructor(private readonly parts: RunnableParts) {}

  async start(signal: AbortSignal): Promise<void> {
    const { monitors, controller } = this.parts;
    try {
      const resources = await this.discoverUntilServed(signal);
      if (!resources) return;
      monitors.sync(resources, signal);
      await monitors.waitForSync(signal);
      await Promise.all([controller.start(signal), this.rediscoverPeriodically(signal)]);
    } catch (err) {
      if (!(signal.aborted && isAbortError(err))) throw err;
    } finally {
      await monitors.stopped();
    }
  }

  /** discoverUntilServed retries discovery (backing off up to the re-discovery interval)
   * until it answers; undefined when the signal aborts first. */
  private async discoverUntilServed(signal: AbortSignal): Promise<DiscoveredResource[] | undefined> {
    const { manager, logger, rediscoveryIntervalMs } = this.parts;
    for (let delayMs = 500; !signal.aborted; delayMs = Math.min(delayMs * 2, rediscoveryIntervalMs)) {
      try {
        return await manager.client.discover();
      } catch (err) {
        if (signal.aborted) return undefined;
        logger.warn({ err, retryInMs: delayMs }, 'discovery failed; retrying');
      }
      if (!(await sleep(manager, delayMs, signal))) return undefined;
    }
    return undefined;
  }

  /** rediscoverPeriodically keeps the monitors in step with the served kinds until abort. */
  private async rediscoverPeriodically(signal: AbortSignal): Promise<void> {
    const { manager, monitors, logger, rediscoveryIntervalMs } = this.parts;
    while (await sleep(manager, rediscoveryIntervalMs, signal)) {
      try {
        const { added, removed } = monitors.sync(await manager.client.discover(), signal);
        if (added.length > 0 || removed.length > 0) logger.info({ added, removed }, 'watched kinds changed');
      } catch (err) {
        // The kinds watched so far stay watched; the next round tries again.
        if (!signal.aborted) logger.warn({ err }, 're-discovery failed');
      }
    }
  }
}

/** sleep waits `delayMs` of cluster time; false when the signal aborted instead. */
async function sleep(manager: Manager, delayMs: number, signal: AbortSignal): Promise<boolean> {
  try {
    await manager.clock.sleep(delayMs, signal);
    return true;
  } catch (err) {
    if (isAbortError(err)) return false;
    throw err;
  }
}
