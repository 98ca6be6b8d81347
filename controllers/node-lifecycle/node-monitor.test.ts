import { describe, expect, it } from 'vitest';
import type { Node } from '../../apiserver/api/core/node.js';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import type { DeepReadonly, Lister } from '../runtime/types.js';
import { createWorkQueue } from '../runtime/workqueue/queue.js';
import { createMonitorTicker } from './node-monitor.js';

const nodes: Node[] = ['node-1', 'node-2'].map((name) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } }));
const lister: Lister<Node> = {
  get: (_ns, name) => nodes.find((n) => n.metadata.name === name) as DeepReadonly<Node> | undefined,
  list: () => nodes as DeepReadonly<Node>[],
  byIndex: () => [],
};

/** settle lets the ticker's promise continuations run after a FakeClock advance. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('createMonitorTicker', () => {
  it('enqueues every node once per monitor period of cluster time, and stops on abort', async () => {
    const clock = new FakeClock(0);
    const queue = createWorkQueue({ clock });
    const abort = new AbortController();
    const running = createMonitorTicker({ clock, periodMs: 5_000, nodeLister: lister, queue }).start(abort.signal);
    await settle();
    clock.advance(4_999);
    await settle();
    expect(queue.length).toBe(0);
    clock.advance(1);
    await settle();
    expect(queue.length).toBe(2);
    const first = await queue.get();
    queue.done(first ?? '');
    clock.advance(5_000);
    await settle();
    // node-2 was still waiting (deduplicated); node-1 was added again.
    expect(queue.length).toBe(2);
    abort.abort();
    await expect(running).resolves.toBeUndefined();
    expect(clock.pendingTimers).toBe(0);
  });
});
