/**
 * Runtime values of the CEL interpreter and their equality and ordering.
 *
 * | CEL type                  | JS representation                       |
 * |---------------------------|-----------------------------------------|
 * | int                       | bigint (always within int64)            |
 * | uint                      | CelUint                                 |
 * | double                    | number                                  |
 * | bool, string, null        | boolean, string, null                   |
 * | bytes                     | Uint8Array                              |
 * | list, map                 | CelList, CelMap (LiteralMap or lazy)    |
 * | google.protobuf.Timestamp | CelTimestamp (nanoseconds since epoch)  |
 * | google.protobuf.Duration  | CelDuration (nanoseconds)               |
 * | type, optional_type       | CelTypeValue, CelOptional               |
 * | library types             | subclasses of CelOpaque (Quantity, URL) |
 *
 * Equality is CEL's heterogeneous equality: values of different types are unequal (never an
 * error), and int, uint and double compare by numeric value.
 */
import { CelEvalError, noSuchOverload } from './errors.js';
import { compareCodePoints } from './text.js';

/** The int64 and uint64 ranges of CEL's int and uint. */
export const INT64_MIN = -(2n ** 63n);
/** Largest int. */
export const INT64_MAX = 2n ** 63n - 1n;
/** Largest uint. */
export const UINT64_MAX = 2n ** 64n - 1n;

/** CelUint is a CEL uint (0 to 2^64-1). */
export class CelUint {
  constructor(readonly value: bigint) {}
}

/** CelTimestamp is an instant in nanoseconds since the Unix epoch (years 1 to 9999).
 * `offsetSeconds` is the UTC offset it was written with; it only affects string(), as Go's
 * time.Time location does (equality and getters ignore it). */
export class CelTimestamp {
  constructor(
    readonly ns: bigint,
    readonly offsetSeconds = 0,
  ) {}
}

/** CelDuration is a signed span in nanoseconds (int64 range). */
export class CelDuration {
  constructor(readonly ns: bigint) {}
}

/** CelTypeValue is a type used as a value: `type(1) == int`. */
export class CelTypeValue {
  constructor(readonly name: string) {}
}

/** CelOptional is CEL's optional_type: optional.of(v) or optional.none(). */
export class CelOptional {
  private constructor(readonly value: CelValue | undefined) {}
  static of(value: CelValue): CelOptional {
    return new CelOptional(value);
  }
  static readonly none = new CelOptional(undefined);
  hasValue(): boolean {
    return this.value !== undefined;
  }
}

/** CelOpaque is a library-defined value type (kubernetes.Quantity, kubernetes.URL, net.IP, ...). */
export abstract class CelOpaque {
  abstract readonly typeName: string;
  /** equals compares with another value of any type (false when the types differ). */
  abstract equals(other: CelValue): boolean;
}

/** CelValue is any runtime value. */
export type CelValue =
  | null
  | boolean
  | bigint
  | number
  | string
  | Uint8Array
  | CelUint
  | CelList
  | CelMap
  | CelTimestamp
  | CelDuration
  | CelTypeValue
  | CelOptional
  | CelOpaque;

/** ListType mirrors x-kubernetes-list-type: set and map lists compare without regard to order. */
export type ListType = 'atomic' | 'set' | 'map';

/** CelList is an immutable CEL list. Lists built from `x-kubernetes-list-type: set|map` data keep
 * that type so that `==` ignores order and `+` unions or merges, as in Kubernetes. */
export class CelList {
  constructor(
    readonly items: readonly CelValue[],
    readonly listType: ListType = 'atomic',
    /** Property names of the map keys, for listType 'map'. */
    readonly mapKeys: readonly string[] = [],
  ) {}

  get size(): number {
    return this.items.length;
  }

  /** contains is `value in list`. */
  contains(value: CelValue): boolean {
    return this.items.some((item) => celEquals(item, value));
  }

  /** equals is `this == other`; the receiver's list type decides how (as in Kubernetes). */
  equals(other: CelList): boolean {
    if (this.size !== other.size) return false;
    if (this.listType === 'set') return other.items.every((v) => this.contains(v)) && this.items.every((v) => other.contains(v));
    if (this.listType === 'map') return this.equalsAsMapList(other);
    return this.items.every((item, i) => celEquals(item, other.items[i]!));
  }

  /** concat is `this + other`: sets union, map lists merge by key (right wins), others append. */
  concat(other: CelList): CelList {
    if (this.listType === 'set') {
      const out = [...this.items];
      for (const v of other.items) if (!out.some((e) => celEquals(e, v))) out.push(v);
      return new CelList(out);
    }
    if (this.listType === 'map') return this.mergeMapList(other);
    return new CelList([...this.items, ...other.items]);
  }

  private equalsAsMapList(other: CelList): boolean {
    const mine = this.indexByKey();
    const seen = new Set<string>();
    for (const item of other.items) {
      const key = this.keyOf(item);
      const match = mine.get(key);
      if (match === undefined || !celEquals(this.items[match]!, item)) return false;
      seen.add(key);
    }
    return seen.size === mine.size;
  }

  private mergeMapList(other: CelList): CelList {
    const out = [...this.items];
    const positions = this.indexByKey();
    for (const item of other.items) {
      const key = this.keyOf(item);
      const at = positions.get(key);
      if (at === undefined) {
        positions.set(key, out.length);
        out.push(item);
      } else out[at] = item;
    }
    return new CelList(out);
  }

  private indexByKey(): Map<string, number> {
    const index = new Map<string, number>();
    this.items.forEach((item, i) => index.set(this.keyOf(item), i));
    return index;
  }

  private keyOf(item: CelValue): string {
    if (!(item instanceof CelMap)) return `?${String(item)}`;
    return JSON.stringify(
      this.mapKeys.map((k) => {
        const v = item.getProperty(k);
        return v === undefined ? null : (mapKeyOf(v) ?? String(v));
      }),
    );
  }
}

/** CelMap is a CEL map (or a schema object, which CEL also selects fields of). */
export abstract class CelMap {
  /** size is the number of entries (for schema objects, of all fields present, as in Kubernetes). */
  abstract get size(): number;
  /** get looks a key up; undefined when absent. Throws "no such overload" for key types maps cannot hold. */
  abstract get(key: CelValue): CelValue | undefined;
  /** keys lists the visible keys in iteration order. */
  abstract keys(): CelValue[];

  /** getProperty looks up an object property by its unescaped name (for list-map keys). */
  getProperty(name: string): CelValue | undefined {
    return this.get(name);
  }

  /** equals is `this == other`: same size and every key maps to an equal value. */
  equals(other: CelMap): boolean {
    if (this.size !== other.size) return false;
    return this.keys().every((k) => {
      const mine = this.get(k);
      const theirs = other.get(k);
      return mine !== undefined && theirs !== undefined && celEquals(mine, theirs);
    });
  }
}

/** LiteralMap is a map built by a literal, a conversion or a library function. */
export class LiteralMap extends CelMap {
  private readonly entries = new Map<string, [CelValue, CelValue]>();

  /** The constructor throws CelEvalError for keys of unsupported types or duplicated keys. */
  constructor(entries: Iterable<readonly [CelValue, CelValue]> = []) {
    super();
    for (const [k, v] of entries) {
      const key = mapKeyOf(k);
      if (key === undefined || typeof k === 'number') throw new CelEvalError(`unsupported key type: ${typeNameOf(k)}`);
      if (this.entries.has(key)) throw new CelEvalError(`Failed with repeated key: ${formatValue(k)}`);
      this.entries.set(key, [k, v]);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: CelValue): CelValue | undefined {
    const canonical = mapKeyOf(key);
    return canonical === undefined ? undefined : this.entries.get(canonical)?.[1];
  }

  keys(): CelValue[] {
    return [...this.entries.values()].map(([k]) => k);
  }
}

/** mapKeyOf is the canonical lookup key of a map key (ints, uints and integral doubles share
 * one form, as heterogeneous equality demands); undefined for values maps cannot hold. */
export function mapKeyOf(key: CelValue): string | undefined {
  if (typeof key === 'string') return `s:${key}`;
  if (typeof key === 'bigint') return `n:${key}`;
  if (key instanceof CelUint) return `n:${key.value}`;
  if (typeof key === 'boolean') return `b:${key}`;
  if (typeof key === 'number' && Number.isInteger(key)) return `n:${BigInt(key)}`;
  return undefined;
}

/** typeNameOf is the CEL type name of a value, as `type(v)` reports it. */
export function typeNameOf(value: CelValue): string {
  if (value === null) return 'null_type';
  switch (typeof value) {
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    case 'number':
      return 'double';
    case 'string':
      return 'string';
  }
  if (value instanceof Uint8Array) return 'bytes';
  if (value instanceof CelUint) return 'uint';
  if (value instanceof CelList) return 'list';
  if (value instanceof CelMap) return 'map';
  if (value instanceof CelTimestamp) return 'google.protobuf.Timestamp';
  if (value instanceof CelDuration) return 'google.protobuf.Duration';
  if (value instanceof CelTypeValue) return 'type';
  if (value instanceof CelOptional) return 'optional_type';
  return value.typeName;
}

const isNumeric = (v: CelValue): v is bigint | number | CelUint => typeof v === 'bigint' || typeof v === 'number' || v instanceof CelUint;

/** celEquals is CEL's `==` with heterogeneous equality; it never throws. */
export function celEquals(a: CelValue, b: CelValue): boolean {
  if (isNumeric(a) && isNumeric(b)) return compareNumbers(a, b) === 0;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (a instanceof Uint8Array) return b instanceof Uint8Array && a.length === b.length && a.every((x, i) => x === b[i]);
  if (a instanceof CelList) return b instanceof CelList && a.equals(b);
  if (a instanceof CelMap) return b instanceof CelMap && a.equals(b);
  if (a instanceof CelTimestamp) return b instanceof CelTimestamp && a.ns === b.ns;
  if (a instanceof CelDuration) return b instanceof CelDuration && a.ns === b.ns;
  if (a instanceof CelTypeValue) return b instanceof CelTypeValue && a.name === b.name;
  if (a instanceof CelOptional) {
    if (!(b instanceof CelOptional) || a.hasValue() !== b.hasValue()) return false;
    return !a.hasValue() || celEquals(a.value!, b.value!);
  }
  if (a instanceof CelOpaque) return a.equals(b);
  return false;
}

/** compareNumbers orders int, uint and double exactly; NaN compares as undefined (unordered). */
export function compareNumbers(a: bigint | number | CelUint, b: bigint | number | CelUint): -1 | 0 | 1 | undefined {
  const x = a instanceof CelUint ? a.value : a;
  const y = b instanceof CelUint ? b.value : b;
  if (typeof x === 'bigint' && typeof y === 'bigint') return x < y ? -1 : x > y ? 1 : 0;
  if (typeof x === 'number' && typeof y === 'number') {
    if (Number.isNaN(x) || Number.isNaN(y)) return undefined;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof x === 'bigint') {
    const r = compareBigToNumber(x, y as number);
    return r === undefined ? undefined : (-r as -1 | 0 | 1);
  }
  return compareBigToNumber(y as bigint, x as number);
}

/** Sign of (n - b) for a double n and an integer b, exactly; undefined for NaN. */
function compareBigToNumber(b: bigint, n: number): -1 | 0 | 1 | undefined {
  if (Number.isNaN(n)) return undefined;
  if (n === Infinity) return 1;
  if (n === -Infinity) return -1;
  const floor = BigInt(Math.floor(n));
  if (b < floor) return 1;
  if (b > floor) return -1;
  return n === Math.floor(n) ? 0 : 1;
}

/** celCompare orders two values for `<`, `<=`, `>`, `>=`: numbers across types, strings, bytes,
 * bools, timestamps and durations. Throws "no such overload" for other pairs; returns undefined
 * when a NaN makes the pair unordered. */
export function celCompare(a: CelValue, b: CelValue): -1 | 0 | 1 | undefined {
  if (isNumeric(a) && isNumeric(b)) return compareNumbers(a, b);
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  if (a instanceof CelTimestamp && b instanceof CelTimestamp) return a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0;
  if (a instanceof CelDuration && b instanceof CelDuration) return a.ns < b.ns ? -1 : a.ns > b.ns ? 1 : 0;
  throw noSuchOverload();
}

function compareBytes(a: Uint8Array, b: Uint8Array): -1 | 0 | 1 {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** checkInt returns v when it fits int64, else throws "integer overflow". */
export function checkInt(v: bigint): bigint {
  if (v < INT64_MIN || v > INT64_MAX) throw new CelEvalError('integer overflow');
  return v;
}

/** checkUint returns a CelUint when v fits uint64, else throws "unsigned integer overflow". */
export function checkUint(v: bigint): CelUint {
  if (v < 0n || v > UINT64_MAX) throw new CelEvalError('unsigned integer overflow');
  return new CelUint(v);
}

/** formatValue renders a value as Go's %v does in cel-go error messages ("no such key: x"). */
export function formatValue(value: CelValue): string {
  if (value instanceof CelUint) return String(value.value);
  if (value instanceof CelTypeValue) return value.name;
  if (typeof value === 'string' || typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  return typeNameOf(value);
}
