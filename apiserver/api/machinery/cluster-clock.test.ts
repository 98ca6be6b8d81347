import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ClockState, createClusterClock } from './cluster-clock.js';

const START = Date.UTC(2030, 0, 1);

describe('createClusterClock: virtual mode and advance', () => {
  it('stands still until advanced', async () => {
    const clock = createClusterClock({ mode: 'virtual', startMs: START });
    const fired = vi.fn();
    clock.setTimeout(fired, 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(clock.now()).toBe(START);
    expect(clock.state()).toMatchObject({ nowMs: START, speed: 1, paused: true });
    expect(fired).not.toHaveBeenCalled();
    await clock.advance(1);
    expect(fired).toHaveBeenCalledOnce();
    expect(clock.now()).toBe(START + 1);
  });

  it('fires timers in due order, ties in creation order, with now() at the due time', async () => {
    const clock = createClusterClock({ mode: 'virtual', startMs: START });
    const seen: Array<[string, number]> = [];
    const at = (name: string, delayMs: number) => clock.setTimeout(() => seen.push([name, clock.now() - START]), delayMs);
    at('c', 3_000);
    at('a1', 1_000);
    at('b', 2_000);
    at('a2', 1_000);
    at('late', 10_001);
    await clock.advance(10_000);
    expect(seen).toEqual([
      ['a1', 1_000],
      ['a2', 1_000],
      ['b', 2_000],
      ['c', 3_000],
    ]);
    expect(clock.now()).toBe(START + 10_000);
    expect(clock.pending()).toEqual({ count: 1, nextDueMs: START + 10_001 });
  });

  it('runs the step hook between due times, so what one timer sets in motion happens before the next', async () => {
    const clock = createClusterClock({ mode: 'virtual', startMs: START });
    const seen: string[] = [];
    let release!: () => void;
    const settled = new Promise<void>((resolve) => (release = resolve));
    let consequence: Promise<void> | undefined;
    clock.setTimeout(() => {
      seen.push('first');
      // Its consequence lands only once the hook lets it, and schedules a timer before the second one.
      consequence = (async () => {
        await settled;
        clock.setTimeout(() => seen.push('consequence'), 500);
      })();
    }, 1_000);
    clock.setTimeout(() => seen.push('second'), 2_000);
    clock.setStepHook(async () => {
      seen.push(`hook@${clock.now() - START}`);
      release();
      await consequence;
    });
    await clock.advance(5_000);
    expect(seen).toEqual(['first', 'hook@1000', 'consequence', 'hook@1500', 'second', 'hook@2000']);
  });

  it('lets a sleeping loop wake at every step of one advance', async () => {
    const clock = createClusterClock({ mode: 'virtual', startMs: START });
    const ticks: number[] = [];
    const stop = new AbortController();
    const loop = (async () => {
      for (;;) {
        await clock.sleep(1_000, stop.signal);
        ticks.push(clock.now() - START);
      }
    })().catch(() => undefined);
    await clock.advance(3_500);
    expect(ticks).toEqual([1_000, 2_000, 3_000]);
    stop.abort();
    await loop;
    expect(clock.pending().count).toBe(0);
  });

  it('fires timers that are already due while paused', async () => {
    const clock = createClusterClock({ mode: 'virtual', startMs: START });
    await expect(clock.sleep(0)).resolves.toBeUndefined();
    expect(clock.now()).toBe(START);
  });

  it('rejects a step hook error and stays at the step it reached', async () => {
    const clock = createClusterClock({ mode: 'virtual', startMs: START });
    clock.setTimeout(() => undefined, 1_000);
    clock.setStepHook(() => Promise.reject(new Error('not settled')));
    await expect(clock.advance(5_000)).rejects.toThrow('not settled');
    expect(clock.now()).toBe(START + 1_000);
    clock.setStepHook(undefined);
    await clock.advance(1);
    expect(clock.now()).toBe(START + 1_001);
  });

  it('rejects a negative or non-finite advance', async () => {
    const clock = createClusterClock({ mode: 'virtual', startMs: START });
    for (const ms of [-1, Number.NaN, Number.POSITIVE_INFINITY]) await expect(clock.advance(ms)).rejects.toBeInstanceOf(RangeError);
    expect(clock.now()).toBe(START);
  });

  it('advances a running clock too', async () => {
    const clock = createClusterClock({ mode: 'real', startMs: START });
    const fired = vi.fn(() => clock.now());
    // Read before arming: the timer fires at its due time, which is then at least before + 1 h.
    const before = clock.now();
    clock.setTimeout(fired, 3_600_000);
    await clock.advance(3_600_000);
    // The clock runs on wall time too, so a busy machine may add a millisecond or two.
    expect(fired).toHaveBeenCalledOnce();
    expect(fired.mock.results[0]?.value).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(fired.mock.results[0]?.value).toBeLessThan(before + 3_600_000 + 1_000);
    expect(clock.now()).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(clock.state().paused).toBe(false);
  });
});

describe('createClusterClock: wall time', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps now() continuous across pause, resume and speed changes', () => {
    vi.useFakeTimers({ now: 0 });
    const clock = createClusterClock({ startMs: START, speed: 2 });
    vi.advanceTimersByTime(100);
    expect(clock.now()).toBe(START + 200);
    clock.pause();
    vi.advanceTimersByTime(1_000);
    expect(clock.now()).toBe(START + 200);
    clock.resume();
    vi.advanceTimersByTime(50);
    expect(clock.now()).toBe(START + 300);
    clock.setSpeed(10);
    expect(clock.now()).toBe(START + 300);
    vi.advanceTimersByTime(10);
    expect(clock.now()).toBe(START + 400);
  });

  it('re-arms pending timers when the pace changes, and holds them while paused', () => {
    vi.useFakeTimers({ now: 0 });
    const clock = createClusterClock({ startMs: START });
    const fired = vi.fn();
    clock.setTimeout(fired, 1_000);
    vi.advanceTimersByTime(500);
    clock.setSpeed(10); // 500 cluster ms left: 50 wall ms
    vi.advanceTimersByTime(49);
    expect(fired).not.toHaveBeenCalled();
    clock.pause();
    vi.advanceTimersByTime(10_000);
    expect(fired).not.toHaveBeenCalled();
    clock.resume();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledOnce();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("waits past Node's timer limit and leaves no wall timer behind a cancel", () => {
    vi.useFakeTimers({ now: 0 });
    const clock = createClusterClock({ startMs: 0 });
    const fired = vi.fn();
    clock.setTimeout(fired, 2 ** 31 + 1_000);
    vi.advanceTimersByTime(2 ** 31 - 1);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_001);
    expect(fired).toHaveBeenCalledOnce();
    clock.setTimeout(fired, 10).cancel();
    expect(clock.pending()).toEqual({ count: 0 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects a speed that is not a positive finite number', () => {
    const clock = createClusterClock();
    for (const speed of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => clock.setSpeed(speed)).toThrow(RangeError);
      expect(() => createClusterClock({ speed })).toThrow(RangeError);
    }
    expect(() => createClusterClock({ mode: 'frozen' as 'real' })).toThrow(RangeError);
  });
});

describe('createClusterClock: following', () => {
  it('reports every change to its listeners until they unsubscribe', async () => {
    const clock = createClusterClock({ mode: 'virtual', startMs: START });
    const states: ClockState[] = [];
    const unsubscribe = clock.onChange((state) => states.push(state));
    clock.resume();
    clock.setSpeed(5);
    clock.pause();
    await clock.advance(60_000);
    unsubscribe();
    clock.resume();
    expect(states.map((s) => [s.paused, s.speed])).toEqual([
      [false, 1],
      [false, 5],
      [true, 5],
      [true, 5],
    ]);
    expect(states[3]!.nowMs - states[2]!.nowMs).toBe(60_000);
  });

  it('apply() jumps forward firing due timers in order, then takes the pace and pause state', async () => {
    const leader = createClusterClock({ mode: 'virtual', startMs: START });
    const follower = createClusterClock({ mode: 'virtual', startMs: START });
    const seen: number[] = [];
    follower.setTimeout(() => seen.push(follower.now() - START), 120_000);
    follower.setTimeout(() => seen.push(follower.now() - START), 60_000);
    leader.onChange((state) => void follower.apply(state));
    await leader.advance(3_600_000);
    await follower.apply(leader.state());
    expect(seen).toEqual([60_000, 120_000]);
    expect(follower.now()).toBe(START + 3_600_000);
    await follower.apply({ nowMs: START + 3_600_000, speed: 7, paused: false });
    expect(follower.state()).toMatchObject({ speed: 7, paused: false });
    await follower.apply({ nowMs: START + 3_600_000, speed: 7, paused: true });
    expect(follower.state()).toMatchObject({ nowMs: START + 3_600_000, paused: true });
  });

  it('apply() re-bases on a state slightly behind (no timers fire, no jump back past them)', async () => {
    const follower = createClusterClock({ mode: 'virtual', startMs: START + 5 });
    await follower.apply({ nowMs: START, speed: 1, paused: true });
    expect(follower.now()).toBe(START);
  });

  it('apply() rejects a state that is not one', async () => {
    const follower = createClusterClock({ mode: 'virtual', startMs: START });
    await expect(follower.apply({ nowMs: Number.NaN, speed: 1, paused: true })).rejects.toBeInstanceOf(RangeError);
    await expect(follower.apply({ nowMs: START, speed: 0, paused: true })).rejects.toBeInstanceOf(RangeError);
    await expect(follower.apply({ nowMs: START, speed: 1, paused: 'yes' as unknown as boolean })).rejects.toBeInstanceOf(RangeError);
  });
});
