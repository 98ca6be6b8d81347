import { describe, expect, it } from 'vitest';
import { parseTimeMs, rfc3339, rfc3339Micro } from './time.js';

const AT = Date.UTC(2026, 10, 26, 13, 41, 23, 987);

describe('rfc3339', () => {
  it('writes whole seconds, truncating the fraction', () => {
    expect(rfc3339(AT)).toBe('2026-11-26T13:41:23Z');
    expect(rfc3339(AT - 987)).toBe('2026-11-26T13:41:23Z');
    expect(rfc3339(AT + 13)).toBe('2026-11-26T13:41:24Z');
  });

  it('writes the epoch and times before it', () => {
    expect(rfc3339(0)).toBe('1970-01-01T00:00:00Z');
    expect(rfc3339(-500)).toBe('1969-12-31T23:59:59Z');
  });
});

describe('rfc3339Micro', () => {
  it('keeps the milliseconds as six fractional digits', () => {
    expect(rfc3339Micro(AT)).toBe('2026-11-26T13:41:23.987000Z');
    expect(rfc3339Micro(AT - 987)).toBe('2026-11-26T13:41:23.000000Z');
    expect(rfc3339Micro(AT + 0.6)).toBe('2026-11-26T13:41:23.987000Z');
  });
});

describe('parseTimeMs', () => {
  it.each([
    ['2026-11-26T13:41:23Z', AT - 987],
    ['2026-11-26T13:41:23.987000Z', AT],
    ['2026-11-26T14:41:23+01:00', AT - 987],
  ])('reads %s', (text, ms) => {
    expect(parseTimeMs(text)).toBe(ms);
  });

  it.each([undefined, '', 'yesterday'])('gives undefined for %j', (text) => {
    expect(parseTimeMs(text)).toBeUndefined();
  });

  it('round-trips what rfc3339 and rfc3339Micro write', () => {
    expect(parseTimeMs(rfc3339(AT))).toBe(AT - 987);
    expect(parseTimeMs(rfc3339Micro(AT))).toBe(AT);
  });
});
