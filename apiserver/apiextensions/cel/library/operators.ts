/**
 * The standard operators: arithmetic with int64/uint64 overflow errors, IEEE doubles,
 * concatenation of strings, bytes and lists, timestamp/duration arithmetic, comparisons (with
 * cross-type numeric ordering, as Kubernetes enables), equality, `in` and logical not. `&&`,
 * `||`, `?:` and indexing are evaluated by the interpreter itself because of their special
 * error and short-circuit rules.
 */
import { CelEvalError } from '../errors.js';
import { type CallContext, type FunctionRegistry, global, type Overload } from '../functions.js';
import { checkDuration, checkTimestamp } from '../time-format.js';
import { type CelType, T } from '../types.js';
import {
  type CelDuration,
  CelList,
  type CelMap,
  type CelTimestamp,
  CelUint,
  type CelValue,
  celCompare,
  celEquals,
  checkInt,
  checkUint,
  INT64_MIN,
} from '../values.js';

type Binary<A, B = A> = (a: A, b: B) => CelValue;

function op<A, B = A>(a: CelType, b: CelType, result: CelType, fn: Binary<A, B>): Overload {
  return global([a, b], result, ([x, y]) => fn(x as A, y as B));
}

const uintOf = (u: CelUint): bigint => u.value;

const sizeOf = (v: CelValue | undefined): number => (typeof v === 'string' || v instanceof Uint8Array ? v.length : v instanceof CelList ? v.size : 0);

function chargeSize(ctx: CallContext, a: CelValue | undefined, b: CelValue | undefined): void {
  ctx.charge(Math.ceil((sizeOf(a) + sizeOf(b)) * 0.1));
}

/** registerOperators adds the operator functions to a registry. */
export function registerOperators(registry: FunctionRegistry): void {
  registerAdditive(registry);
  registerMultiplicative(registry);
  registerComparisons(registry);
  registry.add(
    '_==_',
    global([T.A, T.A], T.bool, ([a, b], ctx) => (chargeSize(ctx, a, b), celEquals(a!, b!))),
  );
  registry.add(
    '_!=_',
    global([T.A, T.A], T.bool, ([a, b], ctx) => (chargeSize(ctx, a, b), !celEquals(a!, b!))),
  );
  registry.add(
    '!_',
    global([T.bool], T.bool, ([a]) => !a),
  );
  registry.add(
    '@in',
    op<CelValue, CelList>(T.A, T.list(T.A), T.bool, (v, list) => list.contains(v)),
    op<CelValue, CelMap>(T.A, T.map(T.A, T.B), T.bool, (k, map) => map.get(k) !== undefined),
  );
}

/** `+` and `-`. */
function registerAdditive(registry: FunctionRegistry): void {
  registry.add(
    '_+_',
    op<bigint>(T.int, T.int, T.int, (a, b) => checkInt(a + b)),
    op<CelUint>(T.uint, T.uint, T.uint, (a, b) => checkUint(uintOf(a) + uintOf(b))),
    op<number>(T.double, T.double, T.double, (a, b) => a + b),
    // Concatenation charges for the size of its result before building it, which bounds the
    // memory a rule can allocate by its cost limit.
    global([T.string, T.string], T.string, ([a, b], ctx) => (chargeSize(ctx, a, b), (a as string) + (b as string))),
    global([T.bytes, T.bytes], T.bytes, ([a, b], ctx) => (chargeSize(ctx, a, b), Uint8Array.from([...(a as Uint8Array), ...(b as Uint8Array)]))),
    global([T.list(T.A), T.list(T.A)], T.list(T.A), ([a, b], ctx) => (chargeSize(ctx, a, b), (a as CelList).concat(b as CelList))),
    op<CelTimestamp, CelDuration>(T.timestamp, T.duration, T.timestamp, (t, d) => checkTimestamp(t.ns + d.ns, t.offsetSeconds)),
    op<CelDuration, CelTimestamp>(T.duration, T.timestamp, T.timestamp, (d, t) => checkTimestamp(t.ns + d.ns, t.offsetSeconds)),
    op<CelDuration>(T.duration, T.duration, T.duration, (a, b) => checkDuration(a.ns + b.ns)),
  );
  registry.add(
    '_-_',
    op<bigint>(T.int, T.int, T.int, (a, b) => checkInt(a - b)),
    op<CelUint>(T.uint, T.uint, T.uint, (a, b) => checkUint(uintOf(a) - uintOf(b))),
    op<number>(T.double, T.double, T.double, (a, b) => a - b),
    op<CelTimestamp>(T.timestamp, T.timestamp, T.duration, (a, b) => checkDuration(a.ns - b.ns)),
    op<CelTimestamp, CelDuration>(T.timestamp, T.duration, T.timestamp, (t, d) => checkTimestamp(t.ns - d.ns, t.offsetSeconds)),
    op<CelDuration>(T.duration, T.duration, T.duration, (a, b) => checkDuration(a.ns - b.ns)),
  );
}

/** `*`, `/`, `%` and unary minus. */
function registerMultiplicative(registry: FunctionRegistry): void {
  registry.add(
    '_*_',
    op<bigint>(T.int, T.int, T.int, (a, b) => checkInt(a * b)),
    op<CelUint>(T.uint, T.uint, T.uint, (a, b) => checkUint(uintOf(a) * uintOf(b))),
    op<number>(T.double, T.double, T.double, (a, b) => a * b),
  );
  registry.add(
    '_/_',
    op<bigint>(T.int, T.int, T.int, (a, b) => {
      if (b === 0n) throw new CelEvalError('division by zero');
      return checkInt(a / b);
    }),
    op<CelUint>(T.uint, T.uint, T.uint, (a, b) => {
      if (b.value === 0n) throw new CelEvalError('division by zero');
      return new CelUint(a.value / b.value);
    }),
    op<number>(T.double, T.double, T.double, (a, b) => a / b),
  );
  registry.add(
    '_%_',
    op<bigint>(T.int, T.int, T.int, (a, b) => {
      if (b === 0n) throw new CelEvalError('modulus by zero');
      if (a === INT64_MIN && b === -1n) throw new CelEvalError('integer overflow');
      return a % b;
    }),
    op<CelUint>(T.uint, T.uint, T.uint, (a, b) => {
      if (b.value === 0n) throw new CelEvalError('modulus by zero');
      return new CelUint(a.value % b.value);
    }),
  );
  registry.add(
    '-_',
    global([T.int], T.int, ([a]) => checkInt(-(a as bigint))),
    global([T.double], T.double, ([a]) => -(a as number)),
    global([T.duration], T.duration, ([d]) => checkDuration(-(d as CelDuration).ns)),
  );
}

const ORDERED_PAIRS: ReadonlyArray<readonly [CelType, CelType]> = [
  [T.int, T.int],
  [T.uint, T.uint],
  [T.double, T.double],
  [T.string, T.string],
  [T.bytes, T.bytes],
  [T.bool, T.bool],
  [T.timestamp, T.timestamp],
  [T.duration, T.duration],
  [T.int, T.double],
  [T.double, T.int],
  [T.int, T.uint],
  [T.uint, T.int],
  [T.uint, T.double],
  [T.double, T.uint],
];

function registerComparisons(registry: FunctionRegistry): void {
  const tests: Record<string, (c: -1 | 0 | 1) => boolean> = {
    '_<_': (c) => c < 0,
    '_<=_': (c) => c <= 0,
    '_>_': (c) => c > 0,
    '_>=_': (c) => c >= 0,
  };
  for (const [name, test] of Object.entries(tests)) {
    for (const [a, b] of ORDERED_PAIRS) {
      registry.add(
        name,
        op<CelValue>(a, b, T.bool, (x, y) => {
          const c = celCompare(x, y);
          return c !== undefined && test(c);
        }),
      );
    }
  }
}
