import { describe, expect, it } from 'vitest';
import { IntOrStringMessage, MicroTimeMessage, QuantityMessage, TimeMessage } from '../meta-protobuf.js';
import { type DecodeContext, decodeMessage } from './decode-message.js';
import { field, KEEP_ZERO, type MessageType, message } from './message-type.js';
import { bytes, concat, entry, fixed32, int, msg, str, varint } from './testing/proto-writer.js';
import { ProtobufError, ProtobufReader } from './wire.js';

const Inner = message('test.Inner', { 1: field.string('name', KEEP_ZERO), 2: field.int32('weight') });
const Embedded = message('test.Embedded', { 1: field.string('flat'), 2: field.bool('alsoFlat') });

const Sample = message('test.Sample', {
  1: field.string('text'),
  2: field.int32('count'),
  3: field.int32('replicas', KEEP_ZERO),
  4: field.bool('flag'),
  5: field.bool('optional', KEEP_ZERO),
  6: field.int64('big'),
  7: field.bytes('blob'),
  8: field.message('inner', Inner),
  9: field.repeated('names', 'string'),
  10: field.repeated('numbers', 'int32'),
  11: field.repeated('items', Inner),
  12: field.map('labels'),
  13: field.map('data', 'bytes'),
  14: field.map('limits', QuantityMessage),
  15: field.inline(Embedded),
  16: field.message('time', TimeMessage),
  17: field.message('micro', MicroTimeMessage),
  18: field.message('port', IntOrStringMessage),
});

const decode = (buf: Uint8Array, type: MessageType = Sample) => {
  const context: DecodeContext = { skipped: [] };
  const value = decodeMessage(new ProtobufReader(buf), type, context);
  return { value, skipped: context.skipped };
};

describe('decodeMessage', () => {
  it('maps field numbers to JSON names and types', () => {
    const { value } = decode(concat(str(1, 'hi'), int(2, -3), int(6, 2 ** 40), bytes(7, Uint8Array.of(0, 1, 254)), msg(8, str(1, 'a'), int(2, 7))));
    expect(value).toEqual({ text: 'hi', count: -3, big: 2 ** 40, blob: 'AAH+', inner: { name: 'a', weight: 7 } });
  });

  it('drops zero scalars Go would omit, keeps those marked KEEP_ZERO, and keeps empty messages', () => {
    const { value } = decode(concat(str(1, ''), int(2, 0), int(3, 0), int(4, false), int(5, false), msg(8, str(1, ''), int(2, 0))));
    expect(value).toEqual({ replicas: 0, optional: false, inner: { name: '' } });
  });

  it('collects repeated fields, packed or not', () => {
    const packed = bytes(10, concat(varint(1), varint(-2), varint(300)));
    const { value } = decode(concat(str(9, 'a'), str(9, ''), int(10, 5), packed, msg(11, str(1, 'x')), msg(11, str(1, 'y'))));
    expect(value).toEqual({ names: ['a', ''], numbers: [5, 1, -2, 300], items: [{ name: 'x' }, { name: 'y' }] });
  });

  it('reads maps of strings, bytes (base64) and Quantities; a missing value is the zero value', () => {
    const { value } = decode(
      concat(
        entry(12, 'app', 'web'),
        entry(12, 'tier', ''),
        msg(13, str(1, 'k'), bytes(2, new TextEncoder().encode('v'))),
        msg(14, str(1, 'cpu'), msg(2, str(1, '250m'))),
        msg(14, str(1, 'memory')),
        msg(12, str(1, 'empty')),
      ),
    );
    expect(value).toEqual({ labels: { app: 'web', tier: '', empty: '' }, data: { k: 'dg==' }, limits: { cpu: '250m', memory: '0' } });
  });

  it('keeps a map key named __proto__ as an own property, as JSON.parse does', () => {
    const { value } = decode(entry(12, '__proto__', 'x')) as { value: { labels: Record<string, string> } };
    expect(Object.getPrototypeOf(value.labels)).toBe(Object.prototype);
    expect(Object.keys(value.labels)).toEqual(['__proto__']);
    expect(value.labels).toEqual(JSON.parse('{"__proto__":"x"}'));
  });

  it('merges inline messages into their parent', () => {
    expect(decode(concat(str(1, 'x'), msg(15, str(1, 'f'), int(2, true)))).value).toEqual({ text: 'x', flat: 'f', alsoFlat: true });
  });

  it('renders Time, MicroTime and IntOrString in their JSON forms', () => {
    const { value } = decode(
      concat(msg(16, int(1, 1795329265), int(2, 999)), msg(17, int(1, 1795329265), int(2, 123_456_789)), msg(18, int(1, 1), str(3, '25%'))),
    );
    expect(value).toEqual({ time: '2026-11-22T06:34:25Z', micro: '2026-11-22T06:34:25.123456Z', port: '25%' });
    expect(decode(msg(18, int(1, 0), int(2, 8080))).value).toEqual({ port: 8080 });
    expect(decode(msg(18)).value).toEqual({ port: 0 });
  });

  it('treats an empty Time as no time, and seconds 0 as the epoch', () => {
    expect(decode(msg(16)).value).toEqual({});
    expect(decode(msg(16, int(1, 0))).value).toEqual({ time: '1970-01-01T00:00:00Z' });
    expect(decode(msg(17, int(1, 0))).value).toEqual({ micro: '1970-01-01T00:00:00.000000Z' });
  });

  it('skips unknown fields, reporting only those holding something', () => {
    const { value, skipped } = decode(concat(int(99, 0), str(98, ''), str(1, 'x'), int(97, 4), fixed32(96, 0), msg(8, str(50, 'new'))));
    expect(value).toEqual({ text: 'x', inner: {} });
    expect(skipped).toEqual([
      { path: '', field: 97, message: 'test.Sample' },
      { path: '', field: 96, message: 'test.Sample' },
      { path: 'inner', field: 50, message: 'test.Inner' },
    ]);
  });

  it('reports the path of an unknown field inside lists and maps', () => {
    const Outer = message('test.Outer', { 1: field.repeated('items', Inner), 2: field.map('byName', Inner) });
    const { skipped } = decode(concat(msg(1, str(1, 'a')), msg(1, int(9, 1)), msg(2, str(1, 'k'), msg(2, int(9, 1)))), Outer);
    expect(skipped.map((s) => s.path)).toEqual(['items[1]', 'byName[k]']);
  });

  it('refuses a known field with the wrong wire type, naming the offset of its tag', () => {
    const err = (() => {
      try {
        decode(concat(str(1, 'ok'), str(2, 'not a number')));
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(ProtobufError);
    expect((err as ProtobufError).message).toBe('field "count" has wire type 2, expected 0 at offset 4');
  });

  it('turns a well-known value it cannot represent into a ProtobufError', () => {
    const Fields = message('test.Fields', {
      1: field.message(
        'fieldsV1',
        message('test.Raw', { 1: field.bytes('Raw') }, ({ Raw }) => JSON.parse(String(Raw))),
      ),
    });
    expect(() => decode(msg(1, str(1, '{')), Fields)).toThrow(ProtobufError);
  });
});
