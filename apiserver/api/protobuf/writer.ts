/**
 * ProtobufWriter builds one protobuf message with proto3 semantics: a scalar equal to its zero
 * value is not written; an embedded message is written whenever it is asked for (presence).
 * The server writes few protobuf bodies (the gnostic OpenAPI v2 document), so this stays
 * small: varints, doubles, strings and embedded messages, collected as chunks and joined once.
 */
import { WireTypes } from './wire.js';

export class ProtobufWriter {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;

  /** string writes a UTF-8 string field unless it is empty. */
  string(field: number, value: string | undefined): this {
    if (value) this.bytes(field, Buffer.from(value, 'utf8'));
    return this;
  }

  /** strings writes a repeated string field (every element, empty ones included). */
  strings(field: number, values: readonly string[] | undefined): this {
    for (const value of values ?? []) this.bytes(field, Buffer.from(value, 'utf8'));
    return this;
  }

  /** bool writes a varint 1 for true (false is the zero value). */
  bool(field: number, value: boolean | undefined): this {
    if (value) this.key(field, WireTypes.varint).push(Uint8Array.of(1));
    return this;
  }

  /** oneofBool writes a bool member of a oneof: always, false included (it marks the choice). */
  oneofBool(field: number, value: boolean): this {
    return this.key(field, WireTypes.varint).push(Uint8Array.of(value ? 1 : 0));
  }

  /** int64 writes a non-negative integer as a varint unless it is 0. */
  int64(field: number, value: number | undefined): this {
    if (value) this.key(field, WireTypes.varint).push(varint(value));
    return this;
  }

  /** double writes an IEEE 754 double (wire type fixed64) unless it is 0. */
  double(field: number, value: number | undefined): this {
    if (value === undefined || value === 0) return this;
    const buf = Buffer.alloc(8);
    buf.writeDoubleLE(value);
    return this.key(field, WireTypes.fixed64).push(buf);
  }

  /** message writes an embedded message that `build` fills in. */
  message(field: number, build: (writer: ProtobufWriter) => void): this {
    const inner = new ProtobufWriter();
    build(inner);
    // The inner chunks are adopted, not copied: bytes are copied once, by the outermost finish().
    this.key(field, WireTypes.bytes).push(varint(inner.size));
    for (const chunk of inner.chunks) this.push(chunk);
    return this;
  }

  /** finish returns the message's bytes. */
  finish(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }

  private bytes(field: number, value: Uint8Array): this {
    return this.key(field, WireTypes.bytes).push(varint(value.length)).push(value);
  }

  private key(field: number, wireType: number): this {
    return this.push(varint(field * 8 + wireType));
  }

  private push(chunk: Uint8Array): this {
    this.chunks.push(chunk);
    this.size += chunk.length;
    return this;
  }
}

/** One-byte varints (tags of fields 1-15, short lengths), shared rather than allocated per use. */
const ONE_BYTE = Array.from({ length: 0x80 }, (_, i) => Uint8Array.of(i));

/** varint encodes a non-negative safe integer. */
function varint(value: number): Uint8Array {
  if (value >= 0 && value < 0x80 && Number.isInteger(value)) return ONE_BYTE[value]!;
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`cannot write ${value} as a varint`);
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
  return Uint8Array.from(out);
}
