/**
 * The live view's server side on a real API server without a supervisor: the page's files,
 * its WebSocket feed (snapshot, batches of changes with the timeline, activity, clock), and
 * the clear 503 its loop and chaos controls get from a cluster that `kubesim up` did not start.
 */
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { paths, pod } from '../support/objects.js';
import { startTestCluster } from '../support/test-cluster.js';
import { useTestCluster } from '../support/use-test-cluster.js';

interface Feed {
  messages: any[];
  socket: WebSocket;
  of(type: string): any[];
}

function openFeed(url: string, headers: Record<string, string> = {}): Promise<Feed> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/kubesim/ui/ws`, { headers });
  const messages: any[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(String(data))));
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ messages, socket, of: (type) => messages.filter((m) => m.type === type) }));
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
  });
}

describe('the live view', () => {
  const cluster = useTestCluster({ lifetime: 'file' });
  const feeds: Feed[] = [];

  afterAll(async () => {
    for (const feed of feeds) feed.socket.terminate();
  });

  it('serves the page, its module and its style sheet, and nothing else under /kubesim/ui/', async () => {
    const page = await fetch(`${cluster.url}/kubesim/ui/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<script type="module" src="app.js">');
    const script = await fetch(`${cluster.url}/kubesim/ui/app.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain('kubesimLiveView');
    expect((await fetch(`${cluster.url}/kubesim/ui/style.css`)).headers.get('content-type')).toMatch(/^text\/css/);
    expect((await fetch(`${cluster.url}/kubesim/ui/../server.ts`)).status).toBe(404);
    expect((await fetch(`${cluster.url}/kubesim/ui/secret.js`)).status).toBe(404);
    const bare = await fetch(`${cluster.url}/kubesim/ui`, { redirect: 'manual' });
    expect(bare.status).toBe(302);
    expect(bare.headers.get('location')).toBe('/kubesim/ui/');
  });

  it('pushes a snapshot, then each change with its actor, then activity and the clock', async () => {
    const feed = await openFeed(cluster.url);
    feeds.push(feed);
    await eventually(() => expect(feed.of('snapshot')).toHaveLength(1));
    const [snapshot] = feed.of('snapshot');
    expect(Object.keys(snapshot.objects).sort()).toEqual(['deployments', 'endpointslices', 'hpas', 'nodes', 'pods', 'replicasets', 'services']);
    expect(snapshot.clock).toMatchObject({ kind: 'ClusterClock', paused: false });

    const created = await fetch(`${cluster.url}${paths.pods()}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'live-view-test/1.0' },
      body: JSON.stringify(pod('watched')),
    });
    expect(created.status).toBe(201);
    await eventually(() => {
      const batches = feed.of('batch');
      const change = batches.flatMap((b) => b.changes).find((c: any) => c.object.metadata.name === 'watched');
      expect(change).toMatchObject({ type: 'ADDED', kind: 'pods' });
      expect(change.object.metadata.managedFields).toBeUndefined();
      const entry = batches.flatMap((b) => b.history).find((h: any) => h.name === 'watched');
      expect(entry).toMatchObject({ type: 'ADDED', resource: 'pods', actor: { userAgent: 'live-view-test/1.0' } });
    });

    await eventually(() => expect(feed.of('activity').length).toBeGreaterThanOrEqual(2), { timeoutMs: 3000 });
    expect(feed.of('activity')[0]).toMatchObject({ busy: expect.any(Array), items: expect.any(Array), faults: [] });

    expect((await request(`${cluster.url}/apis/kubesim.io/v1alpha1/clock/pause`, { method: 'POST' })).status).toBe(200);
    await eventually(() => expect(feed.of('clock').at(-1)?.clock).toMatchObject({ paused: true }));
    await request(`${cluster.url}/apis/kubesim.io/v1alpha1/clock/resume`, { method: 'POST' });
    await eventually(() => expect(feed.of('clock').at(-1)?.clock).toMatchObject({ paused: false }));
  });

  it('shows active fault rules with the activity', async () => {
    const feed = await openFeed(cluster.url);
    feeds.push(feed);
    const rule = await request(`${cluster.url}/apis/kubesim.io/v1alpha1/faults`, { method: 'POST', body: { userAgent: 'nobody', latencyMs: 5 } });
    expect(rule.status).toBe(201);
    await eventually(() => expect(feed.of('activity').at(-1)?.faults).toEqual([expect.objectContaining({ id: rule.body.id, latencyMs: 5 })]), {
      timeoutMs: 3000,
    });
    await request(`${cluster.url}/apis/kubesim.io/v1alpha1/faults`, { method: 'DELETE' });
  });

  it("refuses a feed to another web site's page", async () => {
    await expect(openFeed(cluster.url, { Origin: 'http://evil.example' })).rejects.toThrow(/403/);
  });

  it('disconnects open pages when the server closes, without waiting for them', async () => {
    const other = await startTestCluster();
    const feed = await openFeed(other.url);
    const closed = new Promise<number>((resolve) => feed.socket.once('close', (code) => resolve(code)));
    await other.stop();
    expect(await closed).toBeGreaterThan(0);
  });

  it('answers loop and chaos controls with a 503 that says there is no supervisor', async () => {
    for (const [method, path] of [
      ['GET', '/kubesim/v1/components'],
      ['POST', '/kubesim/v1/components/replicaset/stop'],
      ['POST', '/apis/kubesim.io/v1alpha1/chaos'],
    ] as const) {
      const answer = await request(`${cluster.url}${path}`, { method, body: method === 'POST' ? { action: 'kill-loop', target: 'replicaset' } : undefined });
      expect(answer.status, path).toBe(503);
      expect(answer.body).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable' });
      expect(answer.body.message).toMatch(/no supervisor.*kubesim up/s);
    }
  });
});
