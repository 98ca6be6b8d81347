/**
 * The contracts of controllers/runtime — kubesim's client-go + controller-runtime. Every
 * control loop (controllers, scheduler, kubelet-sim) is built from these pieces and talks to
 * the API server only over HTTP through them. See docs/controllers.md.
 */
import type { CauseTrigger } from '../../apiserver/api/kubesim/history.js';
import type { KindRef, KubeObject } from '../../apiserver/api/resource-definition.js';

// ─── Time ────────────────────────────────────────────────────────────────────────────

export type { Clock, TimerHandle } from '../../apiserver/api/machinery/clock-types.js';

// ─── Client ──────────────────────────────────────────────────────────────────────────

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export interface ListOptions {
  /** Undefined = all namespaces (for namespaced kinds). */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
}

export interface ObjectList<T> {
  items: T[];
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
}

export interface WatchOptions extends Omit<ListOptions, 'limit' | 'continue' | 'resourceVersionMatch'> {
  allowWatchBookmarks?: boolean;
  timeoutSeconds?: number;
  sendInitialEvents?: boolean;
  signal?: AbortSignal;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** WatchEvent is one decoded watch frame. ERROR events carry a Status in `object`. */
export interface WatchEvent<T> {
  type: WatchEventType;
  object: T;
}

export interface WriteOptions {
  fieldManager?: string;
  dryRun?: boolean;
}

export interface PatchOptions extends WriteOptions {
  type: PatchType;
  subresource?: 'status' | 'scale';
  force?: boolean;
}

export interface DeleteOptions {
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface Scale {
  apiVersion?: string;
  kind?: string;
  metadata: KubeObject['metadata'];
  spec: { replicas?: number };
  status?: { replicas?: number; selector?: string };
}

/**
 * ResourceClient knows how to read and write one kind over HTTP. Errors are ApiError
 * (apiserver/api/api-error.ts) rebuilt from the server's Status: use isNotFound, isConflict,
 * isAlreadyExists, isExpired. Objects returned are fresh and owned by the caller.
 */
export interface ResourceClient<T extends KubeObject = KubeObject> {
  readonly definition: KindRef;
  get(namespace: string, name: string): Promise<T>;
  list(options?: ListOptions): Promise<ObjectList<T>>;
  /** Streams events until the server ends the stream or `signal` aborts. */
  watch(options: WatchOptions): AsyncIterable<WatchEvent<T>>;
  create(object: T, options?: WriteOptions): Promise<T>;
  /** PUT of the main resource; carries metadata.resourceVersion (409 when stale). */
  update(object: T, options?: WriteOptions): Promise<T>;
  /** PUT of /status. */
  updateStatus(object: T, options?: WriteOptions): Promise<T>;
  patch(namespace: string, name: string, patch: unknown, options: PatchOptions): Promise<T>;
  /** Returns the object as the server left it (still present while finalizers run), or undefined when removed. */
  delete(namespace: string, name: string, options?: DeleteOptions): Promise<T | undefined>;
  getScale(namespace: string, name: string): Promise<Scale>;
  updateScale(namespace: string, name: string, scale: Scale): Promise<Scale>;
}

// ─── Informers and listers ───────────────────────────────────────────────────────────

/** DeepReadonly marks cache objects as shared: copy (structuredClone) before editing. */
export type DeepReadonly<T> = T extends (infer U)[] ? ReadonlyArray<DeepReadonly<U>> : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

/** Lister knows how to read an informer's cache. Never mutate what it returns. */
export interface Lister<T> {
  get(namespace: string, name: string): DeepReadonly<T> | undefined;
  /** Objects in `namespace` (all when undefined) matching the label selector text (all when undefined). */
  list(namespace?: string, labelSelector?: string): DeepReadonly<T>[];
  /** Objects whose index function produced `value` for index `indexName`. */
  byIndex(indexName: string, value: string): DeepReadonly<T>[];
}

/** IndexFunc maps an object to the index values it is filed under (e.g. owner uids, node name). */
export type IndexFunc<T> = (object: DeepReadonly<T>) => string[];

/** EventHandlers are synchronous and may only enqueue keys (never await, never call the API). */
export interface EventHandlers<T> {
  onAdd?(object: DeepReadonly<T>): void;
  onUpdate?(oldObject: DeepReadonly<T>, newObject: DeepReadonly<T>): void;
  /** `object` is the last known state (possibly from a re-list that found it gone). */
  onDelete?(object: DeepReadonly<T>): void;
}

/**
 * Informer knows how to keep a local cache of one kind in sync: list, then watch from the
 * list's resourceVersion; re-watch from the last seen revision when a stream ends; re-list
 * on 410 Expired and synthesise the deletes/updates the gap hid; resync periodically
 * (onUpdate with the same object) so level-triggered loops re-check everything.
 */
export interface Informer<T extends KubeObject = KubeObject> {
  readonly lister: Lister<T>;
  addEventHandlers(handlers: EventHandlers<T>): void;
  /** Stops calling `handlers` (the object given to addEventHandlers). */
  removeEventHandlers(handlers: EventHandlers<T>): void;
  /** Adds an index (before or after start: cached objects are indexed at once); the same
   * function under a name already added is shared, another one is refused. */
  addIndexer(name: string, indexFunc: IndexFunc<T>): void;
  /** True once the first list has been delivered to the handlers. */
  hasSynced(): boolean;
  /** Resolves when the first list has been delivered (or rejects when `signal` aborts first). */
  waitForSync(signal: AbortSignal): Promise<void>;
  /** Runs until `signal` aborts. */
  start(signal: AbortSignal): Promise<void>;
}

// ─── Work queue ──────────────────────────────────────────────────────────────────────

/**
 * WorkQueue has client-go's guarantees: a key is queued at most once (dirty set); a key is
 * never processed by two workers at once (processing set); a key added while it is being
 * processed is processed again after done(); addRateLimited backs off per key
 * (exponential) within an overall rate limit; forget() resets a key's backoff.
 */
export interface WorkQueue {
  add(key: string): void;
  addAfter(key: string, delayMs: number): void;
  addRateLimited(key: string): void;
  forget(key: string): void;
  /** Times the key was rate-limited since its last forget(). */
  numRequeues(key: string): number;
  /** Waits for the next key; undefined once shut down and drained. */
  get(): Promise<string | undefined>;
  done(key: string): void;
  /** What queued `key`, which a worker holds (between get and done): the latest trigger
   * (cause.ts) noted while it waited; undefined when nothing was noted. */
  triggerOf?(key: string): CauseTrigger | undefined;
  /** Number of keys waiting (not counting delayed or in-process ones). */
  readonly length: number;
  shutdown(): void;
  readonly shuttingDown: boolean;
}

// ─── Reconcilers and controllers ─────────────────────────────────────────────────────

export interface Request {
  namespace: string;
  name: string;
}

export interface Result {
  requeueAfterMs?: number;
}

/**
 * Reconciler knows how to bring one object's world to its desired state. It reads current
 * state from listers, computes the whole diff, and acts; it must be idempotent and must not
 * trust whatever event woke it. A thrown error means a rate-limited retry; throw
 * `terminalError(err)` for errors retrying cannot fix; `{ requeueAfterMs }` means "look again later".
 */
export interface Reconciler {
  reconcile(request: Request, signal: AbortSignal): Promise<Result>;
}

/** Runnable is anything the manager runs: start() resolves once it has stopped. */
export interface Runnable {
  start(signal: AbortSignal): Promise<void>;
}

/** Logger is a structured logger (pino-compatible subset). */
export interface Logger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
  child(fields: object): Logger;
}

/** EventRecorder knows how to write core/v1 Events about an object (repeats aggregate into count). */
export interface EventRecorder {
  /** `object` may be a cached (DeepReadonly) object: the recorder only reads it. */
  event(object: DeepReadonly<KubeObject>, type: 'Normal' | 'Warning', reason: string, message: string): void;
}
