/**
 * Admission objects as CEL values, converted lazily: an expression that reads
 * `object.spec.replicas` converts three fields, not the whole object. JSON integers are ints,
 * other numbers doubles, arrays lists, objects maps (null fields absent, as in unstructured data).
 */
import { CelList, CelMap, type CelValue } from '../../apiextensions/cel/values.js';

/** JsonMap is a read-only CEL map over a JSON object. */
export class JsonMap extends CelMap {
  private readonly converted = new Map<string, CelValue>();

  constructor(private readonly raw: Readonly<Record<string, unknown>>) {
    super();
  }

  get size(): number {
    return this.presentKeys().length;
  }

  get(key: CelValue): CelValue | undefined {
    if (typeof key !== 'string' || !Object.hasOwn(this.raw, key)) return undefined;
    const value = this.raw[key];
    if (value === null || value === undefined) return undefined;
    let cel = this.converted.get(key);
    if (cel === undefined) {
      cel = jsonToCel(value);
      this.converted.set(key, cel);
    }
    return cel;
  }

  keys(): CelValue[] {
    return this.presentKeys();
  }

  private presentKeys(): string[] {
    return Object.keys(this.raw).filter((k) => this.raw[k] !== null && this.raw[k] !== undefined);
  }
}

/** jsonToCel converts one decoded JSON value (null stays null). */
export function jsonToCel(value: unknown): CelValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return value;
    case 'number':
      return Number.isInteger(value) ? BigInt(value) : value;
  }
  if (Array.isArray(value)) return new CelList(value.map(jsonToCel));
  return new JsonMap(value as Record<string, unknown>);
}
