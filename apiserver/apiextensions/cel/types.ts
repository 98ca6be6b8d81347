/**
 * Static CEL types, used by the checker and by overload signatures. `dyn` matches anything and
 * defers checks to runtime (x-kubernetes-int-or-string data is dyn); `param` is a type parameter
 * of a generic overload (`list(A).size() -> int`). `object` is a schema-described object whose
 * fields are known (their names CEL-escaped, see escaping.ts).
 */
import { CelDuration, CelList, CelMap, CelOpaque, CelOptional, CelTimestamp, CelTypeValue, CelUint, type CelValue } from './values.js';

/** PrimitiveKind lists the types without parameters. */
export type PrimitiveKind = 'int' | 'uint' | 'double' | 'bool' | 'string' | 'bytes' | 'null' | 'timestamp' | 'duration' | 'dyn';

/** CelType is a static type. */
export type CelType =
  | { kind: PrimitiveKind }
  | { kind: 'list'; elem: CelType }
  | { kind: 'map'; key: CelType; value: CelType }
  | { kind: 'object'; fields: ReadonlyMap<string, CelType> }
  | { kind: 'type'; of: CelType }
  | { kind: 'optional'; elem: CelType }
  | { kind: 'opaque'; name: string }
  | { kind: 'param'; name: string };

/** T holds the primitive types and builders for the others. */
export const T = {
  int: { kind: 'int' },
  uint: { kind: 'uint' },
  double: { kind: 'double' },
  bool: { kind: 'bool' },
  string: { kind: 'string' },
  bytes: { kind: 'bytes' },
  null: { kind: 'null' },
  timestamp: { kind: 'timestamp' },
  duration: { kind: 'duration' },
  dyn: { kind: 'dyn' },
  A: { kind: 'param', name: 'A' },
  B: { kind: 'param', name: 'B' },
  list: (elem: CelType): CelType => ({ kind: 'list', elem }),
  map: (key: CelType, value: CelType): CelType => ({ kind: 'map', key, value }),
  optional: (elem: CelType): CelType => ({ kind: 'optional', elem }),
  type: (of: CelType): CelType => ({ kind: 'type', of }),
  opaque: (name: string): CelType => ({ kind: 'opaque', name }),
} as const satisfies Record<string, CelType | ((...args: CelType[]) => CelType) | ((name: string) => CelType)>;

const PRIMITIVE_NAMES: Record<PrimitiveKind, string> = {
  int: 'int',
  uint: 'uint',
  double: 'double',
  bool: 'bool',
  string: 'string',
  bytes: 'bytes',
  null: 'null_type',
  timestamp: 'google.protobuf.Timestamp',
  duration: 'google.protobuf.Duration',
  dyn: 'dyn',
};

/** typeName renders a type as cel-go does in messages: `int`, `list(string)`, `map(string, int)`. */
export function typeName(t: CelType): string {
  switch (t.kind) {
    case 'list':
      return `list(${typeName(t.elem)})`;
    case 'map':
      return `map(${typeName(t.key)}, ${typeName(t.value)})`;
    case 'object':
      return 'object';
    case 'type':
      return `type(${typeName(t.of)})`;
    case 'optional':
      return `optional_type(${typeName(t.elem)})`;
    case 'opaque':
      return t.name;
    case 'param':
      return t.name;
    default:
      return PRIMITIVE_NAMES[t.kind];
  }
}

/** Bindings maps type parameters to the types they stand for within one overload match. */
export type Bindings = Map<string, CelType>;

/** isAssignable reports whether a value of type `arg` may be passed where `param` is expected,
 * binding type parameters; dyn on either side always matches. */
export function isAssignable(param: CelType, arg: CelType, bindings: Bindings): boolean {
  if (param.kind === 'param') {
    const bound = bindings.get(param.name);
    if (bound === undefined || bound.kind === 'dyn') {
      bindings.set(param.name, arg);
      return true;
    }
    if (arg.kind === 'dyn') return true;
    return isAssignable(bound, arg, bindings);
  }
  if (param.kind === 'dyn' || arg.kind === 'dyn') return true;
  switch (param.kind) {
    case 'list':
      return arg.kind === 'list' && isAssignable(param.elem, arg.elem, bindings);
    case 'map':
      return arg.kind === 'map' && isAssignable(param.key, arg.key, bindings) && isAssignable(param.value, arg.value, bindings);
    case 'optional':
      return arg.kind === 'optional' && isAssignable(param.elem, arg.elem, bindings);
    case 'type':
      return arg.kind === 'type';
    case 'opaque':
      return arg.kind === 'opaque' && arg.name === param.name;
    case 'object':
      return arg.kind === 'object';
    default:
      return arg.kind === param.kind;
  }
}

/** substitute replaces bound type parameters in t; unbound ones become dyn. */
export function substitute(t: CelType, bindings: Bindings): CelType {
  switch (t.kind) {
    case 'param':
      return bindings.get(t.name) ?? T.dyn;
    case 'list':
      return T.list(substitute(t.elem, bindings));
    case 'map':
      return T.map(substitute(t.key, bindings), substitute(t.value, bindings));
    case 'optional':
      return T.optional(substitute(t.elem, bindings));
    case 'type':
      return T.type(substitute(t.of, bindings));
    default:
      return t;
  }
}

/** isSameType compares two types structurally, treating dyn as equal to anything. */
export function isSameType(a: CelType, b: CelType): boolean {
  if (a.kind === 'dyn' || b.kind === 'dyn') return true;
  if (a.kind !== b.kind) return false;
  const bindings: Bindings = new Map();
  return isAssignable(a, b, bindings) && isAssignable(b, a, new Map());
}

/** valueMatches reports whether a runtime value has (a subtype of) type t; lists and maps match
 * by container kind only, as cel-go's runtime dispatch does. */
export function valueMatches(t: CelType, v: CelValue): boolean {
  switch (t.kind) {
    case 'dyn':
    case 'param':
      return true;
    case 'int':
      return typeof v === 'bigint';
    case 'uint':
      return v instanceof CelUint;
    case 'double':
      return typeof v === 'number';
    case 'bool':
      return typeof v === 'boolean';
    case 'string':
      return typeof v === 'string';
    case 'bytes':
      return v instanceof Uint8Array;
    case 'null':
      return v === null;
    case 'timestamp':
      return v instanceof CelTimestamp;
    case 'duration':
      return v instanceof CelDuration;
    case 'list':
      return v instanceof CelList;
    case 'map':
    case 'object':
      return v instanceof CelMap;
    case 'type':
      return v instanceof CelTypeValue;
    case 'optional':
      return v instanceof CelOptional;
    case 'opaque':
      return v instanceof CelOpaque && v.typeName === t.name;
  }
}
