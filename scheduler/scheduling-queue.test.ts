import { describe, expect, it } from 'vitest';
import { FakeClock } from '../apiserver/api/machinery/clock.js';
import { type QueuedPodInfo, SchedulingQueue } from './scheduling-queue.js';
import { makePod } from './testing/fixtures.js';

function setup() {
  const clock = new FakeClock(0);
  const queue = new SchedulingQueue({ clock });
  const pod = (name: string, priority = 0) => makePod(name, { spec: { priority } });
  const popKey = async () => (await queue.pop())?.key;
  return { clock, queue, pod, popKey };
}

describe('SchedulingQueue', () => {
  it('pops higher priority first, then in arrival order, each pod once', async () => {
    const { clock, queue, pod, popKey } = setup();
    queue.add(pod('low'));
    clock.advance(1);
    queue.add(pod('high', 10));
    queue.add(pod('low-2'));
    queue.add(pod('low'));
    expect([await popKey(), await popKey(), await popKey()]).toEqual(['default/high', 'default/low', 'default/low-2']);
    expect(queue.stats()).toEqual({ active: 0, backoff: 0, unschedulable: 0, inFlight: 3 });
  });

  it('parks an unschedulable pod until a cluster event, then retries it after its backoff', async () => {
    const { clock, queue, pod, popKey } = setup();
    queue.add(pod('p'));
    const info = (await queue.pop())!;
    queue.requeueUnschedulable(info);
    clock.advance(5_000);
    expect(queue.stats().unschedulable).toBe(1);
    queue.moveAllToActiveOrBackoff();
    expect(queue.stats().active).toBe(1);
    expect(await popKey()).toBe('default/p');
  });

  it('sends a pod moved while still backing off to the backoff queue first', async () => {
    const { clock, queue, pod } = setup();
    queue.add(pod('p'));
    queue.requeueUnschedulable((await queue.pop())!);
    queue.moveAllToActiveOrBackoff();
    expect(queue.stats().backoff).toBe(1);
    clock.advance(999);
    expect(queue.stats().backoff).toBe(1);
    clock.advance(1);
    expect(queue.stats().active).toBe(1);
  });

  it('does not lose an event that arrives during the attempt: the failure goes to backoff', async () => {
    const { clock, queue, pod } = setup();
    queue.add(pod('p'));
    const info = (await queue.pop())!;
    queue.moveAllToActiveOrBackoff();
    queue.requeueUnschedulable(info);
    expect(queue.stats().backoff).toBe(1);
    clock.advance(1_000);
    expect(queue.stats().active).toBe(1);
  });

  it('doubles the backoff from 1 s up to 10 s', () => {
    const { queue } = setup();
    expect([1, 2, 3, 4, 5, 6].map((attempts) => queue.backoffMs(attempts))).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
  });

  it('retries after an error with backoff growing per attempt', async () => {
    const { clock, queue, pod } = setup();
    queue.add(pod('p'));
    queue.requeueBackoff((await queue.pop())!);
    clock.advance(1_000);
    queue.requeueBackoff((await queue.pop())!);
    clock.advance(1_999);
    expect(queue.stats().backoff).toBe(1);
    clock.advance(1);
    expect((await queue.pop())?.attempts).toBe(3);
  });

  it('retries a relevant update of an unschedulable pod, and marks an in-flight one', async () => {
    const { clock, queue, pod } = setup();
    queue.add(pod('p'));
    queue.requeueUnschedulable((await queue.pop())!);
    clock.advance(2_000);
    queue.update(pod('p'));
    expect(queue.stats().active).toBe(1);
    const info = (await queue.pop())!;
    queue.update(pod('p'));
    expect(queue.stats().inFlight).toBe(1);
    queue.requeueUnschedulable(info);
    expect(queue.stats().backoff).toBe(1);
  });

  it('moves only the pods a narrow event accepts', async () => {
    const { queue, pod, clock } = setup();
    queue.add(pod('a'));
    queue.add(pod('b'));
    const infos = [(await queue.pop())!, (await queue.pop())!];
    for (const info of infos) queue.requeueUnschedulable(info);
    clock.advance(5_000);
    queue.moveAllToActiveOrBackoff((key) => key === 'default/b');
    expect(queue.stats()).toMatchObject({ active: 1, unschedulable: 1 });
  });

  it('flushes pods unschedulable for a minute even without events', async () => {
    const { clock, queue, pod } = setup();
    queue.start();
    queue.add(pod('p'));
    queue.requeueUnschedulable((await queue.pop())!);
    clock.advance(30_000);
    expect(queue.stats().unschedulable).toBe(1);
    clock.advance(30_000);
    expect(queue.stats().active).toBe(1);
    queue.close();
  });

  it('forgets deleted and finished pods, ignoring stale infos', async () => {
    const { queue, pod } = setup();
    queue.add(pod('p'));
    const stale = (await queue.pop())!;
    queue.delete('default/p');
    queue.add(pod('p'));
    queue.requeueBackoff(stale);
    expect(queue.stats()).toEqual({ active: 1, backoff: 0, unschedulable: 0, inFlight: 0 });
    const current = (await queue.pop())!;
    queue.done(current);
    expect(queue.stats()).toEqual({ active: 0, backoff: 0, unschedulable: 0, inFlight: 0 });
  });

  it('close wakes waiting pops with undefined and cancels every timer', async () => {
    const { clock, queue, pod } = setup();
    queue.start();
    queue.add(pod('p'));
    queue.requeueBackoff((await queue.pop())!);
    const waiting = queue.pop();
    queue.close();
    expect(await waiting).toBeUndefined();
    expect(clock.pendingTimers).toBe(0);
  });

  it('pop waits for a pod that arrives later', async () => {
    const { queue, pod } = setup();
    const waiting: Promise<QueuedPodInfo | undefined> = queue.pop();
    queue.add(pod('late'));
    expect((await waiting)?.key).toBe('default/late');
  });
});
