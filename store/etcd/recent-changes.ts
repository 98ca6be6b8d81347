/**
 * RecentChanges holds the last changes an etcd store's own watch delivered, oldest first, as
 * kube-apiserver's watch cache keeps a window of recent events: a watch resumed from a
 * resourceVersion inside the window is replayed from memory, with no read from etcd. Without
 * it every resumed watch read etcd's history from its revision on, blocking the server (the
 * store is synchronous) for as long as that takes — seconds for an informer resuming after a
 * busy minute of a 10,000-pod rollout, past the request timeout, after which the client
 * retried the same read.
 */
import type { EncodedEvent } from '../watch-hub.js';

export class RecentChanges {
  private events: EncodedEvent[] = [];
  /** Every change after this revision is held (none before it is). */
  private heldAfter: number;

  constructor(
    private readonly capacity: number,
    openedAt: number,
  ) {
    this.heldAfter = openedAt;
  }

  /** The revision after which every change is held. */
  get since(): number {
    return this.heldAfter;
  }

  /** covers: whether every change after `revision` is held. */
  covers(revision: number): boolean {
    return revision >= this.heldAfter;
  }

  /** add appends the next change (revisions only grow), forgetting the oldest past capacity. */
  add(event: EncodedEvent): void {
    this.events.push(event);
    // Dropped in batches, so that forgetting costs O(1) per change.
    if (this.events.length > this.capacity + this.capacity / 4) {
      const dropped = this.events.length - this.capacity;
      this.heldAfter = this.events[dropped - 1]!.revision;
      this.events = this.events.slice(dropped);
    }
  }

  /** after lists the held changes after `revision` (which covers() must accept), in order. */
  after(revision: number): EncodedEvent[] {
    let low = 0;
    let high = this.events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.events[middle]!.revision <= revision) low = middle + 1;
      else high = middle;
    }
    return this.events.slice(low);
  }

  /** forget drops everything: the watch feeding the window broke, so it may have a gap. */
  forget(): void {
    this.events = [];
    this.heldAfter = Number.MAX_SAFE_INTEGER;
  }
}
