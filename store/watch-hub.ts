/**
 * WatchHub fans committed changes out to watchers, each through its own bounded queue.
 *
 * A watch's life:
 *
 *   live ──close()──────────► ended('closed')
 *     │──queue over limit───► ended('too-slow')
 *     └──hub.closeAll()─────► ended('store-closed')
 *
 * Once ended, the queue is dropped and the next `next()` reports done; nothing is
 * delivered after the end, so a consumer never sees a partial tail after a cut-off.
 */
import type { ObjectRef, StoredActor, StoreEvent, StoreEventType, StoreWatch, WatchEndReason, WatchMessage } from './types.js';

/** EncodedEvent is a committed change as the hub carries it. Bodies stay JSON text until a
 * watcher takes the event: publishing parses nothing, and every watcher parses its own
 * copy, so no two consumers ever share a mutable object. */
export interface EncodedEvent {
  type: StoreEventType;
  revision: number;
  ref: ObjectRef;
  body: string;
  prevBody: string | undefined;
  /** The writer's StoredActor as JSON, if it named one. */
  actor?: string;
  /** Commit time by the store's clock (ms). */
  timeMs?: number;
}

/** SubscribeOptions says what a new watch receives: `backlog` (already read from history,
 * in revision order, all > afterRevision) first, then live events that match. */
export interface SubscribeOptions {
  /** undefined = every resource. */
  resource?: string;
  namespace?: string;
  afterRevision: number;
  bufferSize?: number;
  backlog: readonly EncodedEvent[];
}

/** WatchHubOptions: `currentRevision` is read for bookmarks; `bufferSize` is the default
 * live-queue limit per watch. */
export interface WatchHubOptions {
  currentRevision: () => number;
  bufferSize?: number;
}

/** DefaultWatchBufferSize is the per-watch live-queue limit when nobody sets one. */
export const DefaultWatchBufferSize = 10_000;

type Queued = EncodedEvent | { type: 'BOOKMARK'; revision: number };

/**
 * WatchHub knows how to deliver published events to every matching watch.
 *
 * Contract: `publish` must be called with strictly increasing revisions, right after the
 * commit and before any other write (the store does both in one synchronous call); it
 * costs O(1) per matching watch, never parses, never awaits and never throws.
 */
export class WatchHub {
  // Watches keyed by resource, so a publish only visits watches that could match.
  private readonly byResource = new Map<string, Set<QueuedWatch>>();
  // Watches of every resource (the history stream).
  private readonly everyResource = new Set<QueuedWatch>();
  private readonly bufferSize: number;

  constructor(private readonly options: WatchHubOptions) {
    this.bufferSize = options.bufferSize ?? DefaultWatchBufferSize;
  }

  /** subscribe registers a new watch. Call it in the same synchronous block as the read of
   * `backlog`, so no event can fall between the two. */
  subscribe(options: SubscribeOptions): StoreWatch {
    const watch = new QueuedWatch(options.backlog, {
      namespace: options.namespace,
      withActor: options.resource === undefined,
      afterRevision: options.afterRevision,
      bufferSize: options.bufferSize ?? this.bufferSize,
      currentRevision: this.options.currentRevision,
      onEnd: (ended) => this.remove(options.resource, ended),
    });
    if (options.resource === undefined) {
      this.everyResource.add(watch);
      return watch;
    }
    let watches = this.byResource.get(options.resource);
    if (watches === undefined) {
      watches = new Set();
      this.byResource.set(options.resource, watches);
    }
    watches.add(watch);
    return watch;
  }

  /** publish queues `event` on every matching watch and wakes it. */
  publish(event: EncodedEvent): void {
    // NOTE: offer() may end a watch, which removes it from its set; deleting the
    // current element while iterating a Set is safe.
    for (const watch of this.everyResource) watch.offer(event);
    const watches = this.byResource.get(event.ref.resource);
    if (watches === undefined) return;
    for (const watch of watches) watch.offer(event);
  }

  /** closeAll ends every watch with `reason`. */
  closeAll(reason: WatchEndReason): void {
    for (const watch of [...this.everyResource]) watch.end(reason);
    for (const watches of [...this.byResource.values()]) {
      for (const watch of [...watches]) watch.end(reason);
    }
  }

  /** undelivered counts the messages queued on every watch and not yet taken by its consumer:
   * committed changes still on their way to watchers. */
  get undelivered(): number {
    let count = 0;
    for (const watch of this.everyResource) count += watch.undelivered;
    for (const watches of this.byResource.values()) for (const watch of watches) count += watch.undelivered;
    return count;
  }

  /** watchCount is the number of live watches (for tests and metrics). */
  get watchCount(): number {
    let count = this.everyResource.size;
    for (const watches of this.byResource.values()) count += watches.size;
    return count;
  }

  private remove(resource: string | undefined, watch: QueuedWatch): void {
    if (resource === undefined) {
      this.everyResource.delete(watch);
      return;
    }
    const watches = this.byResource.get(resource);
    watches?.delete(watch);
    if (watches?.size === 0) this.byResource.delete(resource);
  }
}

// Deliberately not the backlog: a watch must not pin its replay after delivering it.
interface QueuedWatchOptions {
  namespace: string | undefined;
  withActor: boolean;
  afterRevision: number;
  bufferSize: number;
  currentRevision: () => number;
  onEnd: (watch: QueuedWatch) => void;
}

/**
 * QueuedWatch is one watcher's queue.
 *
 * Invariants: `queue[head..]` is undelivered, in revision order; its first
 * `backlogLeft` entries are the replay read at subscribe time, which do not count against
 * `bufferSize` (a watch from an old revision must not be cut off by its own replay);
 * once `endReason` is set the queue is empty and stays empty.
 */
class QueuedWatch implements StoreWatch, AsyncIterator<WatchMessage> {
  endReason: WatchEndReason | undefined;
  private queue: Array<Queued | undefined>;
  private head = 0;

  /** Messages queued and not yet taken. */
  get undelivered(): number {
    return this.queue.length - this.head;
  }
  private backlogLeft: number;
  private waiters: Array<() => void> = [];

  constructor(
    backlog: readonly EncodedEvent[],
    private readonly options: QueuedWatchOptions,
  ) {
    this.queue = [...backlog];
    this.backlogLeft = this.queue.length;
  }

  offer(event: EncodedEvent): void {
    const { namespace, afterRevision } = this.options;
    if (event.revision <= afterRevision) return;
    if (namespace !== undefined && event.ref.namespace !== namespace) return;
    this.enqueue(event);
  }

  requestBookmark(): void {
    if (this.endReason !== undefined) return;
    this.enqueue({ type: 'BOOKMARK', revision: this.options.currentRevision() });
  }

  close(): void {
    this.end('closed');
  }

  end(reason: WatchEndReason): void {
    if (this.endReason !== undefined) return;
    this.endReason = reason;
    this.queue = [];
    this.head = 0;
    this.backlogLeft = 0;
    this.options.onEnd(this);
    this.wake();
  }

  async next(): Promise<IteratorResult<WatchMessage, undefined>> {
    for (;;) {
      const message = this.shift();
      if (message !== undefined) return { value: decode(message, { withActor: this.options.withActor }), done: false };
      if (this.endReason !== undefined) return { value: undefined, done: true };
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  async return(): Promise<IteratorResult<WatchMessage, undefined>> {
    this.close();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchMessage> {
    return this;
  }

  private enqueue(message: Queued): void {
    const live = this.queue.length - this.head - this.backlogLeft;
    if (live >= this.options.bufferSize) {
      this.end('too-slow');
      return;
    }
    this.queue.push(message);
    this.wake();
  }

  private shift(): Queued | undefined {
    if (this.head >= this.queue.length) return undefined;
    const message = this.queue[this.head];
    this.queue[this.head] = undefined; // let the body be collected
    this.head++;
    if (this.backlogLeft > 0) this.backlogLeft--;
    // Reclaim the consumed prefix once it dominates, keeping shift amortised O(1).
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return message;
  }

  private wake(): void {
    if (this.waiters.length === 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

function decode(message: Queued, options: DecodeOptions): WatchMessage {
  if (message.type === 'BOOKMARK') return { type: 'BOOKMARK', revision: message.revision };
  return decodeEvent(message, options);
}

/** DecodeOptions: `withActor` adds the actor and commit time (the history stream and
 * history reads); other watchers get neither, and pay nothing for them. */
export interface DecodeOptions {
  withActor?: boolean;
}

/** decodeEvent parses a carried event into a fresh StoreEvent the caller owns. */
export function decodeEvent(message: EncodedEvent, options: DecodeOptions = {}): StoreEvent {
  const event: StoreEvent = {
    type: message.type,
    revision: message.revision,
    ref: { ...message.ref },
    object: JSON.parse(message.body) as StoreEvent['object'],
  };
  if (message.prevBody !== undefined) {
    event.prevObject = JSON.parse(message.prevBody) as StoreEvent['object'];
  }
  if (!options.withActor) return event;
  if (message.actor !== undefined) event.actor = JSON.parse(message.actor) as StoredActor;
  if (message.timeMs !== undefined) event.timeMs = message.timeMs;
  return event;
}
