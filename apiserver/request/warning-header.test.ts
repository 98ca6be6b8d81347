import { describe, expect, it } from 'vitest';
import { MAX_WARNING_BYTES, warningHeaderValue } from './warning-header.js';

/** As a client reads the header: the bytes on the wire decoded as UTF-8. */
const onTheWire = (value: string) => Buffer.from(value, 'latin1').toString('utf8');

describe('warningHeaderValue', () => {
  it('quotes the text with kube-apiserver’s agent and code', () => {
    expect(warningHeaderValue('unknown field "spec.x"')).toBe('299 - "unknown field \\"spec.x\\""');
  });

  it('carries text past U+00FF as UTF-8 bytes that Node accepts in a header', () => {
    const value = warningHeaderValue('unknown field "€"');
    expect(value).toMatch(/^[\t\x20-\x7e\x80-\xff]*$/);
    expect(onTheWire(value)).toBe('299 - "unknown field \\"€\\""');
  });

  it('drops control characters and caps the length', () => {
    expect(warningHeaderValue('a\nb\r\u0000c\td')).toBe('299 - "abc\td"');
    expect(onTheWire(warningHeaderValue('é'.repeat(10_000))).length).toBeLessThanOrEqual(MAX_WARNING_BYTES);
  });
});
