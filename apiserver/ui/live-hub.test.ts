import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type Store, type StoredObject } from '../../store/index.js';
import { builtinDefinitions } from '../api/builtin.js';
import { Registry } from '../api/registry.js';
import { type LiveBatch, LiveHub, type Viewer } from './live-hub.js';
import { isTimelineWorthy, slimObject } from './live-objects.js';

const pod = (name: string, phase = 'Pending'): StoredObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', uid: `uid-${name}`, managedFields: [{ manager: 'x' }] },
  spec: { containers: [{ name: 'app', image: 'nginx' }] },
  status: { phase },
});
const podRef = (name: string) => ({ resource: 'pods', namespace: 'default', name });

/** recorder is a Viewer that keeps what it is sent. */
function recorder(): Viewer & { batches: LiveBatch[]; texts: string[] } {
  const batches: LiveBatch[] = [];
  const texts: string[] = [];
  return {
    batches,
    texts,
    batch: (batch, json) => {
      batches.push(batch);
      texts.push(json());
    },
    resync: () => undefined,
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

describe('LiveHub', () => {
  let store: Store;
  let hub: LiveHub;

  afterEach(() => {
    hub.stop();
    store.close();
  });

  const start = (flushMs = 20) => {
    store = openSqliteStore({ path: ':memory:' });
    hub = new LiveHub({ store, registry: new Registry(builtinDefinitions()), flushMs });
  };

  it('starts a viewer from a snapshot of the graph kinds, slimmed, with the recent timeline', () => {
    start();
    store.create(podRef('a'), pod('a'), { actor: { userAgent: 'kubectl/v1.33' } });
    store.create({ resource: 'leases.coordination.k8s.io', namespace: 'kube-node-lease', name: 'node-1' }, { metadata: { name: 'node-1' } });
    const snapshot = hub.subscribe(recorder());
    expect(snapshot.objects.pods.map((p) => p.metadata['name'])).toEqual(['a']);
    expect(snapshot.objects.pods[0]!.metadata['managedFields']).toBeUndefined();
    expect(snapshot.objects.nodes).toEqual([]);
    // The lease is a heartbeat: not in the timeline.
    expect(snapshot.history.map((h) => [h.resource, h.name, h.actor?.userAgent])).toEqual([['pods', 'a', 'kubectl/v1.33']]);
    expect(snapshot.revision).toBe(store.currentRevision);
  });

  it("coalesces an object's changes within a window into its latest state and counts the store events", async () => {
    start(50);
    const viewer = recorder();
    hub.subscribe(viewer);
    store.create(podRef('a'), pod('a'));
    for (const phase of ['Pending', 'Running', 'Succeeded']) store.update(podRef('a'), pod('a', phase));
    await until(() => viewer.batches.length > 0);
    const [batch] = viewer.batches;
    expect(batch!.storeEvents).toBe(4);
    expect(batch!.changes).toHaveLength(1);
    expect(batch!.changes[0]).toMatchObject({ type: 'MODIFIED', kind: 'pods', object: { status: { phase: 'Succeeded' } } });
    expect(batch!.history.map((h) => h.type)).toEqual(['ADDED', 'MODIFIED', 'MODIFIED', 'MODIFIED']);
    expect(JSON.parse(viewer.texts[0]!)).toEqual(batch);
  });

  it("shares one serialised batch between viewers and skips what a later viewer's snapshot holds", async () => {
    start(50);
    const early = recorder();
    hub.subscribe(early);
    store.create(podRef('a'), pod('a'));
    const late = recorder();
    const lateSnapshot = hub.subscribe(late);
    expect(lateSnapshot.objects.pods).toHaveLength(1);
    store.create(podRef('b'), pod('b'));
    await until(() => early.batches.length > 0 && late.batches.length > 0);
    expect(early.batches[0]!.changes.map((c) => c.object.metadata['name'])).toEqual(['a', 'b']);
    expect(late.batches[0]!.changes.map((c) => c.object.metadata['name'])).toEqual(['b']);
  });

  it('watches only while someone is looking', async () => {
    start(10);
    const viewer = recorder();
    hub.subscribe(viewer);
    hub.unsubscribe(viewer);
    store.create(podRef('a'), pod('a'));
    const again = recorder();
    const snapshot = hub.subscribe(again);
    expect(snapshot.objects.pods).toHaveLength(1);
    store.create(podRef('b'), pod('b'));
    await until(() => again.batches.length > 0);
    expect(viewer.batches).toEqual([]);
    expect(again.batches.flatMap((b) => b.changes.map((c) => c.object.metadata['name']))).toEqual(['b']);
  });
});

describe('live objects', () => {
  it('drops field ownership, the last-applied copy and node images', () => {
    const node: StoredObject = {
      metadata: { name: 'n', managedFields: [{}], annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', keep: 'yes' } },
      status: { images: [{ names: ['x'] }], capacity: { cpu: '4' } },
    };
    expect(slimObject(node)).toEqual({ metadata: { name: 'n', annotations: { keep: 'yes' } }, status: { capacity: { cpu: '4' } } });
    expect(node.metadata['managedFields']).toBeDefined();
  });

  it('keeps heartbeats out of the timeline', () => {
    const item = { revision: 1, type: 'MODIFIED' as const, resource: 'nodes', namespace: '', name: 'n', time: '', actor: null };
    expect(isTimelineWorthy({ ...item, diff: [{ path: 'status.conditions[type=Ready].lastHeartbeatTime', old: 'a', new: 'b' }] })).toBe(false);
    expect(isTimelineWorthy({ ...item, diff: [{ path: 'status.conditions[type=Ready].status', old: 'True', new: 'Unknown' }] })).toBe(true);
    expect(isTimelineWorthy({ ...item, resource: 'leases.coordination.k8s.io', diff: [] })).toBe(false);
  });
});
