/**
 * LoopHost runs several control loops in one process over one manager — one client, one
 * set of shared informers, one event recorder, as kube-controller-manager does — while each
 * loop stays its own Reconciler with its own queue and activity report, and can be stopped,
 * started or killed on its own:
 *
 *   stopped ──start()──► running ──kill()──► backoff ──timer──► running
 *      ▲                    │                   │
 *      └──────stop()────────┴──────stop()───────┘
 *
 * A loop registers into a LoopScope: the manager as that loop sees it, which remembers the
 * event handlers and runnables the loop added. Stopping the loop aborts its runnables (their
 * queues shut down; in-flight reconciles finish) and removes its handlers from the shared
 * informers. Starting it registers it afresh: a new queue, and handlers that catch up on every
 * cached object, as a new process would after its first list. A kill is a crash: the loop
 * loses its queue at once and comes back after a backoff (1 s doubling to 30 s), counted as a
 * restart — what the learner sees when a dedicated loop process is killed with -9.
 */
import { setMaxListeners } from 'node:events';
import { activitiesOf, type LoopActivity, type LoopsActivitySource } from '../../apiserver/api/machinery/activity.js';
import { isAbortError } from '../../apiserver/api/machinery/clock.js';
import type { KindRef, KubeObject } from '../../apiserver/api/resource-definition.js';
import type { KubeClient } from './client/http-client.js';
import type { InformerRequest, Manager } from './manager.js';
import type { EventHandlers, IndexFunc, Informer, Runnable } from './types.js';

export type LoopState = 'running' | 'backoff' | 'stopped';

/** LoopStatus is what `kubesim status` shows of a loop hosted in a shared process. */
export interface LoopStatus {
  name: string;
  state: LoopState;
  restarts: number;
  lastExit?: { signal: 'SIGKILL'; at: string };
}

export type LoopAction = 'stop' | 'start' | 'kill';

/** Registers one loop into a manager (controllers/catalog.ts's register). */
export type RegisterLoop = (manager: Manager) => Promise<void>;

const INITIAL_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/** A loop that stayed up this long starts its next backoff from the beginning again. */
const STABLE_AFTER_MS = 10_000;

interface HostedLoop {
  name: string;
  register: RegisterLoop;
  state: LoopState;
  restarts: number;
  backoffMs: number;
  startedAt: number;
  scope?: LoopScope;
  timer?: NodeJS.Timeout;
  lastExit?: LoopStatus['lastExit'];
}

export class LoopHost implements Runnable, LoopsActivitySource {
  private readonly loops = new Map<string, HostedLoop>();
  private signal: AbortSignal | undefined;
  private readonly running = new Set<Promise<unknown>>();

  /** `clientFor` gives a loop a client of its own (per-loop credentials); the manager's when absent. */
  constructor(
    private readonly manager: Manager,
    private readonly clientFor?: (loop: string) => KubeClient | undefined,
  ) {}

  /** add registers a loop; call before the manager starts (it starts with the host). */
  async add(name: string, register: RegisterLoop): Promise<void> {
    const loop: HostedLoop = { name, register, state: 'running', restarts: 0, backoffMs: INITIAL_BACKOFF_MS, startedAt: Date.now() };
    this.loops.set(name, loop);
    loop.scope = new LoopScope(this.manager, name, this.clientFor?.(name));
    await register(loop.scope);
  }

  names(): string[] {
    return [...this.loops.keys()];
  }

  status(): LoopStatus[] {
    return [...this.loops.values()].map(({ name, state, restarts, lastExit }) => ({ name, state, restarts, ...(lastExit && { lastExit }) }));
  }

  loopsActivity(): LoopActivity[] {
    return [...this.loops.values()].flatMap((loop) => (loop.state === 'running' && loop.scope ? loop.scope.activity() : []));
  }

  /** start runs every registered loop until `signal` aborts (the manager calls it once its caches synced). */
  async start(signal: AbortSignal): Promise<void> {
    this.signal = signal;
    for (const loop of this.loops.values()) if (loop.scope) this.run(loop, loop.scope);
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    for (const loop of this.loops.values()) clearTimeout(loop.timer);
    await Promise.all(this.running);
  }

  /** act stops, starts or kills one loop; resolves with its status once done (a kill's
   * also says when the loop comes back). */
  async act(name: string, action: LoopAction): Promise<LoopStatus & { restartInMs?: number }> {
    const loop = this.loops.get(name);
    if (!loop) throw new Error(`no loop ${JSON.stringify(name)} in this process; loops: ${this.names().join(', ')}`);
    if (action === 'kill') {
      const restartInMs = await this.killLoop(loop);
      return { ...this.statusOf(loop), restartInMs };
    }
    if (action === 'start') await this.startLoop(loop);
    else await this.stopLoop(loop, 'stopped');
    return this.statusOf(loop);
  }

  private statusOf(loop: HostedLoop): LoopStatus {
    return this.status().find((s) => s.name === loop.name)!;
  }

  private async startLoop(loop: HostedLoop): Promise<void> {
    if (loop.state === 'running') return;
    clearTimeout(loop.timer);
    loop.backoffMs = INITIAL_BACKOFF_MS;
    await this.launch(loop);
  }

  private async stopLoop(loop: HostedLoop, next: LoopState): Promise<void> {
    clearTimeout(loop.timer);
    loop.state = next;
    const scope = loop.scope;
    loop.scope = undefined;
    await scope?.stop();
  }

  /** killLoop drops the loop's queue and work at once, as a crash would, and brings it back
   * after its backoff; resolves with that backoff (ms). */
  private async killLoop(loop: HostedLoop): Promise<number> {
    if (loop.state !== 'running') throw new Error(`${loop.name} is not running (${loop.state}): nothing to kill`);
    const upMs = Date.now() - loop.startedAt;
    const delayMs = upMs >= STABLE_AFTER_MS ? INITIAL_BACKOFF_MS : loop.backoffMs;
    loop.backoffMs = Math.min(delayMs * 2, MAX_BACKOFF_MS);
    loop.restarts++;
    loop.lastExit = { signal: 'SIGKILL', at: new Date().toISOString() };
    await this.stopLoop(loop, 'backoff');
    loop.timer = setTimeout(() => void this.launch(loop), delayMs);
    return delayMs;
  }

  /** launch registers the loop again into a fresh scope and runs it once its informers synced. */
  private async launch(loop: HostedLoop): Promise<void> {
    const signal = this.signal;
    if (!signal || signal.aborted) return;
    const scope = new LoopScope(this.manager, loop.name, this.clientFor?.(loop.name));
    loop.scope = scope;
    loop.state = 'running';
    loop.startedAt = Date.now();
    await loop.register(scope);
    await scope.waitForSync(signal).catch(() => undefined);
    if (loop.scope === scope && !signal.aborted) this.run(loop, scope);
  }

  private run(loop: HostedLoop, scope: LoopScope): void {
    const signal = this.signal!;
    const done = scope.run(signal).catch((err: unknown) => {
      if (isAbortError(err)) return;
      this.manager.logger.error({ err, loop: loop.name }, 'loop failed; it stays stopped until started again');
      if (loop.scope === scope) loop.state = 'stopped';
    });
    this.running.add(done);
    void done.finally(() => this.running.delete(done));
  }
}

/**
 * LoopScope is the manager as one hosted loop sees it: informers are the shared ones, but the
 * handlers the loop adds are remembered so that stopping the loop removes them, and the
 * runnables it adds run under the loop's own signal.
 */
class LoopScope implements Manager {
  private readonly runnables: Runnable[] = [];
  private readonly handlers: Array<{ informer: Informer<KubeObject>; handlers: EventHandlers<KubeObject> }> = [];
  private readonly informers = new Set<Informer<KubeObject>>();
  private readonly stopping = new AbortController();
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly base: Manager,
    readonly loop: string,
    private readonly ownClient?: KubeClient,
  ) {}

  get client() {
    return this.ownClient ?? this.base.client;
  }
  get clock() {
    return this.base.clock;
  }
  get logger() {
    return this.base.logger;
  }
  get random() {
    return this.base.random;
  }
  get clusterCa() {
    return this.base.clusterCa;
  }
  get serviceAccountKeyFile() {
    return this.base.serviceAccountKeyFile;
  }

  informer<T extends KubeObject>(def: KindRef<T>, request?: InformerRequest): Informer<T> {
    const shared = this.base.informer(def, request) as unknown as Informer<KubeObject>;
    this.informers.add(shared);
    const scope = this;
    const view: Informer<KubeObject> = {
      lister: shared.lister,
      addEventHandlers(handlers) {
        scope.handlers.push({ informer: shared, handlers });
        shared.addEventHandlers(handlers);
      },
      removeEventHandlers: (handlers) => shared.removeEventHandlers(handlers),
      addIndexer: (name: string, indexFunc: IndexFunc<KubeObject>) => shared.addIndexer(name, indexFunc),
      hasSynced: () => shared.hasSynced(),
      waitForSync: (signal) => shared.waitForSync(signal),
      start: () => Promise.reject(new Error('a hosted loop does not start shared informers: the manager does')),
    };
    return view as unknown as Informer<T>;
  }

  recorder() {
    return this.base.recorder();
  }

  add(runnable: Runnable): void {
    this.runnables.push(runnable);
  }

  start(): Promise<void> {
    return Promise.reject(new Error('a hosted loop is started by its LoopHost'));
  }

  activity(): LoopActivity[] {
    return this.runnables.flatMap(activitiesOf);
  }

  async waitForSync(signal: AbortSignal): Promise<void> {
    await Promise.all([...this.informers].map((informer) => informer.waitForSync(signal)));
  }

  /** run starts the loop's runnables until `signal` aborts or the loop is stopped. */
  run(signal: AbortSignal): Promise<unknown> {
    const loopSignal = AbortSignal.any([signal, this.stopping.signal]);
    // Every worker of the loop listens on it: many listeners is the design (see manager.ts).
    setMaxListeners(0, loopSignal);
    this.running = Promise.all(this.runnables.map((runnable) => runnable.start(loopSignal)));
    return this.running;
  }

  /** stop removes the loop's handlers, stops its runnables and waits for them. */
  async stop(): Promise<void> {
    for (const { informer, handlers } of this.handlers) informer.removeEventHandlers(handlers);
    this.stopping.abort(new Error(`loop ${this.loop} stopped`));
    await this.running?.catch(() => undefined);
  }
}
