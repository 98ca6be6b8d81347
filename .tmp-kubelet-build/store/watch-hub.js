/** DefaultWatchBufferSize is the per-watch live-queue limit when nobody sets one. */
export const DefaultWatchBufferSize = 10_000;
/**
 * WatchHub knows how to deliver published events to every matching watch.
 *
 * Contract: `publish` must be called with strictly increasing revisions, right after the
 * commit and before any other write (the store does both in one synchronous call); it
 * costs O(1) per matching watch, never parses, never awaits and never throws.
 */
export class WatchHub {
    options;
    // Watches keyed by resource, so a publish only visits watches that could match.
    byResource = new Map();
    bufferSize;
    constructor(options) {
        this.options = options;
        this.bufferSize = options.bufferSize ?? DefaultWatchBufferSize;
    }
    /** subscribe registers a new watch. Call it in the same synchronous block as the read of
     * `backlog`, so no event can fall between the two. */
    subscribe(options) {
        const watch = new QueuedWatch(options.backlog, {
            namespace: options.namespace,
            afterRevision: options.afterRevision,
            bufferSize: options.bufferSize ?? this.bufferSize,
            currentRevision: this.options.currentRevision,
            onEnd: (ended) => this.remove(options.resource, ended),
        });
        let watches = this.byResource.get(options.resource);
        if (watches === undefined) {
            watches = new Set();
            this.byResource.set(options.resource, watches);
        }
        watches.add(watch);
        return watch;
    }
    /** publish queues `event` on every matching watch and wakes it. */
    publish(event) {
        const watches = this.byResource.get(event.ref.resource);
        if (watches === undefined)
            return;
        // NOTE: offer() may end a watch, which removes it from this set; deleting the
        // current element while iterating a Set is safe.
        for (const watch of watches)
            watch.offer(event);
    }
    /** closeAll ends every watch with `reason`. */
    closeAll(reason) {
        for (const watches of [...this.byResource.values()]) {
            for (const watch of [...watches])
                watch.end(reason);
        }
    }
    /** watchCount is the number of live watches (for tests and metrics). */
    get watchCount() {
        let count = 0;
        for (const watches of this.byResource.values())
            count += watches.size;
        return count;
    }
    remove(resource, watch) {
        const watches = this.byResource.get(resource);
        watches?.delete(watch);
        if (watches?.size === 0)
            this.byResource.delete(resource);
    }
}
/**
 * QueuedWatch is one watcher's queue.
 *
 * Invariants: `queue[head..]` is undelivered, in revision order; its first
 * `backlogLeft` entries are the replay read at subscribe time, which do not count against
 * `bufferSize` (a watch from an old revision must not be cut off by its own replay);
 * once `endReason` is set the queue is empty and stays empty.
 */
class QueuedWatch {
    options;
    endReason;
    queue;
    head = 0;
    backlogLeft;
    waiters = [];
    constructor(backlog, options) {
        this.options = options;
        this.queue = [...backlog];
        this.backlogLeft = this.queue.length;
    }
    offer(event) {
        const { namespace, afterRevision } = this.options;
        if (event.revision <= afterRevision)
            return;
        if (namespace !== undefined && event.ref.namespace !== namespace)
            return;
        this.enqueue(event);
    }
    requestBookmark() {
        if (this.endReason !== undefined)
            return;
        this.enqueue({ type: 'BOOKMARK', revision: this.options.currentRevision() });
    }
    close() {
        this.end('closed');
    }
    end(reason) {
        if (this.endReason !== undefined)
            return;
        this.endReason = reason;
        this.queue = [];
        this.head = 0;
        this.backlogLeft = 0;
        this.options.onEnd(this);
        this.wake();
    }
    async next() {
        for (;;) {
            const message = this.shift();
            if (message !== undefined)
                return { value: decode(message), done: false };
            if (this.endReason !== undefined)
                return { value: undefined, done: true };
            await new Promise((resolve) => this.waiters.push(resolve));
        }
    }
    async return() {
        this.close();
        return { value: undefined, done: true };
    }
    [Symbol.asyncIterator]() {
        return this;
    }
    enqueue(message) {
        const live = this.queue.length - this.head - this.backlogLeft;
        if (live >= this.options.bufferSize) {
            this.end('too-slow');
            return;
        }
        this.queue.push(message);
        this.wake();
    }
    shift() {
        if (this.head >= this.queue.length)
            return undefined;
        const message = this.queue[this.head];
        this.queue[this.head] = undefined; // let the body be collected
        this.head++;
        if (this.backlogLeft > 0)
            this.backlogLeft--;
        // Reclaim the consumed prefix once it dominates, keeping shift amortised O(1).
        if (this.head > 1024 && this.head * 2 > this.queue.length) {
            this.queue = this.queue.slice(this.head);
            this.head = 0;
        }
        return message;
    }
    wake() {
        if (this.waiters.length === 0)
            return;
        const waiters = this.waiters;
        this.waiters = [];
        for (const resolve of waiters)
            resolve();
    }
}
function decode(message) {
    if (message.type === 'BOOKMARK')
        return { type: 'BOOKMARK', revision: message.revision };
    const event = {
        type: message.type,
        revision: message.revision,
        ref: { ...message.ref },
        object: JSON.parse(message.body),
    };
    if (message.prevBody !== undefined) {
        event.prevObject = JSON.parse(message.prevBody);
    }
    return event;
}
//# sourceMappingURL=watch-hub.js.map