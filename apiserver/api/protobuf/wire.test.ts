import { describe, expect, it } from 'vitest';
import { bytes, concat, fixed32, fixed64, int, msg, str, varint } from './testing/proto-writer.js';
import { ProtobufError, ProtobufReader, WireTypes } from './wire.js';

const errorOf = (read: () => unknown): ProtobufError => {
  try {
    read();
  } catch (err) {
    if (err instanceof ProtobufError) return err;
    throw err;
  }
  throw new Error('expected a ProtobufError');
};

describe('ProtobufReader', () => {
  it('reads tags and varints of every size', () => {
    const reader = new ProtobufReader(concat(int(1, 0), int(2, 300), int(3, 2 ** 40), int(536_870_911, 1)));
    for (const [field, value] of [
      [1, 0n],
      [2, 300n],
      [3, 2n ** 40n],
      [536_870_911, 1n],
    ] as const) {
      expect(reader.tag()).toEqual({ field, wireType: WireTypes.varint });
      expect(reader.varint()).toBe(value);
    }
    expect(reader.done()).toBe(true);
  });

  it("reads negative int32 and int64 from their 10-byte two's complement form", () => {
    const reader = new ProtobufReader(concat(varint(-1), varint(-2_147_483_648), varint(-5)));
    expect(varint(-1)).toHaveLength(10);
    expect(reader.int32()).toBe(-1);
    expect(reader.int32()).toBe(-2_147_483_648);
    expect(reader.int64()).toBe(-5);
  });

  it('truncates an int32 read from a wider varint, as Go does', () => {
    expect(new ProtobufReader(varint(2 ** 32 + 7)).int32()).toBe(7);
  });

  it('reads bools, strings, bytes and the fixed-width types', () => {
    const reader = new ProtobufReader(concat(int(1, true), str(2, 'héllo'), bytes(3, Uint8Array.of(0, 255)), fixed32(4, 0xdeadbeef), fixed64(5, 2n ** 63n)));
    reader.tag();
    expect(reader.bool()).toBe(true);
    reader.tag();
    expect(reader.string()).toBe('héllo');
    reader.tag();
    expect([...reader.bytes()]).toEqual([0, 255]);
    expect(reader.tag()).toEqual({ field: 4, wireType: WireTypes.fixed32 });
    expect(reader.fixed32()).toBe(0xdeadbeef);
    expect(reader.tag()).toEqual({ field: 5, wireType: WireTypes.fixed64 });
    expect(reader.fixed64()).toBe(2n ** 63n);
  });

  it('reads embedded messages in place, with offsets absolute to the whole buffer', () => {
    const buf = concat(str(1, 'ab'), msg(2, str(1, 'x')));
    const reader = new ProtobufReader(buf);
    reader.tag();
    reader.skip(WireTypes.bytes);
    reader.tag();
    const inner = reader.message();
    expect(inner.offset).toBe(6);
    expect(inner.tag()).toEqual({ field: 1, wireType: WireTypes.bytes });
    expect(inner.string()).toBe('x');
    expect(inner.done()).toBe(true);
    expect(reader.done()).toBe(true);
  });

  it('skips every wire type', () => {
    const reader = new ProtobufReader(concat(int(1, 5), fixed64(2, 1n), str(3, 'abc'), fixed32(4, 1), int(5, 9)));
    for (let i = 0; i < 4; i++) reader.skip(reader.tag().wireType);
    reader.tag();
    expect(reader.varint()).toBe(9n);
  });

  it('names the offset of a truncated varint, length or fixed-width value', () => {
    expect(errorOf(() => new ProtobufReader(Uint8Array.of(0x80)).varint())).toMatchObject({ offset: 1, detail: 'unexpected end of message' });
    const longString = Uint8Array.of(0x0a, 0x05, 0x61, 0x62);
    const reader = new ProtobufReader(longString);
    reader.tag();
    expect(errorOf(() => reader.string())).toMatchObject({ offset: 1, message: 'length 5 runs past the end of the message (2 bytes left) at offset 1' });
    const fixed = new ProtobufReader(Uint8Array.of(0x0d, 1, 2));
    fixed.tag();
    expect(errorOf(() => fixed.fixed32()).message).toBe('unexpected end of message (4 bytes needed, 2 left) at offset 1');
  });

  it('refuses varints longer than 10 bytes, field 0, groups and invalid wire types', () => {
    expect(errorOf(() => new ProtobufReader(new Uint8Array(11).fill(0x80)).varint()).message).toBe('varint is longer than 10 bytes at offset 0');
    expect(errorOf(() => new ProtobufReader(Uint8Array.of(0x00)).tag()).message).toBe('invalid field number 0 at offset 0');
    expect(errorOf(() => new ProtobufReader(Uint8Array.of(0x0b)).tag()).message).toBe('field 1 uses the unsupported group wire type 3 at offset 0');
    expect(errorOf(() => new ProtobufReader(Uint8Array.of(0x0f)).tag()).message).toBe('field 1 has the invalid wire type 7 at offset 0');
  });

  it('never reads past the end of a nested message into its parent', () => {
    // The inner message claims a 3-byte string but only holds 1 byte; the parent has more.
    const buf = concat(bytes(1, Uint8Array.of(0x0a, 0x03, 0x61)), str(2, 'zz'));
    const reader = new ProtobufReader(buf);
    reader.tag();
    const inner = reader.message();
    inner.tag();
    expect(errorOf(() => inner.string()).offset).toBe(3);
  });
});
