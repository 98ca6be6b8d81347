import { describe, expect, it } from 'vitest';
import { isPodAvailable, isPodReady, podReadyCondition, podReadySinceMs } from './pod-conditions.js';

const SINCE = Date.UTC(2026, 0, 1, 12, 0, 0);
const pod = (status?: string, lastTransitionTime?: string) => ({
  status: { conditions: [{ type: 'PodScheduled', status: 'True' }, ...(status ? [{ type: 'Ready', status, lastTransitionTime }] : [])] },
});

describe('pod conditions', () => {
  it('finds the Ready condition and tells whether it is True', () => {
    expect(podReadyCondition(pod('False'))?.status).toBe('False');
    expect(isPodReady(pod('True'))).toBe(true);
    expect(isPodReady(pod('False'))).toBe(false);
    expect(isPodReady(pod('Unknown'))).toBe(false);
    expect(isPodReady(pod())).toBe(false);
    expect(isPodReady({})).toBe(false);
  });

  it('knows since when a ready pod is ready', () => {
    expect(podReadySinceMs(pod('True', '2026-01-01T12:00:00Z'))).toBe(SINCE);
    expect(podReadySinceMs(pod('False', '2026-01-01T12:00:00Z'))).toBeUndefined();
    expect(podReadySinceMs(pod('True'))).toBeUndefined();
  });

  it('makes a ready pod available only after minReadySeconds have passed', () => {
    const ready = pod('True', '2026-01-01T12:00:00Z');
    expect(isPodAvailable(ready, 0, SINCE)).toBe(true);
    expect(isPodAvailable(ready, 10, SINCE + 10_000)).toBe(false);
    expect(isPodAvailable(ready, 10, SINCE + 10_001)).toBe(true);
    expect(isPodAvailable(pod('True'), 10, SINCE + 60_000)).toBe(false);
    expect(isPodAvailable(pod('False', '2026-01-01T12:00:00Z'), 0, SINCE + 60_000)).toBe(false);
  });
});
