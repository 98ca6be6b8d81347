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
import type { DeepReadonly, IndexFunc } from './types.js';

/** NAMESPACE_INDEX files every object under its namespace ('' for cluster-scoped ones). */
export const NAMESPACE_INDEX = 'namespace';

/** StoredShape is the part of an object the store reads: its key fields. */
interface StoredShape {
  readonly metadata: { readonly namespace?: string; readonly name?: string };
}

/** cacheKey is the key an object is cached under: `namespace/name` or `name` (see requestKey). */
export function cacheKey(object: StoredShape): string {
  return requestKey({ namespace: object.metadata.namespace ?? '', name: object.metadata.name ?? '' });
}

/** IndexStore: see the module comment. Not safe to mutate objects after they are stored. */
export class IndexStore<T extends StoredShape> {
  private readonly items = new Map<string, DeepReadonly<T>>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  /** index name → index value → keys filed under it. */
  private readonly indices = new Map<string, Map<string, Set<string>>>();
  /** key → index name → the values the key is filed under (what unfiling must remove). */
  private readonly filed = new Map<string, Map<string, string[]>>();

  /** `onIndexError` hears about index functions that throw (the informer logs them). */
  constructor(private readonly onIndexError: (indexName: string, object: DeepReadonly<T>, err: unknown) => void = rethrow) {
    this.addIndexer(NAMESPACE_INDEX, (object) => [object.metadata.namespace ?? '']);
  }

  /** addIndexer adds an index and files the objects already stored under it. Throws when
   * the name is taken (two controllers meaning different things by one index is a bug). */
  addIndexer(name: string, indexFunc: IndexFunc<T>): void {
    if (this.indexers.has(name)) throw new Error(`indexer ${JSON.stringify(name)} already exists`);
    this.indexers.set(name, indexFunc);
    this.indices.set(name, new Map());
    for (const [key, object] of this.items) this.file(name, key, object);
  }

  /** indexFunc is the function filed under `name`, if any. */
  indexFunc(name: string): IndexFunc<T> | undefined {
    return this.indexers.get(name);
  }

  hasIndexer(name: string): boolean {
    return this.indexers.has(name);
  }

  get(key: string): DeepReadonly<T> | undefined {
    return this.items.get(key);
  }

  /** upsert stores `object` under its key and returns the object it replaced, if any. */
  upsert(object: DeepReadonly<T>): DeepReadonly<T> | undefined {
    const key = cacheKey(object as StoredShape);
    const old = this.items.get(key);
    if (old) this.unfileAll(key);
    this.items.set(key, object);
    for (const name of this.indexers.keys()) this.file(name, key, object);
    return old;
  }

  /** delete removes the object under `key` and returns it, if it was stored. */
  delete(key: string): DeepReadonly<T> | undefined {
    const old = this.items.get(key);
    if (!old) return undefined;
    this.unfileAll(key);
    this.items.delete(key);
    return old;
  }

  /** list returns every stored object (in insertion order). */
  list(): DeepReadonly<T>[] {
    return [...this.items.values()];
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  get size(): number {
    return this.items.size;
  }

  /** byIndex returns the objects index `name` filed under `value`. Throws for an unknown index. */
  byIndex(name: string, value: string): DeepReadonly<T>[] {
    const index = this.indices.get(name);
    if (!index) throw new Error(`no indexer named ${JSON.stringify(name)}: add it with addIndexer before start()`);
    const keys = index.get(value);
    if (!keys) return [];
    return [...keys].map((key) => this.items.get(key)).filter((object) => object !== undefined);
  }

  private file(name: string, key: string, object: DeepReadonly<T>): void {
    const values = this.valuesOf(name, object);
    let filedUnder = this.filed.get(key);
    if (!filedUnder) this.filed.set(key, (filedUnder = new Map()));
    filedUnder.set(name, values);
    const index = this.indices.get(name)!;
    for (const value of values) {
      let keys = index.get(value);
      if (!keys) index.set(value, (keys = new Set()));
      keys.add(key);
    }
  }

  /** unfileAll removes `key` from every index, using the values it was filed under. */
  private unfileAll(key: string): void {
    for (const [name, values] of this.filed.get(key) ?? []) {
      const index = this.indices.get(name)!;
      for (const value of values) {
        const keys = index.get(value);
        keys?.delete(key);
        if (keys?.size === 0) index.delete(value);
      }
    }
    this.filed.delete(key);
  }

  /** valuesOf runs an index function, deduplicated. A throwing index function files the
   * object under nothing and is reported, so one bad indexer cannot stop the informer. */
  private valuesOf(name: string, object: DeepReadonly<T>): string[] {
    try {
      return [...new Set(this.indexers.get(name)!(object))];
    } catch (err) {
      this.onIndexError(name, object, err);
      return [];
    }
  }
}

function rethrow(_indexName: string, _object: unknown, err: unknown): never {
  throw err;
}
