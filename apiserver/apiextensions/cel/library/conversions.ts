/**
 * Type conversions: int(), uint(), double(), string(), bool(), bytes(), dyn() and type(), with
 * cel-go's range checks and wording ("type conversion error from 'string' to 'int'").
 */
import { CelEvalError } from '../errors.js';
import { type FunctionRegistry, global } from '../functions.js';
import { utf8Decode, utf8Encode } from '../text.js';
import { floorDiv, formatDuration, formatTimestamp } from '../time-format.js';
import { T } from '../types.js';
import {
  CelDuration,
  CelTimestamp,
  CelTypeValue,
  CelUint,
  type CelValue,
  checkInt,
  checkUint,
  INT64_MAX,
  INT64_MIN,
  typeNameOf,
  UINT64_MAX,
} from '../values.js';

const conversionError = (from: string, to: string): CelEvalError => new CelEvalError(`type conversion error from '${from}' to '${to}'`);

/** formatDouble prints a double as Go's %g does, which is cel-go's string(double): the shortest
 * digits that round-trip, in exponent form below 1e-4 and from 1e6 on ("10", "10.5", "1e+06"). */
export function formatDouble(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (!Number.isFinite(d)) return d > 0 ? '+Inf' : '-Inf';
  if (d === 0) return Object.is(d, -0) ? '-0' : '0';
  const [mantissa, exp] = d.toExponential().split('e') as [string, string];
  const exponent = Number(exp);
  if (exponent < -4 || exponent >= 6) {
    const sign = exponent < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return String(d);
}

function doubleToInt(d: number): bigint {
  if (!Number.isFinite(d) || d <= -(2 ** 63) - 1025 || d >= 2 ** 63) throw new CelEvalError('integer overflow');
  const v = BigInt(Math.trunc(d));
  if (v < INT64_MIN || v > INT64_MAX) throw new CelEvalError('integer overflow');
  return v;
}

function doubleToUint(d: number): CelUint {
  if (!Number.isFinite(d) || d < 0 || d >= 2 ** 64) throw new CelEvalError('unsigned integer overflow');
  return new CelUint(BigInt(Math.trunc(d)));
}

function parseIntText(s: string): bigint {
  if (!/^[+-]?\d+$/.test(s)) throw conversionError('string', 'int');
  const v = BigInt(s);
  if (v < INT64_MIN || v > INT64_MAX) throw conversionError('string', 'int');
  return v;
}

function parseUintText(s: string): CelUint {
  if (!/^\+?\d+$/.test(s)) throw conversionError('string', 'uint');
  const v = BigInt(s);
  if (v > UINT64_MAX) throw conversionError('string', 'uint');
  return new CelUint(v);
}

function parseDoubleText(s: string): number {
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return NaN;
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(s)) throw conversionError('string', 'double');
  return Number(s);
}

const BOOL_TEXT: Record<string, boolean> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

/** toCelString is string(v) for every convertible type. */
export function toCelString(v: CelValue): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return formatDouble(v);
  if (v instanceof CelUint) return String(v.value);
  if (v instanceof Uint8Array) {
    const s = utf8Decode(v);
    if (s === undefined) throw new CelEvalError('invalid UTF-8 in bytes, cannot convert to string');
    return s;
  }
  if (v instanceof CelTimestamp) return formatTimestamp(v);
  if (v instanceof CelDuration) return formatDuration(v);
  throw conversionError(typeNameOf(v), 'string');
}

/** registerConversions adds the conversion functions to a registry. */
export function registerConversions(registry: FunctionRegistry): void {
  registry.add(
    'int',
    global([T.int], T.int, ([v]) => v!),
    global([T.uint], T.int, ([v]) => checkInt((v as CelUint).value)),
    global([T.double], T.int, ([v]) => doubleToInt(v as number)),
    global([T.string], T.int, ([v]) => parseIntText(v as string)),
    global([T.timestamp], T.int, ([v]) => floorDiv((v as CelTimestamp).ns, 1_000_000_000n)),
    global([T.duration], T.int, ([v]) => (v as CelDuration).ns),
  );
  registry.add(
    'uint',
    global([T.uint], T.uint, ([v]) => v!),
    global([T.int], T.uint, ([v]) => checkUint(v as bigint)),
    global([T.double], T.uint, ([v]) => doubleToUint(v as number)),
    global([T.string], T.uint, ([v]) => parseUintText(v as string)),
  );
  registry.add(
    'double',
    global([T.double], T.double, ([v]) => v!),
    global([T.int], T.double, ([v]) => Number(v as bigint)),
    global([T.uint], T.double, ([v]) => Number((v as CelUint).value)),
    global([T.string], T.double, ([v]) => parseDoubleText(v as string)),
  );
  registry.add(
    'string',
    ...[T.string, T.int, T.uint, T.double, T.bool, T.bytes, T.timestamp, T.duration].map((t) => global([t], T.string, ([v]) => toCelString(v!))),
  );
  registry.add(
    'bool',
    global([T.bool], T.bool, ([v]) => v!),
    global([T.string], T.bool, ([v]) => {
      const b = BOOL_TEXT[v as string];
      if (b === undefined) throw conversionError('string', 'bool');
      return b;
    }),
  );
  registry.add(
    'bytes',
    global([T.bytes], T.bytes, ([v]) => v!),
    global([T.string], T.bytes, ([v]) => utf8Encode(v as string)),
  );
  registry.add(
    'dyn',
    global([T.A], T.dyn, ([v]) => v!),
  );
  registry.add(
    'type',
    global([T.A], T.type(T.A), ([v]) => new CelTypeValue(typeNameOf(v!))),
  );
}
