import { describe, expect, it } from 'vitest';
import type { StoreEvent } from './types.js';
import { type EncodedEvent, WatchHub } from './watch-hub.js';

function event(revision: number, namespace = 'a'): EncodedEvent {
  const body = JSON.stringify({ metadata: { name: 'x', resourceVersion: String(revision) } });
  const ref = { resource: 'pods', namespace, name: 'x' };
  return { type: 'ADDED', revision, ref, body, prevBody: undefined };
}

describe('WatchHub', () => {
  it('wakes concurrent next() calls in order, one message each', async () => {
    const hub = new WatchHub({ currentRevision: () => 2 });
    const watch = hub.subscribe({ resource: 'pods', afterRevision: 0, backlog: [] });
    const iterator = watch[Symbol.asyncIterator]();
    const first = iterator.next();
    const second = iterator.next();
    hub.publish(event(1));
    hub.publish(event(2));
    const revisions = (await Promise.all([first, second])).map((r) => (r.value as StoreEvent).revision);
    expect(revisions).toEqual([1, 2]);
  });

  it('forgets a watch once it ends, dropping what it had queued', async () => {
    const hub = new WatchHub({ currentRevision: () => 3, bufferSize: 1 });
    const slow = hub.subscribe({ resource: 'pods', afterRevision: 0, backlog: [event(1)] });
    const closed = hub.subscribe({ resource: 'pods', namespace: 'a', afterRevision: 0, backlog: [] });
    expect(hub.watchCount).toBe(2);
    closed.close();
    hub.publish(event(2));
    hub.publish(event(3));
    expect([slow.endReason, closed.endReason, hub.watchCount]).toEqual(['too-slow', 'closed', 0]);
    expect(await slow[Symbol.asyncIterator]().next()).toEqual({ value: undefined, done: true });
  });

  it('skips events at or below afterRevision and outside its namespace', async () => {
    const hub = new WatchHub({ currentRevision: () => 9 });
    const watch = hub.subscribe({ resource: 'pods', namespace: 'a', afterRevision: 5, backlog: [] });
    hub.publish(event(5));
    hub.publish(event(6, 'b'));
    hub.publish(event(7));
    watch.requestBookmark();
    const iterator = watch[Symbol.asyncIterator]();
    const messages = [await iterator.next(), await iterator.next()].map((r) => r.value);
    expect(messages.map((m) => `${m?.type}@${m?.revision}`)).toEqual(['ADDED@7', 'BOOKMARK@9']);
  });
});
