/**
 * IndexStore is an informer's cache: objects by key plus secondary indexes (client-go's
 * ThreadSafeStore with Indexers). The namespace index is built in; more are added by name
 * before the informer starts (owner uid, node name, ...).
 *
 * Invariant: for every index name N and every stored key K, K is filed under exactly the
 * values indexers[N](items[K]) returned when K was last written — no more (stale values are
 * removed on update and delete), no fewer.
 *
 * NOTE: stored objects are shared with every lister reader and handler: callers must
 * treat them as read-only (DeepReadonly) and copy before editing.
 */
import { requestKey } from './reconciler.js';
/** NAMESPACE_INDEX files every object under its namespace ('' for cluster-scoped ones). */
export const NAMESPACE_INDEX = 'namespace';
/** cacheKey is the key an object is cached under: `namespace/name` or `name` (see requestKey). */
export function cacheKey(object) {
    return requestKey({ namespace: object.metadata.namespace ?? '', name: object.metadata.name ?? '' });
}
/** IndexStore: see the module comment. Not safe to mutate objects after they are stored. */
export class IndexStore {
    onIndexError;
    items = new Map();
    indexers = new Map();
    /** index name → index value → keys filed under it. */
    indices = new Map();
    /** key → index name → the values the key is filed under (what unfiling must remove). */
    filed = new Map();
    /** `onIndexError` hears about index functions that throw (the informer logs them). */
    constructor(onIndexError = rethrow) {
        this.onIndexError = onIndexError;
        this.addIndexer(NAMESPACE_INDEX, (object) => [object.metadata.namespace ?? '']);
    }
    /** addIndexer adds an index and files the objects already stored under it. Throws when
     * the name is taken (two controllers meaning different things by one index is a bug). */
    addIndexer(name, indexFunc) {
        if (this.indexers.has(name))
            throw new Error(`indexer ${JSON.stringify(name)} already exists`);
        this.indexers.set(name, indexFunc);
        this.indices.set(name, new Map());
        for (const [key, object] of this.items)
            this.file(name, key, object);
    }
    hasIndexer(name) {
        return this.indexers.has(name);
    }
    get(key) {
        return this.items.get(key);
    }
    /** upsert stores `object` under its key and returns the object it replaced, if any. */
    upsert(object) {
        const key = cacheKey(object);
        const old = this.items.get(key);
        if (old)
            this.unfileAll(key);
        this.items.set(key, object);
        for (const name of this.indexers.keys())
            this.file(name, key, object);
        return old;
    }
    /** delete removes the object under `key` and returns it, if it was stored. */
    delete(key) {
        const old = this.items.get(key);
        if (!old)
            return undefined;
        this.unfileAll(key);
        this.items.delete(key);
        return old;
    }
    /** list returns every stored object (in insertion order). */
    list() {
        return [...this.items.values()];
    }
    keys() {
        return [...this.items.keys()];
    }
    get size() {
        return this.items.size;
    }
    /** byIndex returns the objects index `name` filed under `value`. Throws for an unknown index. */
    byIndex(name, value) {
        const index = this.indices.get(name);
        if (!index)
            throw new Error(`no indexer named ${JSON.stringify(name)}: add it with addIndexer before start()`);
        const keys = index.get(value);
        if (!keys)
            return [];
        return [...keys].map((key) => this.items.get(key)).filter((object) => object !== undefined);
    }
    file(name, key, object) {
        const values = this.valuesOf(name, object);
        let filedUnder = this.filed.get(key);
        if (!filedUnder)
            this.filed.set(key, (filedUnder = new Map()));
        filedUnder.set(name, values);
        const index = this.indices.get(name);
        for (const value of values) {
            let keys = index.get(value);
            if (!keys)
                index.set(value, (keys = new Set()));
            keys.add(key);
        }
    }
    /** unfileAll removes `key` from every index, using the values it was filed under. */
    unfileAll(key) {
        for (const [name, values] of this.filed.get(key) ?? []) {
            const index = this.indices.get(name);
            for (const value of values) {
                const keys = index.get(value);
                keys?.delete(key);
                if (keys?.size === 0)
                    index.delete(value);
            }
        }
        this.filed.delete(key);
    }
    /** valuesOf runs an index function, deduplicated. A throwing index function files the
     * object under nothing and is reported, so one bad indexer cannot stop the informer. */
    valuesOf(name, object) {
        try {
            return [...new Set(this.indexers.get(name)(object))];
        }
        catch (err) {
            this.onIndexError(name, object, err);
            return [];
        }
    }
}
function rethrow(_indexName, _object, err) {
    throw err;
}
//# sourceMappingURL=index-store.js.map