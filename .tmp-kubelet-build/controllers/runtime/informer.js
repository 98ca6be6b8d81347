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
import { AbortError } from './clock.js';
import { IndexStore, cacheKey } from './index-store.js';
import { createLister } from './lister.js';
import { Reflector } from './reflector.js';
/**
 * createInformer returns an Informer (see types.ts and the module comment). It does nothing
 * until start(); start() runs until its signal aborts and may be called once. Handler
 * exceptions are caught and logged, never propagated into the watch loop.
 */
export function createInformer(options) {
    return new CachingInformer(options);
}
class CachingInformer {
    options;
    lister;
    store;
    handlers = [];
    syncWaiters = new Set();
    logger;
    synced = false;
    started = false;
    constructor(options) {
        this.options = options;
        this.logger = options.logger.child({ informer: options.client.definition.plural, namespace: options.namespace });
        this.store = new IndexStore((indexName, object, err) => {
            this.logger.error({ err, indexName, key: cacheKey(object) }, 'index function threw; object not indexed');
        });
        this.lister = createLister(this.store);
    }
    addEventHandlers(handlers) {
        this.handlers.push(handlers);
        // A late handler catches up on what is already cached, as client-go's shared informer does.
        if (this.synced)
            for (const object of this.store.list())
                this.call(handlers, 'onAdd', object);
    }
    addIndexer(name, indexFunc) {
        if (this.started)
            throw new Error(`addIndexer(${JSON.stringify(name)}) after start(): add indexers before starting the informer`);
        this.store.addIndexer(name, indexFunc);
    }
    hasSynced() {
        return this.synced;
    }
    waitForSync(signal) {
        if (this.synced)
            return Promise.resolve();
        if (signal.aborted)
            return Promise.reject(new AbortError(signal.reason));
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
    async start(signal) {
        if (this.started)
            throw new Error('informer already started');
        this.started = true;
        const { client, namespace, labelSelector, fieldSelector, clock } = this.options;
        const reflector = new Reflector({ client, namespace, labelSelector, fieldSelector, clock, logger: this.logger, sink: this });
        const resync = this.scheduleResync();
        try {
            await reflector.run(signal);
        }
        finally {
            resync?.stop();
        }
    }
    replace(items, resourceVersion) {
        const listed = new Map(items.map((item) => [cacheKey(item), item]));
        for (const key of this.store.keys()) {
            if (listed.has(key))
                continue;
            const gone = this.store.delete(key);
            if (gone)
                this.dispatch('onDelete', gone);
        }
        for (const item of listed.values()) {
            const object = this.prepare(item);
            const old = this.store.upsert(object);
            if (!old)
                this.dispatch('onAdd', object);
            else if (old.metadata.resourceVersion !== object.metadata.resourceVersion)
                this.dispatch('onUpdate', object, old);
        }
        this.logger.debug({ items: items.length, resourceVersion }, 'cache replaced');
        this.markSynced();
    }
    apply(type, item) {
        const object = this.prepare(item);
        if (type === 'DELETED') {
            this.store.delete(cacheKey(item));
            this.dispatch('onDelete', object);
            return;
        }
        const old = this.store.upsert(object);
        if (old)
            this.dispatch('onUpdate', object, old);
        else
            this.dispatch('onAdd', object);
    }
    markSynced() {
        if (this.synced)
            return;
        this.synced = true;
        for (const done of this.syncWaiters)
            done();
        this.syncWaiters.clear();
    }
    /** scheduleResync re-arms a clock timer every resyncMs; stop() cancels it. */
    scheduleResync() {
        const { resyncMs, clock } = this.options;
        if (!resyncMs || resyncMs <= 0)
            return undefined;
        let timer;
        const arm = () => {
            timer = clock.setTimeout(() => {
                if (this.synced)
                    for (const object of this.store.list())
                        this.dispatch('onUpdate', object, object);
                arm();
            }, resyncMs);
        };
        arm();
        return { stop: () => timer?.cancel() };
    }
    prepare(item) {
        return (this.options.freezeObjects ? deepFreeze(item) : item);
    }
    dispatch(kind, object, old) {
        for (const handlers of this.handlers)
            this.call(handlers, kind, object, old);
    }
    /** call runs one handler; NOTE a throwing handler is logged and skipped, never propagated. */
    call(handlers, kind, object, old) {
        try {
            if (kind === 'onUpdate')
                handlers.onUpdate?.(old ?? object, object);
            else
                handlers[kind]?.(object);
        }
        catch (err) {
            this.logger.error({ err, handler: kind, key: cacheKey(object) }, 'event handler threw');
        }
    }
}
/** deepFreeze freezes `value` and everything reachable from it; returns it. */
export function deepFreeze(value) {
    if (typeof value !== 'object' || value === null || Object.isFrozen(value))
        return value;
    Object.freeze(value);
    for (const child of Object.values(value))
        deepFreeze(child);
    return value;
}
//# sourceMappingURL=informer.js.map