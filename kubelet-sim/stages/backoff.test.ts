import { describe, expect, it } from 'vitest';
import { backoffFromRestarts, isInBackoffSince, nextBackoff } from './backoff.js';

describe('kubelet backoff', () => {
  it('starts at 10s and doubles up to 5 minutes', () => {
    let entry = nextBackoff(undefined, 0, 0);
    const durations = [entry.durationMs];
    for (let i = 1; i < 8; i++) {
      entry = nextBackoff(entry, i * 1000, i * 1000);
      durations.push(entry.durationMs);
    }
    expect(durations).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
  });

  it('is not in backoff without a record, within the duration it is, after it it is not', () => {
    const entry = { durationMs: 10_000, lastUpdateMs: 0 };
    expect(isInBackoffSince(undefined, 5_000, 5_000)).toBe(false);
    expect(isInBackoffSince(entry, 5_000, 14_999)).toBe(true);
    expect(isInBackoffSince(entry, 5_000, 15_000)).toBe(false);
  });

  it('forgets a record more than 10 minutes old', () => {
    const entry = { durationMs: 300_000, lastUpdateMs: 0 };
    expect(isInBackoffSince(entry, 600_001, 600_001)).toBe(false);
    expect(nextBackoff(entry, 600_001, 600_001).durationMs).toBe(10_000);
  });

  it('rebuilds a record from the restart count', () => {
    expect(backoffFromRestarts(0, 0)).toBeUndefined();
    expect(backoffFromRestarts(3, 1000)).toEqual({ durationMs: 40_000, lastUpdateMs: 1000 });
    expect(backoffFromRestarts(40, 1000)?.durationMs).toBe(300_000);
  });
});
