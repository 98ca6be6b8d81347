import { describe, expect, it } from 'vitest';
import { ProtobufReader, WireTypes } from './wire.js';
import { ProtobufWriter } from './writer.js';

describe('ProtobufWriter', () => {
  it('writes what ProtobufReader reads back, skipping proto3 zero values', () => {
    const bytes = new ProtobufWriter()
      .string(1, 'héllo')
      .string(2, '')
      .bool(3, true)
      .bool(4, false)
      .int64(5, 300)
      .int64(6, 0)
      .double(7, 1.5)
      .strings(8, ['a', ''])
      .message(9, (inner) => inner.oneofBool(2, false))
      .finish();
    const reader = new ProtobufReader(bytes);
    const read: Array<[number, unknown]> = [];
    while (!reader.done()) {
      const { field, wireType } = reader.tag();
      if (field === 9) {
        const inner = reader.message();
        const tag = inner.tag();
        read.push([field, [tag.field, inner.bool()]]);
      } else if (wireType === WireTypes.bytes) read.push([field, reader.string()]);
      else if (wireType === WireTypes.fixed64) read.push([field, Buffer.from(new BigUint64Array([reader.fixed64()]).buffer).readDoubleLE()]);
      else read.push([field, Number(reader.varint())]);
    }
    expect(read).toEqual([
      [1, 'héllo'],
      [3, 1],
      [5, 300],
      [7, 1.5],
      [8, 'a'],
      [8, ''],
      [9, [2, false]],
    ]);
  });

  it('refuses a value a varint cannot carry', () => {
    expect(() => new ProtobufWriter().int64(1, -1)).toThrow(RangeError);
  });
});
