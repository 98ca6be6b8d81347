/**
 * Table-driven protobuf decoding: a message's bytes plus its MessageType give the plain JSON
 * object a Go client would have sent (see message-type.ts for the zero-value rules).
 * Fields the table does not know are skipped, as Kubernetes' own decoder skips fields of
 * newer clients, and reported in `DecodeContext.skipped`. Malformed bytes throw a
 * ProtobufError naming the offset.
 */
import { type FieldSpec, isScalar, type MessageType, type ScalarType, type ValueType } from './message-type.js';
import { ProtobufError, ProtobufReader, type WireType, WireTypes } from './wire.js';

/** SkippedField is a field present in the bytes (with a non-zero value) but unknown to the tables. */
export interface SkippedField {
  /** JSON path of the message holding it ('' for the object itself). */
  path: string;
  field: number;
  /** The message type's name. */
  message: string;
}

/** DecodeContext collects what decoding noticed besides the object. */
export interface DecodeContext {
  skipped: SkippedField[];
}

/**
 * decodeMessage decodes the message `reader` spans as `type`. `path` is the JSON path of the
 * message (for skipped-field reports). Returns the JSON form: an object, or the well-known
 * type's value (undefined when it is the zero value).
 */
export function decodeMessage(reader: ProtobufReader, type: MessageType, context: DecodeContext, path = ''): unknown {
  const start = reader.offset;
  const out: Record<string, unknown> = {};
  while (!reader.done()) {
    const at = reader.offset;
    const { field, wireType } = reader.tag();
    const spec = type.fields[field];
    if (!spec) {
      // Unknown fields holding their zero value (gogo writes every non-pointer field) are
      // not worth a report.
      if (skipField(reader, wireType)) context.skipped.push({ path, field, message: type.name });
      continue;
    }
    decodeField(reader, { spec, wireType, at, out, context, path: childPath(path, spec.json) });
  }
  return type.toJson ? convert(type, out, start) : out;
}

interface FieldRead {
  spec: FieldSpec;
  wireType: WireType;
  /** Offset of the field's tag, for errors. */
  at: number;
  out: Record<string, unknown>;
  context: DecodeContext;
  path: string;
}

function decodeField(reader: ProtobufReader, read: FieldRead): void {
  const { spec, out } = read;
  switch (spec.cardinality) {
    case 'single': {
      if (spec.inline) {
        Object.assign(out, decodeValue(reader, spec.type, read));
        return;
      }
      const value = decodeValue(reader, spec.type, read);
      if (value === undefined || (!spec.keepZero && isScalar(spec.type) && isZero(value))) delete out[spec.json];
      else out[spec.json] = value;
      return;
    }
    case 'repeated':
      decodeRepeated(reader, read);
      return;
    case 'map':
      decodeMapEntry(reader, read);
      return;
    default: {
      const unreachable: never = spec.cardinality;
      throw new Error(`unknown cardinality ${String(unreachable)}`);
    }
  }
}

/** decodeRepeated appends one element, or several for a packed varint list. */
function decodeRepeated(reader: ProtobufReader, read: FieldRead): void {
  const { spec, out } = read;
  const list = Array.isArray(out[spec.json]) ? (out[spec.json] as unknown[]) : [];
  out[spec.json] = list;
  if (read.wireType === WireTypes.bytes && isScalar(spec.type) && isVarint(spec.type)) {
    const packed = reader.message();
    while (!packed.done()) list.push(readScalar(packed, spec.type));
    return;
  }
  const value = decodeValue(reader, spec.type, { ...read, path: `${read.path}[${list.length}]` });
  if (value !== undefined) list.push(value);
}

/** decodeMapEntry reads one `{1: key, 2: value}` entry of a map field. */
function decodeMapEntry(reader: ProtobufReader, read: FieldRead): void {
  const { spec, out } = read;
  expectWireType(read, WireTypes.bytes);
  const entry = reader.message();
  let key = '';
  let value: unknown;
  while (!entry.done()) {
    const at = entry.offset;
    const { field, wireType } = entry.tag();
    if (field === 1) key = decodeValue(entry, 'string', { ...read, wireType, at }) as string;
    else if (field === 2) value = decodeValue(entry, spec.type, { ...read, wireType, at, path: `${read.path}[${key}]` });
    else entry.skip(wireType);
  }
  const map = (out[spec.json] ??= {}) as Record<string, unknown>;
  // Keys are data (a label may be called __proto__): define them as JSON.parse would.
  Object.defineProperty(map, key, {
    value: value ?? zeroValue(spec.type, read.context, `${read.path}[${key}]`),
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function decodeValue(reader: ProtobufReader, type: ValueType, read: FieldRead): unknown {
  if (isScalar(type)) {
    expectWireType(read, isVarint(type) ? WireTypes.varint : WireTypes.bytes);
    return readScalar(reader, type);
  }
  expectWireType(read, WireTypes.bytes);
  return decodeMessage(reader.message(), type, read.context, read.path);
}

/** skipField passes over an unknown field; true when it held something other than a zero value. */
function skipField(reader: ProtobufReader, wireType: WireType): boolean {
  if (wireType === WireTypes.varint) return reader.varint() !== 0n;
  if (wireType === WireTypes.bytes) return reader.bytes().length > 0;
  reader.skip(wireType);
  return true;
}

function readScalar(reader: ProtobufReader, type: ScalarType): unknown {
  switch (type) {
    case 'string':
      return reader.string();
    case 'int32':
      return reader.int32();
    case 'int64':
      return reader.int64();
    case 'bool':
      return reader.bool();
    case 'bytes': {
      const bytes = reader.bytes();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64');
    }
    default: {
      const unreachable: never = type;
      throw new Error(`unknown scalar type ${String(unreachable)}`);
    }
  }
}

function expectWireType(read: FieldRead, expected: WireType): void {
  if (read.wireType === expected) return;
  const name = read.spec.inline ? 'inline field' : `field "${read.spec.json}"`;
  throw new ProtobufError(`${name} has wire type ${read.wireType}, expected ${expected}`, read.at);
}

function convert(type: MessageType, decoded: Record<string, unknown>, at: number): unknown {
  try {
    return type.toJson?.(decoded);
  } catch (err) {
    throw new ProtobufError(`invalid ${type.name}: ${(err as Error).message}`, at);
  }
}

/** zeroValue is what a map entry without a value field holds. */
function zeroValue(type: ValueType, context: DecodeContext, path: string): unknown {
  if (!isScalar(type)) return decodeMessage(new ProtobufReader(new Uint8Array(0)), type, context, path) ?? null;
  return type === 'bool' ? false : type === 'int32' || type === 'int64' ? 0 : '';
}

const isVarint = (type: ScalarType) => type === 'int32' || type === 'int64' || type === 'bool';
const isZero = (value: unknown) => value === '' || value === 0 || value === false;
const childPath = (path: string, json: string) => (json === '' ? path : path ? `${path}.${json}` : json);
