/**
 * A binary min-heap ordered by a comparator (the active queue's priority order). Small on
 * purpose: push, pop, peek, size. Items removed elsewhere are skipped lazily by the caller.
 */

/** Heap knows how to hand out its smallest item first (per `less`). */
export class Heap<T> {
  private readonly items: T[] = [];

  /** `less(a, b)` is true when `a` must come out before `b`. */
  constructor(private readonly less: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    this.items.push(item);
    this.up(this.items.length - 1);
  }

  peek(): T | undefined {
    return this.items[0];
  }

  pop(): T | undefined {
    const top = this.items[0];
    const last = this.items.pop();
    if (this.items.length > 0 && last !== undefined) {
      this.items[0] = last;
      this.down(0);
    }
    return top;
  }

  private up(index: number): void {
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(this.at(i), this.at(parent))) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(index: number): void {
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < this.items.length && this.less(this.at(left), this.at(smallest))) smallest = left;
      if (right < this.items.length && this.less(this.at(right), this.at(smallest))) smallest = right;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }

  private at(index: number): T {
    return this.items[index] as T;
  }

  private swap(a: number, b: number): void {
    const item = this.at(a);
    this.items[a] = this.at(b);
    this.items[b] = item;
  }
}
