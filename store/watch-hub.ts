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
import type {
  ObjectRef,
  SharedStoreEvent,
  SharedWatchMessage,
  StoredActor,
  StoredObject,
  StoreEvent,
  StoreEventType,
  StoreWatch,
  WatchEndReason,
  WatchMessage,
} from './types.js';

/** EncodedEvent is a committed change as the store hands it to the hub. Bodies stay JSON
 * text until a watcher takes the event: publishing parses nothing. A plain watcher parses
 * its own copy, so no two of them share a mutable object; shared watchers all read one
 * SharedEvent, parsed at most once. */
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

/** SharedEvent is an EncodedEvent made once per publish and queued, as is, on every
 * matching watch: shared watchers receive it, plain ones decode their own copy from it. */
class SharedEvent implements EncodedEvent, SharedStoreEvent {
  readonly type: StoreEventType;
  readonly revision: number;
  readonly ref: ObjectRef;
  readonly body: string;
  readonly prevBody: string | undefined;
  readonly actor?: string;
  readonly timeMs?: number;
  private parsed: StoredObject | undefined;
  private prevParsed: StoredObject | undefined;

  constructor(event: EncodedEvent) {
    this.type = event.type;
    this.revision = event.revision;
    this.ref = event.ref;
    this.body = event.body;
    this.prevBody = event.prevBody;
    if (event.actor !== undefined) this.actor = event.actor;
    if (event.timeMs !== undefined) this.timeMs = event.timeMs;
  }

  get object(): StoredObject {
    this.parsed ??= deepFreeze(JSON.parse(this.body) as StoredObject);
    return this.parsed;
  }

  get prevObject(): StoredObject | undefined {
    if (this.prevBody === undefined) return undefined;
    this.prevParsed ??= deepFreeze(JSON.parse(this.prevBody) as StoredObject);
    return this.prevParsed;
  }
}

// Freezing makes a consumer that mutates a shared object fail loudly (ES modules are strict)
// instead of corrupting what every other watcher of the change reads.
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  for (const child of Object.values(value)) deepFreeze(child);
  return Object.freeze(value);
}

/** WatchHubOptions: `currentRevision` is read for bookmarks; `bufferSize` is the default
 * live-queue limit per watch. */
export interface WatchHubOptions {
  currentRevision: () => number;
  bufferSize?: number;
}

/** DefaultWatchBufferSize is the per-watch live-queue limit when nobody sets one. */
export const DefaultWatchBufferSize = 10_000;

type Queued = SharedEvent | { type: 'BOOKMARK'; revision: number };

/**
 * WatchHub knows how to deliver published events to every matching watch.
 *
 * Contract: `publish` must be called with strictly increasing revisions, right after the
 * commit and before any other write (the store does both in one synchronous call); it
 * costs O(1) per matching watch, never parses, never awaits and never throws.
 */
export class WatchHub {
  // Watches keyed by resource, so a publish only visits watches that could match.
  private readonly byResource = new Map<string, Set<AnyWatch>>();
  // Watches of every resource (the history stream).
  private readonly everyResource = new Set<AnyWatch>();
  private readonly bufferSize: number;

  constructor(private readonly options: WatchHubOptions) {
    this.bufferSize = options.bufferSize ?? DefaultWatchBufferSize;
  }

  /** subscribe registers a new watch. Call it in the same synchronous block as the read of
   * `backlog`, so no event can fall between the two. */
  subscribe(options: SubscribeOptions): StoreWatch {
    const withActor = options.resource === undefined;
    return this.add(options, (event) => decodeEvent(event, { withActor }));
  }

  /** subscribeShared is subscribe for a watcher that only reads: it receives each change as
   * the one SharedStoreEvent every shared watcher of it receives. */
  subscribeShared(options: SubscribeOptions & { resource: string }): StoreWatch<SharedWatchMessage> {
    return this.add(options, (event) => event);
  }

  private add<Message extends WatchMessage | SharedWatchMessage>(options: SubscribeOptions, toMessage: (event: SharedEvent) => Message): StoreWatch<Message> {
    const watch = new QueuedWatch<Message>(options.backlog, {
      namespace: options.namespace,
      toMessage,
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
  publish(encoded: EncodedEvent): void {
    const event = new SharedEvent(encoded);
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

  private remove(resource: string | undefined, watch: AnyWatch): void {
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
interface QueuedWatchOptions<Message> {
  namespace: string | undefined;
  /** What the consumer receives for a queued change. */
  toMessage: (event: SharedEvent) => Message;
  afterRevision: number;
  bufferSize: number;
  currentRevision: () => number;
  onEnd: (watch: AnyWatch) => void;
}

type AnyWatch = QueuedWatch<WatchMessage | SharedWatchMessage>;

/**
 * QueuedWatch is one watcher's queue.
 *
 * Invariants: `queue[head..]` is undelivered, in revision order; its first
 * `backlogLeft` entries are the replay read at subscribe time, which do not count against
 * `bufferSize` (a watch from an old revision must not be cut off by its own replay);
 * once `endReason` is set the queue is empty and stays empty.
 */
class QueuedWatch<Message extends WatchMessage | SharedWatchMessage> implements StoreWatch<Message>, AsyncIterator<Message> {
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
    private readonly options: QueuedWatchOptions<Message>,
  ) {
    this.queue = backlog.map((event) => new SharedEvent(event));
    this.backlogLeft = this.queue.length;
  }

  offer(event: SharedEvent): void {
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

  async next(): Promise<IteratorResult<Message, undefined>> {
    for (;;) {
      const message = this.shift();
      if (message !== undefined) return { value: message instanceof SharedEvent ? this.options.toMessage(message) : (message as Message), done: false };
      if (this.endReason !== undefined) return { value: undefined, done: true };
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  async return(): Promise<IteratorResult<Message, undefined>> {
    this.close();
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): AsyncIterator<Message> {
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
