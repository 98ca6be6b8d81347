/**
 * The manager (controller-runtime's Manager): the one object a component's main.ts builds.
 * It owns the client, the shared informers and the event recorder, and runs the component's
 * controllers once the caches are warm (and, when configured, once it leads).
 *
 *   start(signal):
 *     start every informer ─► wait for all to sync ─► [win the Lease] ─► start runnables
 *     signal aborts / leadership lost / a runnable fails ─► abort all ─► await all ─► resolve
 *
 * A lost leadership ends start() (resolved, not rejected) after everything stopped, so the
 * process can exit and be restarted — as kube-controller-manager does — rather than run on
 * without the lock.
 */
import { setMaxListeners } from 'node:events';
import { activitiesOf, type LoopActivity } from '../../apiserver/api/machinery/activity.js';
import { isAbortError } from '../../apiserver/api/machinery/clock.js';
import { createRandom, type Random } from '../../apiserver/api/machinery/random.js';
import type { ClusterCaFiles } from '../../apiserver/api/pki/cluster-ca.js';
import type { KindRef, KubeObject } from '../../apiserver/api/resource-definition.js';
import type { KubeClient } from './client/http-client.js';
import { createEventRecorder, type HttpEventRecorder } from './event-recorder.js';
import { createInformer } from './informer.js';
import { createLeaderElector } from './leader-election.js';
import type { Clock, EventRecorder, Informer, Logger, Runnable } from './types.js';

/** ManagerOptions configures createManager; leader election is off unless `leaderElection` is set. */
export interface ManagerOptions {
  client: KubeClient;
  clock: Clock;
  logger: Logger;
  /** Names the component in events (source.component) and logs. */
  component: string;
  /** The component's randomness (seeded in deterministic mode); the platform's when absent.
   * Each informer and the event recorder get their own fork of it. */
  random?: Random;
  /** The cluster CA's files (kube-controller-manager's --cluster-signing-cert-file and
   * --cluster-signing-key-file): the CSR signer and the root CA publisher read them. */
  clusterCa?: ClusterCaFiles;
  /** The service-account signing key (kube-controller-manager's
   * --service-account-private-key-file, PEM): the token controller signs with it. */
  serviceAccountKeyFile?: string;
  leaderElection?: {
    /** Lease name, e.g. `kube-controller-manager`. */
    name: string;
    identity: string;
    namespace?: string;
    leaseDurationMs?: number;
    renewDeadlineMs?: number;
    retryPeriodMs?: number;
  };
}

/** InformerRequest selects what a shared informer watches; informers are shared per
 * (kind, namespace, labelSelector, fieldSelector). */
export interface InformerRequest {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Used by whoever asks first for this informer; later callers share its period. */
  resyncMs?: number;
}

/**
 * Manager knows how to run a component: shared informers, one event recorder, and runnables
 * started after the caches synced (see the module comment). informer() may be called before
 * or after start(); add() only before. start() may be called once; it rejects only with the
 * error of a runnable that failed (after stopping everything else).
 */
export interface Manager {
  readonly client: KubeClient;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The component's randomness: fork it per use (`random.fork(controllerName)`), e.g. for
   * createController's reconcile ids, so streams do not depend on each other's draws. */
  readonly random: Random;
  /** The cluster CA's files, when the process was given them. */
  readonly clusterCa: ClusterCaFiles | undefined;
  /** The service-account signing key's file, when the process was given it. */
  readonly serviceAccountKeyFile: string | undefined;
  informer<T extends KubeObject>(def: KindRef<T>, request?: InformerRequest): Informer<T>;
  recorder(): EventRecorder;
  add(runnable: Runnable): void;
  start(signal: AbortSignal): Promise<void>;
  /** What every runnable with a queue (controllers, the scheduler) is doing now. */
  activity(): LoopActivity[];
}

/** createManager returns a Manager (see Manager). */
export function createManager(options: ManagerOptions): Manager {
  return new ComponentManager(options);
}

class ComponentManager implements Manager {
  readonly client: KubeClient;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly random: Random;
  readonly clusterCa: ClusterCaFiles | undefined;
  readonly serviceAccountKeyFile: string | undefined;
  private readonly informers = new Map<string, Informer<KubeObject>>();
  private readonly runnables: Runnable[] = [];
  /** Promises of started informers; informers created after start() join it. */
  private readonly running: Promise<void>[] = [];
  private eventRecorder: HttpEventRecorder | undefined;
  private stopAll: AbortController | undefined;

  constructor(private readonly options: ManagerOptions) {
    this.client = options.client;
    this.clock = options.clock;
    this.logger = options.logger;
    this.random = options.random ?? createRandom();
    this.clusterCa = options.clusterCa;
    this.serviceAccountKeyFile = options.serviceAccountKeyFile;
  }

  informer<T extends KubeObject>(def: KindRef<T>, request: InformerRequest = {}): Informer<T> {
    const key = [def.group, def.version, def.plural, request.namespace ?? '', request.labelSelector ?? '', request.fieldSelector ?? ''].join('|');
    let informer = this.informers.get(key) as Informer<T> | undefined;
    if (!informer) {
      const { namespace, labelSelector, fieldSelector, resyncMs } = request;
      const random = this.random.fork(`informer:${key}`);
      informer = createInformer<T>({
        client: this.client.resource(def),
        namespace,
        labelSelector,
        fieldSelector,
        resyncMs,
        clock: this.clock,
        logger: this.logger,
        random,
      });
      this.informers.set(key, informer);
      if (this.stopAll) this.run(informer, this.stopAll.signal);
    }
    return informer;
  }

  recorder(): EventRecorder {
    this.eventRecorder ??= createEventRecorder({
      client: this.client,
      component: this.options.component,
      clock: this.clock,
      logger: this.logger,
      random: this.random.fork('events'),
    });
    return this.eventRecorder;
  }

  activity(): LoopActivity[] {
    const loops = this.runnables.flatMap(activitiesOf);
    // Until the caches are warm nothing reconciles yet, but the component is far from idle.
    const syncing = [...this.informers.values()].filter((informer) => !informer.hasSynced()).length;
    if (syncing > 0) loops.push({ name: 'cache-sync', queued: syncing, active: 0, delayed: 0 });
    return loops;
  }

  add(runnable: Runnable): void {
    if (this.stopAll) throw new Error('manager.add() after start(): add runnables before starting the manager');
    this.runnables.push(runnable);
  }

  async start(signal: AbortSignal): Promise<void> {
    if (this.stopAll) throw new Error('manager already started');
    const stopAll = (this.stopAll = new AbortController());
    // Every informer, runnable and worker listens on this one signal: many listeners is the
    // design here, not a leak, so Node's default warning (at 11) does not apply.
    setMaxListeners(0, stopAll.signal);
    const onAbort = () => stopAll.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) stopAll.abort(signal.reason);
    let failure: unknown;
    try {
      for (const informer of this.informers.values()) this.run(informer, stopAll.signal);
      if (await this.waitForCaches(stopAll.signal)) failure = await this.runRunnables(stopAll);
    } finally {
      stopAll.abort();
      signal.removeEventListener('abort', onAbort);
      await Promise.all(this.running);
      await this.eventRecorder?.flush();
      this.logger.info({}, 'manager stopped');
    }
    if (failure !== undefined) throw failure;
  }

  private run(informer: Informer<KubeObject>, signal: AbortSignal): void {
    this.running.push(informer.start(signal).catch((err: unknown) => this.logger.error({ err }, 'informer stopped with an error')));
  }

  /** waitForCaches resolves true once every informer synced, false if stopped first. */
  private async waitForCaches(signal: AbortSignal): Promise<boolean> {
    try {
      await Promise.all([...this.informers.values()].map((informer) => informer.waitForSync(signal)));
      this.logger.info({ informers: this.informers.size }, 'caches synced');
      return true;
    } catch (err) {
      if (isAbortError(err)) return false;
      throw err;
    }
  }

  /** runRunnables runs the runnables (under leader election when configured) until they
   * stop; returns the first runnable failure, if any. */
  private async runRunnables(stopAll: AbortController): Promise<unknown> {
    const election = this.options.leaderElection;
    if (!election) {
      const failure = await this.runAll(stopAll, stopAll.signal);
      // Runnables that finish early (one-shot jobs) do not stop the manager; the signal does.
      await aborted(stopAll.signal);
      return failure;
    }
    let failure: unknown;
    const elector = createLeaderElector({ ...election, client: this.client, clock: this.clock, logger: this.logger });
    await elector.run(stopAll.signal, {
      onStartedLeading: async (leaderSignal) => {
        failure = await this.runAll(stopAll, leaderSignal);
      },
    });
    return failure;
  }

  /** runAll starts every runnable with `signal`; the first to fail stops the others (and the
   * manager). Resolves with that failure once all have stopped. */
  private async runAll(stopAll: AbortController, signal: AbortSignal): Promise<unknown> {
    let failure: unknown;
    this.logger.info({ runnables: this.runnables.length }, 'starting runnables');
    await Promise.all(
      this.runnables.map((runnable) =>
        runnable.start(signal).catch((err: unknown) => {
          if (signal.aborted && isAbortError(err)) return;
          this.logger.error({ err }, 'runnable failed; stopping the manager');
          failure ??= err;
          stopAll.abort(err);
        }),
      ),
    );
    return failure;
  }
}

/** aborted resolves once `signal` has aborted. */
function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
