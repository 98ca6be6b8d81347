/**
 * The informer: a reflector (reflector.ts) feeding an indexed cache (index-store.ts), with
 * event handlers and a lister on top (client-go's SharedIndexInformer, minus the DeltaFIFO:
 * handlers run synchronously as changes are applied, which is safe because they may only
 * enqueue keys).
 *
 * What handlers see:
 *   - watch ADDED/MODIFIED → onAdd, or onUpdate(old, new) when the key was cached;
 *   - watch DELETED → onDelete(last state), and the object leaves the cache;
 *   - a (re-)list → onAdd for new keys, onUpdate for keys whose resourceVersion changed,
 *     onDelete for cached keys the list no longer has (the gap a 410 hid);
 *   - every resyncMs → onUpdate(o, o) for every cached object, so level-based loops
 *     re-check everything even when nothing changed;
 *   - handlers added after the first sync get onAdd for everything already cached.
 */
import { type CauseTrigger, withTrigger } from '../../apiserver/api/machinery/cause.js';
import { AbortError } from '../../apiserver/api/machinery/clock.js';
import type { Random } from '../../apiserver/api/machinery/random.js';
import type { KubeObject } from '../../apiserver/api/resource-definition.js';
import { cacheKey, IndexStore } from './index-store.js';
import { createLister } from './lister.js';
import { Reflector, type ReflectorSink } from './reflector.js';
import type { Clock, DeepReadonly, EventHandlers, IndexFunc, Informer, Lister, Logger, ResourceClient, TimerHandle } from './types.js';

/** InformerOptions configures createInformer: what to watch (namespace, selectors) and how. */
export interface InformerOptions<T extends KubeObject> {
  client: ResourceClient<T>;
  /** Watch one namespace; all namespaces when absent. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Period of the resync (onUpdate with the same object for every cached one); none when 0/absent. */
  resyncMs?: number;
  clock: Clock;
  logger: Logger;
  /** Deep-freeze cached objects so a handler or reconciler that mutates one throws (tests). */
  freezeObjects?: boolean;
  /** Source of the reflector's jitter; the platform's when absent. */
  random?: Random;
}

/**
 * createInformer returns an Informer (see types.ts and the module comment). It does nothing
 * until start(); start() runs until its signal aborts and may be called once. Handler
 * exceptions are caught and logged, never propagated into the watch loop.
 */
export function createInformer<T extends KubeObject>(options: InformerOptions<T>): Informer<T> {
  return new CachingInformer(options);
}

class CachingInformer<T extends KubeObject> implements Informer<T>, ReflectorSink<T> {
  readonly lister: Lister<T>;
  private readonly store: IndexStore<T>;
  private readonly handlers: EventHandlers<T>[] = [];
  private readonly syncWaiters = new Set<() => void>();
  private readonly logger: Logger;
  private synced = false;
  private started = false;

  constructor(private readonly options: InformerOptions<T>) {
    this.logger = options.logger.child({ informer: options.client.definition.plural, namespace: options.namespace });
    this.store = new IndexStore<T>((indexName, object, err) => {
      this.logger.error({ err, indexName, key: cacheKey(object as KubeObject) }, 'index function threw; object not indexed');
    });
    this.lister = createLister(this.store);
  }

  addEventHandlers(handlers: EventHandlers<T>): void {
    this.handlers.push(handlers);
    // A late handler catches up on what is already cached, as client-go's shared informer does.
    if (this.synced) for (const object of this.store.list()) this.call(handlers, 'onAdd', object);
  }

  removeEventHandlers(handlers: EventHandlers<T>): void {
    const at = this.handlers.indexOf(handlers);
    if (at >= 0) this.handlers.splice(at, 1);
  }

  addIndexer(name: string, indexFunc: IndexFunc<T>): void {
    // Two loops of one process asking for the same index function under one name share it.
    if (this.store.indexFunc(name) === indexFunc) return;
    // Also after start (a loop started later, the collector's monitors): the store files the
    // objects it already holds, and nothing else runs meanwhile.
    this.store.addIndexer(name, indexFunc);
  }

  hasSynced(): boolean {
    return this.synced;
  }

  waitForSync(signal: AbortSignal): Promise<void> {
    if (this.synced) return Promise.resolve();
    if (signal.aborted) return Promise.reject(new AbortError(signal.reason));
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.syncWaiters.delete(done);
        reject(new AbortError(signal.reason));
      };
      const done = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      this.syncWaiters.add(done);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  async start(signal: AbortSignal): Promise<void> {
    if (this.started) throw new Error('informer already started');
    this.started = true;
    const { client, namespace, labelSelector, fieldSelector, clock, random } = this.options;
    const reflector = new Reflector<T>({ client, namespace, labelSelector, fieldSelector, clock, random, logger: this.logger, sink: this });
    const resync = this.scheduleResync();
    try {
      await reflector.run(signal);
    } finally {
      resync?.stop();
    }
  }

  replace(items: T[], resourceVersion: string): void {
    const listed = new Map(items.map((item) => [cacheKey(item), item]));
    for (const key of this.store.keys()) {
      if (listed.has(key)) continue;
      const gone = this.store.delete(key);
      if (gone) this.dispatch('onDelete', gone);
    }
    for (const item of listed.values()) {
      const object = this.prepare(item);
      const old = this.store.upsert(object);
      if (!old) this.dispatch('onAdd', object);
      else if (old.metadata.resourceVersion !== object.metadata.resourceVersion) this.dispatch('onUpdate', object, old);
    }
    this.logger.debug({ items: items.length, resourceVersion }, 'cache replaced');
    this.markSynced();
  }

  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', item: T): void {
    const object = this.prepare(item);
    if (type === 'DELETED') {
      this.store.delete(cacheKey(item));
      this.dispatch('onDelete', object);
      return;
    }
    const old = this.store.upsert(object);
    if (old) this.dispatch('onUpdate', object, old);
    else this.dispatch('onAdd', object);
  }

  private markSynced(): void {
    if (this.synced) return;
    this.synced = true;
    for (const done of this.syncWaiters) done();
    this.syncWaiters.clear();
  }

  /** scheduleResync re-arms a clock timer every resyncMs; stop() cancels it. */
  private scheduleResync(): { stop(): void } | undefined {
    const { resyncMs, clock } = this.options;
    if (!resyncMs || resyncMs <= 0) return undefined;
    let timer: TimerHandle | undefined;
    const arm = () => {
      timer = clock.setTimeout(() => {
        if (this.synced) for (const object of this.store.list()) this.dispatch('onUpdate', object, object);
        arm();
      }, resyncMs);
    };
    arm();
    return { stop: () => timer?.cancel() };
  }

  private prepare(item: T): DeepReadonly<T> {
    return (this.options.freezeObjects ? deepFreeze(item) : item) as DeepReadonly<T>;
  }

  /** dispatch calls every handler with the change as the current trigger (cause.ts), so
   * the keys they enqueue remember what queued them; a resync is one, not an event. */
  private dispatch(kind: 'onAdd' | 'onDelete' | 'onUpdate', object: DeepReadonly<T>, old?: DeepReadonly<T>): void {
    withTrigger(this.triggerOf(kind, object, old), () => {
      for (const handlers of this.handlers) this.call(handlers, kind, object, old);
    });
  }

  private triggerOf(kind: 'onAdd' | 'onDelete' | 'onUpdate', object: DeepReadonly<T>, old?: DeepReadonly<T>): CauseTrigger {
    if (kind === 'onUpdate' && old === object) return { kind: 'resync' };
    const { namespace = '', name = '', resourceVersion = '' } = object.metadata as KubeObject['metadata'];
    const type = kind === 'onAdd' ? 'ADDED' : kind === 'onUpdate' ? 'MODIFIED' : 'DELETED';
    return { kind: 'event', type, object: { kind: this.options.client.definition.kind, namespace, name, resourceVersion } };
  }

  /** call runs one handler; NOTE a throwing handler is logged and skipped, never propagated. */
  private call(handlers: EventHandlers<T>, kind: 'onAdd' | 'onDelete' | 'onUpdate', object: DeepReadonly<T>, old?: DeepReadonly<T>): void {
    try {
      if (kind === 'onUpdate') handlers.onUpdate?.(old ?? object, object);
      else handlers[kind]?.(object);
    } catch (err) {
      this.logger.error({ err, handler: kind, key: cacheKey(object as KubeObject) }, 'event handler threw');
    }
  }
}

/** deepFreeze freezes `value` and everything reachable from it; returns it. */
export function deepFreeze<V>(value: V): V {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
  return value;
}
