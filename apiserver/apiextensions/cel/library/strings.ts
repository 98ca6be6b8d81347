/**
 * String functions: the standard size/contains/startsWith/endsWith and cel-go's strings
 * extension (version 2, as Kubernetes uses): charAt, indexOf, lastIndexOf, lowerAscii,
 * upperAscii, replace, split, substring, trim, join, strings.quote and format. Indexes count
 * code points. String scans charge cost proportional to length.
 */

import { goQuote } from '../../../api/machinery/go-quote.js';
import { CelEvalError } from '../errors.js';
import { type CallContext, type FunctionRegistry, global, member } from '../functions.js';
import { codePointLength, codePoints } from '../text.js';
import { T } from '../types.js';
import { CelList, CelMap, type CelValue } from '../values.js';
import { formatString } from './format.js';

/** Leading and trailing Unicode white space, as Go's strings.TrimSpace removes it. */
const GO_SPACE_EDGES =
  /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

const outOfRange = (i: bigint | number): CelEvalError => new CelEvalError(`index out of range: ${i}`);

/** scanCost charges for reading strings: one unit per ten characters, as cel-go estimates. */
function scanCost(ctx: CallContext, ...texts: string[]): void {
  ctx.charge(Math.ceil(texts.reduce((n, t) => n + t.length, 0) * 0.1));
}

function indexOf(s: string, sub: string, from: number): number {
  const chars = codePoints(s);
  const needle = codePoints(sub);
  if (from < 0 || from > chars.length) throw outOfRange(from);
  for (let i = from; i + needle.length <= chars.length; i++) {
    if (needle.every((c, j) => chars[i + j] === c)) return i;
  }
  return -1;
}

function lastIndexOf(s: string, sub: string, from?: number): number {
  const chars = codePoints(s);
  const needle = codePoints(sub);
  const start = from ?? chars.length;
  if (start < 0 || start > chars.length) throw outOfRange(start);
  for (let i = Math.min(start, chars.length - needle.length); i >= 0; i--) {
    if (needle.every((c, j) => chars[i + j] === c)) return i;
  }
  return -1;
}

/** Go's strings.Replace(s, old, new, n): n < 0 replaces all; an empty `old` matches between
 * every code point. The result's size is charged before it is built. */
function replace(s: string, from: string, to: string, n: number, ctx: CallContext): string {
  if (n === 0 || from === to) return s;
  const occurrences = from === '' ? codePointLength(s) + 1 : s.split(from).length - 1;
  const replaced = n < 0 ? occurrences : Math.min(n, occurrences);
  ctx.charge(Math.ceil((s.length + replaced * to.length) * 0.1));
  if (from === '') {
    const chars = codePoints(s);
    let out = '';
    let done = 0;
    for (let i = 0; i <= chars.length; i++) {
      if (n < 0 || done < n) {
        out += to;
        done++;
      }
      out += chars[i] ?? '';
    }
    return out;
  }
  const parts = s.split(from);
  if (n < 0 || n >= parts.length - 1) return parts.join(to);
  return parts.slice(0, n + 1).join(to) + from + parts.slice(n + 1).join(from);
}

/** Go's strings.SplitN: n < 0 means all, 0 gives an empty list, an empty separator splits into
 * code points. */
function split(s: string, sep: string, n: number): CelList {
  if (n === 0) return new CelList([]);
  const parts = sep === '' ? codePoints(s) : s.split(sep);
  if (n < 0 || parts.length <= n) return new CelList(parts);
  const head = parts.slice(0, n - 1);
  return new CelList([...head, parts.slice(n - 1).join(sep)]);
}

function substring(s: string, start: bigint, end?: bigint): string {
  const chars = codePoints(s);
  const len = BigInt(chars.length);
  if (start < 0n || start > len) throw outOfRange(start);
  const stop = end ?? len;
  if (stop < 0n || stop > len) throw outOfRange(stop);
  if (start > stop) throw new CelEvalError(`invalid substring range. start: ${start}, end: ${stop}`);
  return chars.slice(Number(start), Number(stop)).join('');
}

function charAt(s: string, i: bigint): string {
  const chars = codePoints(s);
  if (i < 0n || i > BigInt(chars.length)) throw outOfRange(i);
  return chars[Number(i)] ?? '';
}

function join(list: CelList, sep: string): string {
  return list.items
    .map((v) => {
      if (typeof v !== 'string') throw new CelEvalError('join: list contains a non-string element');
      return v;
    })
    .join(sep);
}

const asciiCase = (s: string, upper: boolean): string => s.replace(upper ? /[a-z]+/g : /[A-Z]+/g, (m) => (upper ? m.toUpperCase() : m.toLowerCase()));

/** registerStrings adds the string functions to a registry. */
export function registerStrings(registry: FunctionRegistry): void {
  const size = (v: CelValue): bigint => {
    if (typeof v === 'string') return BigInt(codePointLength(v));
    if (v instanceof Uint8Array) return BigInt(v.length);
    if (v instanceof CelList || v instanceof CelMap) return BigInt(v.size);
    throw new CelEvalError('no such overload');
  };
  for (const t of [T.string, T.bytes, T.list(T.A), T.map(T.A, T.B)]) {
    registry.add(
      'size',
      global([t], T.int, ([v]) => size(v!)),
      member([t], T.int, ([v]) => size(v!)),
    );
  }
  const predicate = (name: string, test: (s: string, x: string) => boolean): void => {
    registry.add(
      name,
      member([T.string, T.string], T.bool, ([s, x], ctx) => {
        scanCost(ctx, s as string, x as string);
        return test(s as string, x as string);
      }),
    );
  };
  predicate('contains', (s, x) => s.includes(x));
  predicate('startsWith', (s, x) => s.startsWith(x));
  predicate('endsWith', (s, x) => s.endsWith(x));
  registerExtensions(registry);
}

function registerExtensions(registry: FunctionRegistry): void {
  const str = T.string;
  registry.add(
    'charAt',
    member([str, T.int], str, ([s, i]) => charAt(s as string, i as bigint)),
  );
  registry.add(
    'indexOf',
    member([str, str], T.int, ([s, x], ctx) => (scanCost(ctx, s as string), BigInt(indexOf(s as string, x as string, 0)))),
    member([str, str, T.int], T.int, ([s, x, i], ctx) => (scanCost(ctx, s as string), BigInt(indexOf(s as string, x as string, Number(i))))),
  );
  registry.add(
    'lastIndexOf',
    member([str, str], T.int, ([s, x], ctx) => (scanCost(ctx, s as string), BigInt(lastIndexOf(s as string, x as string)))),
    member([str, str, T.int], T.int, ([s, x, i], ctx) => (scanCost(ctx, s as string), BigInt(lastIndexOf(s as string, x as string, Number(i))))),
  );
  registry.add(
    'lowerAscii',
    member([str], str, ([s]) => asciiCase(s as string, false)),
  );
  registry.add(
    'upperAscii',
    member([str], str, ([s]) => asciiCase(s as string, true)),
  );
  registry.add(
    'replace',
    member([str, str, str], str, ([s, a, b], ctx) => replace(s as string, a as string, b as string, -1, ctx)),
    member([str, str, str, T.int], str, ([s, a, b, n], ctx) => replace(s as string, a as string, b as string, Number(n), ctx)),
  );
  registry.add(
    'split',
    member([str, str], T.list(str), ([s, sep], ctx) => (scanCost(ctx, s as string), split(s as string, sep as string, -1))),
    member([str, str, T.int], T.list(str), ([s, sep, n], ctx) => (scanCost(ctx, s as string), split(s as string, sep as string, Number(n)))),
  );
  registry.add(
    'substring',
    member([str, T.int], str, ([s, a]) => substring(s as string, a as bigint)),
    member([str, T.int, T.int], str, ([s, a, b]) => substring(s as string, a as bigint, b as bigint)),
  );
  registry.add(
    'trim',
    member([str], str, ([s]) => (s as string).replace(GO_SPACE_EDGES, '')),
  );
  registry.add(
    'join',
    member([T.list(str)], str, ([l]) => join(l as CelList, '')),
    member([T.list(str), str], str, ([l, sep]) => join(l as CelList, sep as string)),
  );
  registry.add(
    'strings.quote',
    global([str], str, ([s]) => goQuote(s as string)),
  );
  registry.add(
    'format',
    member([str, T.list(T.dyn)], str, ([s, args], ctx) => (scanCost(ctx, s as string), formatString(s as string, (args as CelList).items))),
  );
}
