/**
 * Conversion of decoded JSON into CEL values, guided by the structural schema as Kubernetes'
 * UnstructuredToVal does: integer → int, number → double, int-or-string → int or string,
 * `format: byte|duration|date|date-time` strings → bytes, duration, timestamp; objects with
 * properties are field-selectable objects (property names CEL-escaped, null fields absent),
 * additionalProperties objects are maps, and list-type set/map arrays compare without order.
 * Objects convert lazily, field by field, so evaluating a rule touches only what it reads.
 */
import { deepEqual } from '../../api/deep-equal.js';
import { CelEvalError } from './errors.js';
import { escapeName, unescapeName } from './escaping.js';
import { additionalOf, isPlainObject, itemsOf, type StructuralLike, withTypeAndObjectMeta } from './structural.js';
import { parseFullDate, parseGoDuration, parseTimestamp } from './time-format.js';
import {
  CelDuration,
  CelList,
  CelMap,
  CelOpaque,
  CelOptional,
  CelTimestamp,
  CelTypeValue,
  CelUint,
  type CelValue,
  celEquals,
  type ListType,
  LiteralMap,
} from './values.js';

type ObjectMode = 'object' | 'map' | 'opaque';

/** ObjectValue is a JSON object seen through its schema: an object with properties (mode
 * 'object'), a map (additionalProperties) or an object whose fields are all unknown. */
export class ObjectValue extends CelMap {
  constructor(
    readonly raw: Record<string, unknown>,
    private readonly schema: StructuralLike,
    private readonly mode: ObjectMode,
  ) {
    super();
  }

  get size(): number {
    return Object.keys(this.raw).length;
  }

  get(key: CelValue): CelValue | undefined {
    if (typeof key !== 'string') return undefined;
    const name = this.mode === 'object' ? unescapeName(key) : key;
    return name === undefined ? undefined : this.getProperty(name);
  }

  override getProperty(name: string): CelValue | undefined {
    if (!Object.hasOwn(this.raw, name)) return undefined;
    const value = this.raw[name];
    const schema = this.propertySchema(name);
    if (schema === undefined || (this.mode === 'object' && (value === null || value === undefined))) return undefined;
    return jsonToCel(value, schema);
  }

  keys(): CelValue[] {
    return Object.keys(this.raw)
      .filter((k) => this.propertySchema(k) !== undefined)
      .map((k) => (this.mode === 'object' ? (escapeName(k) ?? k) : k));
  }

  /** Unknown fields (preserved without a schema) still take part in equality, compared as JSON. */
  override equals(other: CelMap): boolean {
    if (this.size !== other.size) return false;
    return Object.keys(this.raw).every((k) => {
      if (this.propertySchema(k) !== undefined) {
        const mine = this.getProperty(k);
        const theirs = other.getProperty(k);
        if (mine === undefined || theirs === undefined) return mine === theirs;
        return celEquals(mine, theirs);
      }
      return !(other instanceof ObjectValue) || !Object.hasOwn(other.raw, k) || deepEqual(this.raw[k], other.raw[k]);
    });
  }

  private propertySchema(name: string): StructuralLike | undefined {
    if (this.mode === 'object') return this.schema.properties?.[name];
    if (this.mode === 'map') return additionalOf(this.schema);
    return undefined;
  }
}

const invalid = (message: string): CelEvalError => new CelEvalError(message);

/** jsonToCel converts a JSON value under a schema; throws CelEvalError for data that does not
 * fit the schema (Kubernetes' "invalid data, ..." errors). */
export function jsonToCel(value: unknown, schema: StructuralLike | undefined): CelValue {
  if (value === null || value === undefined) return null;
  if (schema === undefined) return plainToCel(value);
  if (schema['x-kubernetes-int-or-string']) {
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
    throw invalid('invalid data, expected XIntOrString value to be either a string or integer');
  }
  switch (schema.type) {
    case 'object':
      return objectValue(value, schema);
    case 'array':
      return arrayValue(value, schema);
    case 'string':
      return stringValue(value, schema.format);
    case 'number':
      if (typeof value !== 'number') throw invalid(`invalid data, expected float, got ${typeof value}`);
      return value;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid(`invalid data, expected int, got ${typeof value}`);
      return BigInt(value);
    case 'boolean':
      if (typeof value !== 'boolean') throw invalid(`invalid data, expected bool, got ${typeof value}`);
      return value;
    default:
      return plainToCel(value);
  }
}

function objectValue(value: unknown, schema: StructuralLike): ObjectValue {
  if (!isPlainObject(value)) throw invalid('invalid data, expected a map for the provided schema with type=object');
  if (schema['x-kubernetes-embedded-resource']) return new ObjectValue(value, withTypeAndObjectMeta(schema), 'object');
  if (schema.properties !== undefined) return new ObjectValue(value, schema, 'object');
  if (additionalOf(schema) !== undefined) return new ObjectValue(value, schema, 'map');
  return new ObjectValue(value, schema, 'opaque');
}

function arrayValue(value: unknown, schema: StructuralLike): CelList {
  if (!Array.isArray(value)) throw invalid('invalid data, expected an array for the provided schema with type=array');
  const items = itemsOf(schema);
  if (items === undefined) throw invalid('invalid array type, expected Items with a non-empty Schema');
  const listType = (schema['x-kubernetes-list-type'] ?? 'atomic') as ListType;
  return new CelList(
    value.map((v) => jsonToCel(v, items)),
    listType,
    schema['x-kubernetes-list-map-keys'] ?? [],
  );
}

function stringValue(value: unknown, format: string | undefined): CelValue {
  if (typeof value !== 'string') throw invalid(`invalid data, expected string, got ${typeof value}`);
  switch (format) {
    case 'duration': {
      const ns = parseGoDuration(value, true);
      if (ns === undefined) throw invalid(`Invalid duration ${value}: time: invalid duration ${JSON.stringify(value)}`);
      return new CelDuration(ns);
    }
    case 'date': {
      const t = parseFullDate(value);
      if (t === undefined) throw invalid(`Invalid date formatted string ${value}`);
      return t;
    }
    case 'date-time': {
      const t = parseTimestamp(value, true);
      if (t === undefined) throw invalid(`Invalid date-time formatted string ${value}`);
      return t;
    }
    case 'byte':
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) throw invalid(`Invalid byte formatted string ${value}`);
      return Uint8Array.from(Buffer.from(value, 'base64'));
    default:
      return value;
  }
}

/** plainToCel converts a JS value without a schema: integral numbers and bigints are ints,
 * other numbers doubles, arrays lists, plain objects maps; CEL values pass through. */
export function plainToCel(value: unknown): CelValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'bigint':
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isInteger(value) ? BigInt(value) : value;
  }
  if (Array.isArray(value)) return new CelList(value.map(plainToCel));
  if (isCelObject(value)) return value;
  if (isPlainObject(value)) return new LiteralMap(Object.entries(value).map(([k, v]) => [k, plainToCel(v)] as const));
  throw invalid(`unsupported value: ${Object.prototype.toString.call(value)}`);
}

function isCelObject(v: object): v is Exclude<CelValue, null | boolean | bigint | number | string> {
  return (
    v instanceof Uint8Array ||
    v instanceof CelUint ||
    v instanceof CelList ||
    v instanceof CelMap ||
    v instanceof CelTimestamp ||
    v instanceof CelDuration ||
    v instanceof CelTypeValue ||
    v instanceof CelOptional ||
    v instanceof CelOpaque
  );
}
