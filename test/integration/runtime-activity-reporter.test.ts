/** controllers/runtime's activity reporter against a real API server: work added to a queue
 * is reported busy without the reporter polling an idle process, and its end is reported too. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ComponentActivity } from '../../apiserver/api/machinery/activity.js';
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import { reportActivity } from '../../controllers/runtime/activity-reporter.js';
import { silentLogger } from '../../controllers/runtime/logger.js';
import { createWorkQueue } from '../../controllers/runtime/workqueue/queue.js';
import { eventually } from '../support/eventually.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const cluster = useTestCluster({ userAgent: 'runtime-activity-reporter-test' });
let stop = new AbortController();

beforeEach(() => {
  stop = new AbortController();
});
afterEach(() => stop.abort());

async function reported(component: string): Promise<ComponentActivity | undefined> {
  const response = await fetch(`${cluster.url}/apis/kubesim.io/v1alpha1/activity`);
  const list = (await response.json()) as { items: ComponentActivity[] };
  return list.items.find((item) => item.component === component);
}

describe('activity reporter', () => {
  it('reports a queued key at once and the queue idle again once the key is done', async () => {
    const queue = createWorkQueue({ clock: createRealClock(), name: 'demo' });
    const loops = () => [{ name: 'demo', queued: queue.length, active: queue.metrics.processing, delayed: 0 }];
    // An hour between idle reports: only the busy/idle transitions can reach the server.
    reportActivity({ client: cluster.client, component: 'demo-controller', loops, logger: silentLogger, signal: stop.signal, heartbeatMs: 3_600_000 });
    await eventually(async () => expect((await reported('demo-controller'))?.loops[0]?.queued).toBe(0));

    queue.add('default/a');
    await eventually(async () => expect((await reported('demo-controller'))?.loops[0]?.queued).toBe(1));

    const key = await queue.get();
    queue.done(key ?? '');
    await eventually(async () => expect((await reported('demo-controller'))?.loops[0]).toMatchObject({ queued: 0, active: 0 }));
  });
});
