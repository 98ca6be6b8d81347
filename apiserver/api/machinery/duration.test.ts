import { describe, expect, it } from 'vitest';
import { parseDuration, parseDurationNs } from './duration.js';

describe('parseDurationNs (Go time.ParseDuration)', () => {
  it.each([
    ['0', 0n],
    ['-0', 0n],
    ['+0', 0n],
    ['5s', 5_000_000_000n],
    ['1h30m', 5_400_000_000_000n],
    ['1.5h', 5_400_000_000_000n],
    ['300ms', 300_000_000n],
    ['-1.5s', -1_500_000_000n],
    ['.5s', 500_000_000n],
    ['5.s', 5_000_000_000n],
    ['1m0s', 60_000_000_000n],
    ['1h2m3.5s', 3_723_500_000_000n],
    ['10us', 10_000n],
    ['10µs', 10_000n],
    ['10μs', 10_000n],
    ['7ns', 7n],
    ['1.0000000001s', 1_000_000_000n],
    ['9223372036854775807ns', 9_223_372_036_854_775_807n],
    ['-9223372036854775808ns', -9_223_372_036_854_775_808n],
  ])('%s is %d ns', (text, ns) => {
    expect(parseDurationNs(text)).toBe(ns);
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['-', 'time: invalid duration "-"'],
    ['x', 'time: invalid duration "x"'],
    ['.s', 'time: invalid duration ".s"'],
    ['1', 'time: missing unit in duration "1"'],
    ['1.5', 'time: missing unit in duration "1.5"'],
    ['1h2', 'time: missing unit in duration "1h2"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['3 s', 'time: unknown unit " s" in duration "3 s"'],
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
    ['3000000h', 'time: invalid duration "3000000h"'],
  ])('rejects %j as Go does', (text, message) => {
    expect(() => parseDurationNs(text)).toThrow(new RangeError(message));
  });

  it('accepts days and weeks only when asked (OpenAPI duration data)', () => {
    expect(parseDurationNs('1d12h', { days: true })).toBe(129_600_000_000_000n);
    expect(parseDurationNs('2w', { days: true })).toBe(1_209_600_000_000_000n);
    expect(() => parseDurationNs('2w')).toThrow(RangeError);
  });
});

describe('parseDuration', () => {
  it('gives milliseconds, keeping fractions of one', () => {
    expect(parseDuration('1m30s')).toBe(90_000);
    expect(parseDuration('1500us')).toBe(1.5);
    expect(parseDuration('-2ms')).toBe(-2);
  });
});
