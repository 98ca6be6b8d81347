/**
 * A binary min-heap ordered by a comparator (the active queue's priority order). Small on
 * purpose: push, pop, peek, size. Items removed elsewhere are skipped lazily by the caller.
 */
/** Heap knows how to hand out its smallest item first (per `less`). */
export class Heap {
    less;
    items = [];
    /** `less(a, b)` is true when `a` must come out before `b`. */
    constructor(less) {
        this.less = less;
    }
    get size() {
        return this.items.length;
    }
    push(item) {
        this.items.push(item);
        this.up(this.items.length - 1);
    }
    peek() {
        return this.items[0];
    }
    pop() {
        const top = this.items[0];
        const last = this.items.pop();
        if (this.items.length > 0 && last !== undefined) {
            this.items[0] = last;
            this.down(0);
        }
        return top;
    }
    up(index) {
        let i = index;
        while (i > 0) {
            const parent = (i - 1) >> 1;
            if (!this.less(this.at(i), this.at(parent)))
                return;
            this.swap(i, parent);
            i = parent;
        }
    }
    down(index) {
        let i = index;
        for (;;) {
            const left = 2 * i + 1;
            const right = left + 1;
            let smallest = i;
            if (left < this.items.length && this.less(this.at(left), this.at(smallest)))
                smallest = left;
            if (right < this.items.length && this.less(this.at(right), this.at(smallest)))
                smallest = right;
            if (smallest === i)
                return;
            this.swap(i, smallest);
            i = smallest;
        }
    }
    at(index) {
        return this.items[index];
    }
    swap(a, b) {
        const item = this.at(a);
        this.items[a] = this.at(b);
        this.items[b] = item;
    }
}
//# sourceMappingURL=heap.js.map