import { afterEach, describe, expect, it, vi } from 'vitest';
import { AbortError, createRealClock, FakeClock, isAbortError } from './clock.js';

describe('FakeClock', () => {
  it('stands still until advanced', () => {
    const clock = new FakeClock(1_000);
    expect(clock.now()).toBe(1_000);
    clock.advance(250);
    expect(clock.now()).toBe(1_250);
  });

  it('fires due timers in order of due time, then creation, each at its due time', () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`c@${clock.now()}`), 30);
    clock.setTimeout(() => fired.push(`a@${clock.now()}`), 10);
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 10);
    clock.setTimeout(() => fired.push('late'), 31);
    clock.advance(30);
    expect(fired).toEqual(['a@10', 'b@10', 'c@30']);
    expect(clock.pendingTimers).toBe(1);
  });

  it('fires timers that callbacks set inside the advanced window', () => {
    const clock = new FakeClock(0);
    const fired: number[] = [];
    clock.setTimeout(() => clock.setTimeout(() => fired.push(clock.now()), 5), 10);
    clock.advance(20);
    expect(fired).toEqual([15]);
    expect(clock.now()).toBe(20);
  });

  it('fires zero-delay timers only when advanced, even by 0', () => {
    const clock = new FakeClock(0);
    const fn = vi.fn();
    clock.setTimeout(fn, 0);
    clock.setTimeout(fn, -5);
    expect(fn).not.toHaveBeenCalled();
    clock.advance(0);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('does not fire cancelled timers', () => {
    const clock = new FakeClock(0);
    const fn = vi.fn();
    const handle = clock.setTimeout(fn, 10);
    handle.cancel();
    expect(clock.pendingTimers).toBe(0);
    clock.advance(100);
    expect(fn).not.toHaveBeenCalled();
  });

  it('rejects a negative advance', () => {
    expect(() => new FakeClock(0).advance(-1)).toThrow(RangeError);
  });

  it('sleep resolves once time reaches the delay', async () => {
    const clock = new FakeClock(0);
    let woke = false;
    const sleeping = clock.sleep(100).then(() => (woke = true));
    clock.advance(99);
    await Promise.resolve();
    expect(woke).toBe(false);
    clock.advance(1);
    await sleeping;
    expect(woke).toBe(true);
  });

  it('sleep rejects with an AbortError when aborted, leaving no timer', async () => {
    const clock = new FakeClock(0);
    const controller = new AbortController();
    const sleeping = clock.sleep(100, controller.signal);
    expect(clock.pendingTimers).toBe(1);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toMatchObject({ name: 'AbortError' });
    expect(clock.pendingTimers).toBe(0);
  });

  it('sleep rejects at once on an already-aborted signal', async () => {
    const clock = new FakeClock(0);
    const error = await clock.sleep(10, AbortSignal.abort('gone')).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe('gone');
    expect(clock.pendingTimers).toBe(0);
  });
});

describe('createRealClock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs cluster time `speed` times faster than wall time from the origin', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const clock = createRealClock({ speed: 10 });
    expect(clock.originMs).toBe(1_000_000);
    expect(clock.now()).toBe(1_000_000);
    vi.advanceTimersByTime(100);
    expect(clock.now()).toBe(1_001_000);
  });

  it('agrees with another clock given the same origin and speed', () => {
    vi.useFakeTimers({ now: 5_000 });
    const first = createRealClock({ speed: 4, originMs: 1_000 });
    vi.advanceTimersByTime(500);
    const second = createRealClock({ speed: 4, originMs: first.originMs });
    expect(second.now()).toBe(first.now());
    expect(first.now()).toBe(1_000 + 4_500 * 4);
  });

  it('waits delayMs / speed of wall time', async () => {
    vi.useFakeTimers({ now: 0 });
    const clock = createRealClock({ speed: 10 });
    const fn = vi.fn();
    clock.setTimeout(fn, 1_000);
    vi.advanceTimersByTime(99);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledOnce();
    const sleeping = clock.sleep(500);
    vi.advanceTimersByTime(50);
    await expect(sleeping).resolves.toBeUndefined();
  });

  it('chains timers longer than Node allows', () => {
    vi.useFakeTimers({ now: 0 });
    const clock = createRealClock();
    const fn = vi.fn();
    clock.setTimeout(fn, 2 ** 31 + 1_000);
    vi.advanceTimersByTime(2 ** 31 - 1);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_001);
    expect(fn).toHaveBeenCalledOnce();
  });

  it('cancels timers and aborts sleeps', async () => {
    vi.useFakeTimers({ now: 0 });
    const clock = createRealClock();
    const fn = vi.fn();
    clock.setTimeout(fn, 10).cancel();
    const controller = new AbortController();
    const sleeping = clock.sleep(10, controller.signal);
    controller.abort();
    await expect(sleeping).rejects.toBeInstanceOf(AbortError);
    vi.advanceTimersByTime(100);
    expect(fn).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects a speed that is not a positive number', () => {
    for (const speed of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createRealClock({ speed })).toThrow(RangeError);
    }
  });
});

describe('isAbortError', () => {
  it('recognises aborts from every source by name', () => {
    expect(isAbortError(new AbortError())).toBe(true);
    expect(isAbortError(new DOMException('x', 'AbortError'))).toBe(true);
    expect(isAbortError(new Error('x'))).toBe(false);
    expect(isAbortError('AbortError')).toBe(false);
    expect(isAbortError(undefined)).toBe(false);
  });
});
