/**
 * A protobuf wire-format reader: tags, varints, fixed32/64 and length-delimited fields, the
 * subset Kubernetes' gogo-generated messages use (no groups, no zigzag). Every read is
 * bounds-checked; a malformed buffer throws a ProtobufError naming the byte offset, never
 * reads past its end and never loops forever.
 *
 * Offsets are absolute within the buffer the first reader was made over (the whole request
 * body), including for readers of nested messages, so an error points at the broken byte.
 */

/** ProtobufError says why and where (byte offset within the body) a protobuf body is malformed. */
export class ProtobufError extends Error {
  constructor(
    readonly detail: string,
    readonly offset: number,
  ) {
    super(`${detail} at offset ${offset}`);
    this.name = 'ProtobufError';
  }
}

/** WireTypes are the protobuf wire types (3 and 4, groups, are refused). */
export const WireTypes = { varint: 0, fixed64: 1, bytes: 2, startGroup: 3, endGroup: 4, fixed32: 5 } as const;
export type WireType = (typeof WireTypes)[keyof typeof WireTypes];

/** Tag is a field key: field number and wire type. */
export interface Tag {
  field: number;
  wireType: WireType;
}

const MAX_VARINT_BYTES = 10;
const MAX_FIELD_NUMBER = 2 ** 29 - 1;

/**
 * ProtobufReader reads one message: the bytes [start, end) of a shared buffer. It never
 * copies: `bytes()` returns a view, `message()` a reader over the same buffer.
 */
export class ProtobufReader {
  private pos: number;

  constructor(
    private readonly buf: Uint8Array,
    start = 0,
    private readonly end = buf.length,
  ) {
    if (start < 0 || end > buf.length || start > end) throw new ProtobufError(`invalid range [${start}, ${end})`, start);
    this.pos = start;
  }

  /** offset is the absolute position of the next byte to read. */
  get offset(): number {
    return this.pos;
  }

  /** done is true when the whole message has been read. */
  done(): boolean {
    return this.pos >= this.end;
  }

  /** tag reads a field key; field 0 and the group wire types are errors. */
  tag(): Tag {
    const at = this.pos;
    const key = this.uint();
    const field = Math.floor(key / 8);
    const wireType = key % 8;
    if (field === 0 || field > MAX_FIELD_NUMBER) throw new ProtobufError(`invalid field number ${field}`, at);
    if (wireType === WireTypes.startGroup || wireType === WireTypes.endGroup) {
      throw new ProtobufError(`field ${field} uses the unsupported group wire type ${wireType}`, at);
    }
    if (wireType > WireTypes.fixed32) throw new ProtobufError(`field ${field} has the invalid wire type ${wireType}`, at);
    return { field, wireType: wireType as WireType };
  }

  /** varint reads an unsigned varint of up to 64 bits. */
  varint(): bigint {
    const at = this.pos;
    let result = 0n;
    for (let i = 0; i < MAX_VARINT_BYTES; i++) {
      const byte = this.byte();
      result |= BigInt(byte & 0x7f) << BigInt(7 * i);
      if ((byte & 0x80) === 0) return BigInt.asUintN(64, result);
    }
    throw new ProtobufError('varint is longer than 10 bytes', at);
  }

  /** int32 reads a varint-encoded int32 (negative values are sign-extended to 10 bytes). */
  int32(): number {
    return Number(BigInt.asIntN(32, this.varint()));
  }

  /** int64 reads a varint-encoded int64 as a number (exact up to 2^53, as JSON numbers are). */
  int64(): number {
    return Number(BigInt.asIntN(64, this.varint()));
  }

  /** bool reads a varint as a boolean (any non-zero value is true). */
  bool(): boolean {
    return this.varint() !== 0n;
  }

  /** fixed32 reads 4 little-endian bytes as an unsigned number. */
  fixed32(): number {
    const at = this.take(4);
    return new DataView(this.buf.buffer, this.buf.byteOffset + at, 4).getUint32(0, true);
  }

  /** fixed64 reads 8 little-endian bytes as an unsigned bigint. */
  fixed64(): bigint {
    const at = this.take(8);
    return new DataView(this.buf.buffer, this.buf.byteOffset + at, 8).getBigUint64(0, true);
  }

  /** bytes reads a length-delimited field's contents (a view, not a copy). */
  bytes(): Uint8Array {
    const length = this.length();
    const at = this.take(length);
    return this.buf.subarray(at, at + length);
  }

  /** string reads a length-delimited field as UTF-8 (invalid sequences become U+FFFD, as Go keeps them as bytes). */
  string(): string {
    const bytes = this.bytes();
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
  }

  /** message returns a reader over a length-delimited field (an embedded message) and skips it here. */
  message(): ProtobufReader {
    const length = this.length();
    const at = this.take(length);
    return new ProtobufReader(this.buf, at, at + length);
  }

  /** skip passes over a field's value of the given wire type. */
  skip(wireType: WireType): void {
    switch (wireType) {
      case WireTypes.varint:
        this.varint();
        return;
      case WireTypes.fixed64:
        this.take(8);
        return;
      case WireTypes.bytes:
        this.take(this.length());
        return;
      case WireTypes.fixed32:
        this.take(4);
        return;
      case WireTypes.startGroup:
      case WireTypes.endGroup:
        throw new ProtobufError(`cannot skip the group wire type ${wireType}`, this.pos);
      default: {
        const unreachable: never = wireType;
        throw new ProtobufError(`invalid wire type ${String(unreachable)}`, this.pos);
      }
    }
  }

  private length(): number {
    const at = this.pos;
    const length = this.uint();
    if (length > this.end - this.pos) {
      throw new ProtobufError(`length ${length} runs past the end of the message (${this.end - this.pos} bytes left)`, at);
    }
    return length;
  }

  /** uint reads a varint that must fit a safe integer (tags and lengths). */
  private uint(): number {
    const at = this.pos;
    const value = this.varint();
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ProtobufError(`varint ${value} is too large here`, at);
    return Number(value);
  }

  private byte(): number {
    if (this.pos >= this.end) throw new ProtobufError('unexpected end of message', this.pos);
    return this.buf[this.pos++]!;
  }

  private take(count: number): number {
    const at = this.pos;
    if (count > this.end - at) throw new ProtobufError(`unexpected end of message (${count} bytes needed, ${this.end - at} left)`, at);
    this.pos += count;
    return at;
  }
}
