/**
 * List functions: Kubernetes' lists library (isSorted, sum, min, max, indexOf, lastIndexOf),
 * cel-go's lists extension (slice, flatten, distinct, reverse, sort, first, last, lists.range;
 * sortBy is a macro in the interpreter) and the sets extension (sets.contains,
 * sets.equivalent, sets.intersects).
 */
import { CelEvalError } from '../errors.js';
import { type CallContext, type FunctionRegistry, global, member } from '../functions.js';
import { checkDuration } from '../time-format.js';
import { T } from '../types.js';
import { CelDuration, CelList, CelOptional, CelUint, type CelValue, celCompare, celEquals, checkInt, checkUint, typeNameOf } from '../values.js';

const itemsOf = (v: CelValue | undefined): readonly CelValue[] => (v as CelList).items;

function charged(ctx: CallContext, list: CelValue | undefined): readonly CelValue[] {
  const items = itemsOf(list);
  ctx.charge(items.length);
  return items;
}

function isSorted(items: readonly CelValue[]): boolean {
  for (let i = 1; i < items.length; i++) {
    if ((celCompare(items[i - 1]!, items[i]!) ?? 0) > 0) return false;
  }
  return true;
}

function sum(items: readonly CelValue[]): CelValue {
  const first = items[0];
  if (first === undefined) return 0n;
  if (typeof first === 'number') return items.reduce<number>((a, v) => a + (v as number), 0);
  if (first instanceof CelUint) return items.reduce<CelUint>((a, v) => checkUint(a.value + (v as CelUint).value), new CelUint(0n));
  if (first instanceof CelDuration) return items.reduce<CelDuration>((a, v) => checkDuration(a.ns + (v as CelDuration).ns), new CelDuration(0n));
  return items.reduce<bigint>((a, v) => {
    if (typeof v !== 'bigint') throw new CelEvalError('no such overload');
    return checkInt(a + v);
  }, 0n);
}

function extreme(items: readonly CelValue[], name: 'min' | 'max'): CelValue {
  if (items.length === 0) throw new CelEvalError(`${name} called on empty list`);
  return items.reduce((best, v) => {
    const c = celCompare(v, best) ?? 0;
    return (name === 'min' ? c < 0 : c > 0) ? v : best;
  });
}

function slice(items: readonly CelValue[], start: bigint, end: bigint): CelList {
  if (start < 0n || end < 0n) throw new CelEvalError(`cannot slice(${start}, ${end}), negative indexes not supported`);
  if (start > end) throw new CelEvalError(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`);
  if (end > BigInt(items.length)) throw new CelEvalError(`cannot slice(${start}, ${end}), list is length ${items.length}`);
  return new CelList(items.slice(Number(start), Number(end)));
}

function flatten(items: readonly CelValue[], depth: bigint): CelList {
  if (depth < 0n) throw new CelEvalError('level must be non-negative');
  const out: CelValue[] = [];
  for (const v of items) {
    if (v instanceof CelList && depth > 0n) out.push(...flatten(v.items, depth - 1n).items);
    else out.push(v);
  }
  return new CelList(out);
}

function distinct(items: readonly CelValue[]): CelList {
  const out: CelValue[] = [];
  for (const v of items) if (!out.some((e) => celEquals(e, v))) out.push(v);
  return new CelList(out);
}

/** sortValues sorts comparable values of one type; throws for mixed or unordered types. */
export function sortValues<V>(entries: readonly V[], key: (v: V) => CelValue): V[] {
  const first = entries[0];
  if (first !== undefined) {
    const type = typeNameOf(key(first));
    for (const e of entries) {
      const t = typeNameOf(key(e));
      if (t !== type) throw new CelEvalError(`list elements must have the same type: expected type '${type}' but found '${t}'`);
    }
  }
  return [...entries].sort((a, b) => celCompare(key(a), key(b)) ?? 0);
}

function range(n: bigint, ctx: CallContext): CelList {
  ctx.charge(Number(n > 0n ? n : 0n));
  const out: bigint[] = [];
  for (let i = 0n; i < n; i++) out.push(i);
  return new CelList(out);
}

/** registerLists adds the list and set functions to a registry. */
export function registerLists(registry: FunctionRegistry): void {
  const list = T.list(T.A);
  registry.add(
    'isSorted',
    member([list], T.bool, ([l], ctx) => isSorted(charged(ctx, l))),
  );
  registry.add(
    'sum',
    member([list], T.A, ([l], ctx) => sum(charged(ctx, l))),
  );
  registry.add(
    'min',
    member([list], T.A, ([l], ctx) => extreme(charged(ctx, l), 'min')),
  );
  registry.add(
    'max',
    member([list], T.A, ([l], ctx) => extreme(charged(ctx, l), 'max')),
  );
  registry.add(
    'indexOf',
    member([list, T.A], T.int, ([l, v], ctx) => BigInt(charged(ctx, l).findIndex((e) => celEquals(e, v!)))),
  );
  registry.add(
    'lastIndexOf',
    member([list, T.A], T.int, ([l, v], ctx) => BigInt(charged(ctx, l).findLastIndex((e) => celEquals(e, v!)))),
  );
  registry.add(
    'slice',
    member([list, T.int, T.int], list, ([l, a, b]) => slice(itemsOf(l), a as bigint, b as bigint)),
  );
  registry.add(
    'flatten',
    member([T.list(T.dyn)], T.list(T.dyn), ([l], ctx) => flatten(charged(ctx, l), 1n)),
    member([T.list(T.dyn), T.int], T.list(T.dyn), ([l, d], ctx) => flatten(charged(ctx, l), d as bigint)),
  );
  registry.add(
    'distinct',
    member([list], list, ([l], ctx) => distinct(charged(ctx, l))),
  );
  registry.add(
    'reverse',
    member([list], list, ([l], ctx) => new CelList([...charged(ctx, l)].reverse())),
  );
  registry.add(
    'sort',
    member([list], list, ([l], ctx) => new CelList(sortValues(charged(ctx, l), (v) => v))),
  );
  registry.add(
    'first',
    member([list], T.optional(T.A), ([l]) => (itemsOf(l).length ? CelOptional.of(itemsOf(l)[0]!) : CelOptional.none)),
  );
  registry.add(
    'last',
    member([list], T.optional(T.A), ([l]) => (itemsOf(l).length ? CelOptional.of(itemsOf(l).at(-1)!) : CelOptional.none)),
  );
  registry.add(
    'lists.range',
    global([T.int], T.list(T.int), ([n], ctx) => range(n as bigint, ctx)),
  );
  const containsAll = (a: CelValue, b: CelValue): boolean => itemsOf(b).every((v) => (a as CelList).contains(v));
  registry.add(
    'sets.contains',
    global([list, list], T.bool, ([a, b], ctx) => (ctx.charge(itemsOf(a).length * itemsOf(b).length), containsAll(a!, b!))),
  );
  registry.add(
    'sets.equivalent',
    global([list, list], T.bool, ([a, b], ctx) => (ctx.charge(itemsOf(a).length * itemsOf(b).length), containsAll(a!, b!) && containsAll(b!, a!))),
  );
  registry.add(
    'sets.intersects',
    global([list, list], T.bool, ([a, b], ctx) => (ctx.charge(itemsOf(a).length * itemsOf(b).length), itemsOf(b).some((v) => (a as CelList).contains(v)))),
  );
}
