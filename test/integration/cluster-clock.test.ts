/**
 * The cluster clock over HTTP: the kubesim.io clock API reads and steers the server's clock,
 * every timestamp the server sets follows it (a virtual clock makes them exact), and a
 * process following the server's clock (followServerClock) sees pause, speed and advance.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOCK_PATH } from '../../apiserver/api/kubesim/clock-object.js';
import { type ClusterClock, createClusterClock } from '../../apiserver/api/machinery/cluster-clock.js';
import { LineSplitter } from '../../controllers/runtime/client/watch-stream.js';
import { followServerClock } from '../../controllers/runtime/remote-clock.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { configMap, paths } from '../support/objects.js';
import { startTestCluster } from '../support/test-cluster.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const START = Date.UTC(2030, 0, 1);
const HOUR = 3_600_000;

describe('cluster clock API', () => {
  let clock: ClusterClock;
  const cluster = useTestCluster({ lifetime: 'file' }, () => {
    clock = createClusterClock({ mode: 'virtual', startMs: START });
    return { clock };
  });
  const url = (path: string) => `${cluster.url}${path}`;
  const post = (action: string, body?: unknown) => request(url(`${CLOCK_PATH}/${action}`), { method: 'POST', body });

  it('serves the clock', async () => {
    const { status, body } = await request(url(CLOCK_PATH));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      apiVersion: 'kubesim.io/v1alpha1',
      kind: 'ClusterClock',
      now: '2030-01-01T00:00:00.000Z',
      nowMs: START,
      speed: 1,
      paused: true,
      mode: 'virtual',
    });
  });

  it('stamps objects with cluster time, before and after an advance', async () => {
    const first = await request(url(paths.configmaps()), { method: 'POST', body: configMap('before') });
    expect(first.status).toBe(201);
    expect(first.body.metadata.creationTimestamp).toBe('2030-01-01T00:00:00Z');
    expect(first.body.metadata.managedFields[0].time).toBe('2030-01-01T00:00:00Z');

    const advanced = await post('advance', { duration: '1h' });
    expect(advanced.status).toBe(200);
    expect(advanced.body).toMatchObject({ nowMs: START + HOUR, now: '2030-01-01T01:00:00.000Z', paused: true });
    const second = await request(url(paths.configmaps()), { method: 'POST', body: configMap('after') });
    expect(second.body.metadata.creationTimestamp).toBe('2030-01-01T01:00:00Z');

    const held = { ...configMap('held'), metadata: { name: 'held', finalizers: ['example.com/hold'] } };
    await request(url(paths.configmaps()), { method: 'POST', body: held });
    expect((await post('advance', { ms: 90_000 })).body.nowMs).toBe(START + HOUR + 90_000);
    const deleted = await request(url(paths.configmap('held')), { method: 'DELETE' });
    expect(deleted.body.metadata.deletionTimestamp).toBe('2030-01-01T01:01:30Z');
  });

  it('pauses, resumes and changes speed', async () => {
    expect((await post('speed', { speed: 5 })).body).toMatchObject({ speed: 5, paused: true });
    const resumed = await post('resume');
    expect(resumed.body).toMatchObject({ paused: false, speed: 5 });
    expect(clock.state().paused).toBe(false);
    const paused = await post('pause');
    expect(paused.body.paused).toBe(true);
    expect(paused.body.nowMs).toBeGreaterThanOrEqual(resumed.body.nowMs);
    await post('speed', { speed: 1 });
  });

  it('answers bad requests with a Status naming the problem', async () => {
    const before = clock.now();
    const cases: Array<[string, unknown, RegExp]> = [
      ['advance', {}, /exactly one of ms .* or duration/],
      ['advance', { ms: 1, duration: '1s' }, /exactly one/],
      ['advance', { duration: '1d' }, /unknown unit "d" in duration "1d"/],
      ['advance', { duration: '5' }, /missing unit/],
      ['advance', { duration: '-5m' }, /only moves forward/],
      ['advance', { ms: -1 }, /ms/],
      ['speed', { speed: 0 }, /speed/],
      ['speed', {}, /speed/],
    ];
    for (const [action, body, message] of cases) {
      const { status, body: answer } = await post(action, body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(answer).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
      expect(answer.message).toMatch(message);
    }
    // Within the schema but outside the clock's bounds: 422 (test/reliability/hostile-clock.test.ts).
    expect((await post('advance', { ms: 1e20 })).status).toBe(422);
    const notJson = await request(url(`${CLOCK_PATH}/advance`), { method: 'POST', raw: '{oops' });
    expect(notJson.body).toMatchObject({ kind: 'Status', code: 400 });
    expect(clock.now()).toBe(before);
  });

  it('streams the clock now and at every change while the client listens', async () => {
    const abort = new AbortController();
    const response = await fetch(url(`${CLOCK_PATH}?watch=1`), { signal: abort.signal });
    expect(response.status).toBe(200);
    const lines = readLines(response.body!);
    expect((await lines.next()).value).toMatchObject({ kind: 'ClusterClock', paused: true });
    await post('resume');
    expect((await lines.next()).value).toMatchObject({ paused: false });
    await post('pause');
    await post('advance', { duration: '30s' });
    expect((await lines.next()).value).toMatchObject({ paused: true });
    expect((await lines.next()).value).toMatchObject({ paused: true, nowMs: clock.now() });
    abort.abort();
  });

  it("is followed by another process's clock: advance fires its timers in order, pause and speed reach it", async () => {
    const stop = new AbortController();
    const follower = await followServerClock({ server: cluster.url }, stop.signal);
    try {
      const base = clock.now();
      expect(follower.now()).toBe(base);
      expect(follower.state().paused).toBe(true);
      const seen: number[] = [];
      follower.setTimeout(() => seen.push(follower.now() - base), 20 * 60_000);
      follower.setTimeout(() => seen.push(follower.now() - base), 10 * 60_000);
      await post('advance', { duration: '1h' });
      await eventually(() => expect(follower.now()).toBe(base + HOUR));
      expect(seen).toEqual([10 * 60_000, 20 * 60_000]);
      await post('speed', { speed: 20 });
      await post('resume');
      await eventually(() => expect(follower.state()).toMatchObject({ speed: 20, paused: false }));
      await post('pause');
      await eventually(() => expect(follower.state()).toMatchObject({ paused: true, nowMs: clock.now() }));
    } finally {
      stop.abort();
      await post('speed', { speed: 1 });
    }
  });
});

describe('followServerClock', () => {
  let server: Server;
  let watches = 0;
  const clockAt = (nowMs: number) => ({
    apiVersion: 'kubesim.io/v1alpha1',
    kind: 'ClusterClock',
    now: new Date(nowMs).toISOString(),
    nowMs,
    speed: 1,
    paused: true,
    mode: 'virtual',
  });

  beforeAll(async () => {
    // A server whose clock watch ends after one line: the follower must watch again.
    server = createServer((req, res: ServerResponse) => {
      if (!req.url?.startsWith(CLOCK_PATH)) return void res.writeHead(404).end();
      const watch = req.url.includes('watch=1');
      if (watch) watches++;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(`${JSON.stringify(clockAt(START + (watch ? watches : 0) * HOUR))}\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('watches again when the stream ends, catching up with the latest state', async () => {
    const stop = new AbortController();
    const follower = await followServerClock({ server: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }, stop.signal, {
      minBackoffMs: 1,
      maxBackoffMs: 5,
    });
    try {
      await eventually(() => expect(follower.now()).toBeGreaterThanOrEqual(START + 3 * HOUR));
      expect(watches).toBeGreaterThanOrEqual(3);
    } finally {
      stop.abort();
    }
  });

  it('says so when the server serves no clock', async () => {
    // A host that brings its own time source (`now`) serves no clock API.
    const cluster = await startTestCluster({ now: () => START });
    try {
      await expect(followServerClock({ server: cluster.url }, new AbortController().signal)).rejects.toThrow(/serves no cluster clock/);
    } finally {
      await cluster.stop();
    }
  });
});

/** readLines yields each JSON line of a streamed response body. */
async function* readLines(body: ReadableStream<Uint8Array>): AsyncGenerator<any> {
  const splitter = new LineSplitter();
  for await (const chunk of body) {
    for (const line of splitter.push(Buffer.from(chunk))) yield JSON.parse(line);
  }
}
