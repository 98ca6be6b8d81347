/**
 * Compilation of an RE2 syntax tree into a Thompson NFA program and its simulation by a Pike VM:
 * matching takes time linear in the input (times the pattern size), as RE2 guarantees, so no
 * pattern and input can make it backtrack exponentially. Matches are leftmost-first with Perl's
 * preference for greedy or lazy repetitions, as Go's regexp does. Positions are code points.
 */
import { parseRe2 } from './parse.js';
import { type AssertKind, type CharTest, isWordChar, type Node, RegexSyntaxError } from './syntax.js';

type Inst =
  | { op: 'char'; test: CharTest; next: number }
  | { op: 'split'; x: number; y: number }
  | { op: 'assert'; what: AssertKind; next: number }
  | { op: 'match' };

/** Programs larger than this are rejected, as RE2 rejects oversized expressions. */
const MAX_INSTRUCTIONS = 20_000;

/** Re2Program is a compiled pattern; immutable and reusable. */
export class Re2Program {
  private readonly insts: Inst[] = [{ op: 'match' }];
  private readonly start: number;

  /** The constructor parses and compiles; throws RegexSyntaxError. */
  constructor(readonly pattern: string) {
    this.start = this.emit(parseRe2(pattern), 0);
  }

  /** Emits `node` so that on success it continues at `next`; returns its entry point. */
  private emit(node: Node, next: number): number {
    switch (node.kind) {
      case 'empty':
        return next;
      case 'char':
      case 'assert':
        return this.push(node.kind === 'char' ? { op: 'char', test: node.test, next } : { op: 'assert', what: node.what, next });
      case 'cat':
        return node.items.reduceRight((n, item) => this.emit(item, n), next);
      case 'alt': {
        const entries = node.items.map((item) => this.emit(item, next));
        return entries.reduceRight((rest, entry) => this.push({ op: 'split', x: entry, y: rest }));
      }
      case 'repeat':
        return this.emitRepeat(node, next);
    }
  }

  private emitRepeat(node: Extract<Node, { kind: 'repeat' }>, next: number): number {
    let entry: number;
    if (node.max === Infinity) {
      // loop: split(body → loop, next)
      const loop = this.push({ op: 'split', x: next, y: next });
      const body = this.emit(node.node, loop);
      this.insts[loop] = node.greedy ? { op: 'split', x: body, y: next } : { op: 'split', x: next, y: body };
      entry = loop;
    } else {
      entry = next;
      for (let i = node.min; i < node.max; i++) {
        const body = this.emit(node.node, entry);
        entry = this.push(node.greedy ? { op: 'split', x: body, y: next } : { op: 'split', x: next, y: body });
      }
    }
    for (let i = 0; i < node.min; i++) entry = this.emit(node.node, entry);
    return entry;
  }

  private push(inst: Inst): number {
    if (this.insts.length >= MAX_INSTRUCTIONS) throw new RegexSyntaxError('expression too large', this.pattern);
    this.insts.push(inst);
    return this.insts.length - 1;
  }

  /** test reports whether the pattern matches anywhere in the input. */
  test(input: string): boolean {
    return this.search(Array.from(input), 0, true) !== undefined;
  }

  /** find returns the leftmost-first match at or after code point `from`, as [start, end). */
  find(chars: readonly string[], from: number): [number, number] | undefined {
    return this.search(chars, from, false);
  }

  private search(chars: readonly string[], from: number, anyMatch: boolean): [number, number] | undefined {
    let current: Array<[pc: number, start: number]> = [];
    let matched: [number, number] | undefined;
    const seen = new Int32Array(this.insts.length).fill(-1);
    for (let pos = from; pos <= chars.length; pos++) {
      if (matched === undefined) this.addThread(current, this.start, pos, pos, chars, seen);
      const next: Array<[number, number]> = [];
      const step = pos + 1;
      for (const [pc, start] of current) {
        const inst = this.insts[pc]!;
        if (inst.op === 'match') {
          matched = [start, pos];
          if (anyMatch) return matched;
          break; // lower-priority threads lose to this match
        }
        if (inst.op === 'char' && pos < chars.length && inst.test(chars[pos]!)) this.addThread(next, inst.next, start, step, chars, seen);
      }
      if (next.length === 0 && matched !== undefined) break;
      current = next;
    }
    return matched;
  }

  /** Adds the thread at `pc` and everything reachable without consuming input, in priority
   * order; `seen` (stamped with the position) keeps each pc once per step. */
  private addThread(list: Array<[number, number]>, pc: number, start: number, pos: number, chars: readonly string[], seen: Int32Array): void {
    const stack = [pc];
    while (stack.length > 0) {
      const at = stack.pop()!;
      if (seen[at] === pos) continue;
      seen[at] = pos;
      const inst = this.insts[at]!;
      if (inst.op === 'split') stack.push(inst.y, inst.x);
      else if (inst.op === 'assert') {
        if (holds(inst.what, chars, pos)) stack.push(inst.next);
      } else list.push([at, start]);
    }
  }
}

function holds(what: AssertKind, chars: readonly string[], pos: number): boolean {
  switch (what) {
    case 'beginText':
      return pos === 0;
    case 'endText':
      return pos === chars.length;
    case 'beginLine':
      return pos === 0 || chars[pos - 1] === '\n';
    case 'endLine':
      return pos === chars.length || chars[pos] === '\n';
    case 'wordBoundary':
      return isWordChar(chars[pos - 1]) !== isWordChar(chars[pos]);
    case 'notWordBoundary':
      return isWordChar(chars[pos - 1]) === isWordChar(chars[pos]);
  }
}
