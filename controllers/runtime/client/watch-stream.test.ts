import { describe, expect, it } from 'vitest';
import { decodeWatchEvent, LineSplitter, WatchDecodeError } from './watch-stream.js';

describe('LineSplitter', () => {
  it('emits a line only once its newline arrived, however the chunks were cut', () => {
    const splitter = new LineSplitter();
    expect(splitter.push('{"a":')).toEqual([]);
    expect(splitter.push('1}\n{"b"')).toEqual(['{"a":1}']);
    expect(splitter.push(':2}\n\n{"c":3}\n')).toEqual(['{"b":2}', '{"c":3}']);
    expect(splitter.end()).toEqual([]);
  });

  it('keeps a multi-byte character split across two chunks intact', () => {
    const bytes = Buffer.from('{"name":"zürich"}\n');
    const cut = bytes.indexOf(0xc3) + 1;
    const splitter = new LineSplitter();
    expect(splitter.push(bytes.subarray(0, cut))).toEqual([]);
    expect(splitter.push(bytes.subarray(cut))).toEqual(['{"name":"zürich"}']);
  });

  it('returns a last line without a trailing newline at the end', () => {
    const splitter = new LineSplitter();
    splitter.push('{"a":1}\n{"b":2}');
    expect(splitter.end()).toEqual(['{"b":2}']);
  });

  it('handles CRLF line ends', () => {
    expect(new LineSplitter().push('{"a":1}\r\n')).toEqual(['{"a":1}']);
  });
});

describe('decodeWatchEvent', () => {
  it('decodes a watch frame', () => {
    expect(decodeWatchEvent('{"type":"ADDED","object":{"metadata":{"name":"a"}}}')).toEqual({ type: 'ADDED', object: { metadata: { name: 'a' } } });
  });

  it.each([
    ['not JSON', '{"type":'],
    ['an unknown type', '{"type":"CHANGED","object":{}}'],
    ['no object', '{"type":"ADDED"}'],
    ['not an object', '42'],
  ])('rejects %s with WatchDecodeError', (_what, line) => {
    expect(() => decodeWatchEvent(line)).toThrow(WatchDecodeError);
  });
});
