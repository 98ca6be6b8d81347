import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import { createExpectations, EXPECTATIONS_TTL_MS } from './expectations.js';

const KEY = 'default/web';

describe('expectations', () => {
  it('are satisfied for a key nobody set expectations for', () => {
    expect(createExpectations({ clock: new FakeClock() }).satisfied(KEY)).toBe(true);
  });

  it('wait until every expected creation was observed', () => {
    const expectations = createExpectations({ clock: new FakeClock() });
    expectations.expectCreations(KEY, 2);
    expect(expectations.satisfied(KEY)).toBe(false);
    expectations.creationObserved(KEY);
    expect(expectations.satisfied(KEY)).toBe(false);
    expectations.creationObserved(KEY);
    expect(expectations.satisfied(KEY)).toBe(true);
    expect(expectations.satisfied('default/other')).toBe(true);
  });

  it('count each expected deletion once, however often it is observed', () => {
    const expectations = createExpectations({ clock: new FakeClock() });
    expectations.expectDeletions(KEY, ['default/a', 'default/b']);
    expectations.deletionObserved(KEY, 'default/a');
    expectations.deletionObserved(KEY, 'default/a'); // deletionTimestamp update, then the delete
    expectations.deletionObserved(KEY, 'default/unrelated');
    expect(expectations.satisfied(KEY)).toBe(false);
    expectations.deletionObserved(KEY, 'default/b');
    expect(expectations.satisfied(KEY)).toBe(true);
  });

  it('expire after five minutes so a lost event cannot block the ReplicaSet forever', () => {
    const clock = new FakeClock(1_000);
    const expectations = createExpectations({ clock });
    expectations.expectCreations(KEY, 1);
    clock.advance(EXPECTATIONS_TTL_MS);
    expect(expectations.satisfied(KEY)).toBe(false);
    clock.advance(1);
    expect(expectations.satisfied(KEY)).toBe(true);
  });

  it('start the timer again when new expectations replace old ones', () => {
    const clock = new FakeClock();
    const expectations = createExpectations({ clock, ttlMs: 100 });
    expectations.expectCreations(KEY, 5);
    clock.advance(90);
    expectations.expectDeletions(KEY, ['default/a']);
    clock.advance(90);
    expect(expectations.satisfied(KEY)).toBe(false);
  });

  it('are forgotten on delete (a restarted controller likewise starts empty)', () => {
    const clock = new FakeClock();
    const expectations = createExpectations({ clock });
    expectations.expectCreations(KEY, 3);
    expectations.delete(KEY);
    expect(expectations.satisfied(KEY)).toBe(true);
    expect(createExpectations({ clock }).satisfied(KEY)).toBe(true);
  });
});
