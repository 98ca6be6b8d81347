import { describe, expect, it } from 'vitest';
import { createWriteTracker } from './write-tracker.js';

describe('WriteTracker', () => {
  it('is stale until the cache shows our writes and deletes, then fresh', () => {
    const tracker = createWriteTracker();
    tracker.wrote('default/web', 'web-a', '10');
    expect(tracker.isStale('default/web', new Map())).toBe(true);
    expect(tracker.isStale('default/web', new Map([['web-a', '9']]))).toBe(true);
    expect(tracker.isStale('default/web', new Map([['web-a', '10']]))).toBe(false);
    tracker.deleted('default/web', 'web-a');
    expect(tracker.isStale('default/web', new Map([['web-a', '10']]))).toBe(true);
    expect(tracker.isStale('default/web', new Map())).toBe(false);
    expect(tracker.isStale('default/other', new Map())).toBe(false);
    tracker.wrote('default/web', 'web-b', '12');
    tracker.forget('default/web');
    expect(tracker.isStale('default/web', new Map())).toBe(false);
  });
});
