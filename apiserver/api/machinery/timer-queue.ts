/**
 * TimerQueue holds the pending timers of a clock in firing order: earliest due time first,
 * ties in creation order. It is a binary min-heap with lazy cancellation (a cancelled timer
 * stays in the heap, marked, until it reaches the top or the heap is rebuilt), so add,
 * cancel and shift are O(log n) with thousands of requeues and resyncs pending.
 */

/** QueuedTimer is one pending callback. */
export interface QueuedTimer {
  readonly dueMs: number;
  /** Creation order: breaks ties between timers due at the same moment. */
  readonly seq: number;
  readonly fn: () => void;
  /** True once cancelled or fired: no longer pending. */
  cancelled: boolean;
}

/** Rebuild once cancelled entries outnumber live ones (and the heap is not tiny). */
const REBUILD_MIN_SIZE = 64;

export class TimerQueue {
  private heap: QueuedTimer[] = [];
  private live = 0;
  private seq = 0;

  /** Number of timers neither fired nor cancelled. */
  get size(): number {
    return this.live;
  }

  /** The sequence number the next timer will get: timers created from now on have seq ≥ it. */
  get nextSeq(): number {
    return this.seq;
  }

  /** add queues `fn` at `dueMs`; the returned cancel() is idempotent and a no-op once fired. */
  add(dueMs: number, fn: () => void): { timer: QueuedTimer; cancel: () => void } {
    const timer: QueuedTimer = { dueMs, seq: this.seq++, fn, cancelled: false };
    this.heap.push(timer);
    this.siftUp(this.heap.length - 1);
    this.live++;
    return { timer, cancel: () => this.cancel(timer) };
  }

  /** peek returns the earliest live timer without removing it. */
  peek(): QueuedTimer | undefined {
    this.dropCancelledTop();
    return this.heap[0];
  }

  /**
   * shift removes and returns the earliest live timer if it is due at or before `limitMs`
   * and was created before sequence `seqLimit`, so a batch leaves out the timers its own
   * callbacks set. (Those are due no earlier than the batch's time, so no older due timer
   * can sit behind one of them.)
   */
  shift(limitMs: number, seqLimit = Number.POSITIVE_INFINITY): QueuedTimer | undefined {
    const top = this.peek();
    if (!top || top.dueMs > limitMs || top.seq >= seqLimit) return undefined;
    // Fired counts as cancelled: a later cancel() of a fired timer is a no-op.
    top.cancelled = true;
    this.live--;
    this.removeTop();
    return top;
  }

  private cancel(timer: QueuedTimer): void {
    if (timer.cancelled) return;
    timer.cancelled = true;
    this.live--;
    if (this.heap.length >= REBUILD_MIN_SIZE && this.live * 2 < this.heap.length) this.rebuild();
  }

  private dropCancelledTop(): void {
    while (this.heap.length > 0 && this.heap[0]!.cancelled) this.removeTop();
  }

  private removeTop(): void {
    const last = this.heap.pop()!;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.siftDown(0);
    }
  }

  private rebuild(): void {
    this.heap = this.heap.filter((t) => !t.cancelled);
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private siftUp(index: number): void {
    const heap = this.heap;
    const item = heap[index]!;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(item, heap[parent]!)) break;
      heap[index] = heap[parent]!;
      index = parent;
    }
    heap[index] = item;
  }

  private siftDown(index: number): void {
    const heap = this.heap;
    const item = heap[index]!;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && before(heap[child + 1]!, heap[child]!)) child++;
      if (!before(heap[child]!, item)) break;
      heap[index] = heap[child]!;
      index = child;
    }
    heap[index] = item;
  }
}

function before(a: QueuedTimer, b: QueuedTimer): boolean {
  return a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.seq < b.seq);
}
