/**
 * Regression tests for clock requests that once broke the cluster: a speed of 1e308 or 1e20
 * pushed cluster time past what a timestamp can hold (every write then answered 500, and a
 * connected clock watcher crashed the server), and an advance of centuries would fire timers
 * for hours. Each is a 422 naming the bound; the clock and the cluster stay usable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { startTestCluster, type TestCluster } from '../support/test-cluster.js';

const CLOCK = '/apis/kubesim.io/v1alpha1/clock';

describe('hostile clock requests', () => {
  let cluster: TestCluster;
  const url = (path: string) => `${cluster.url}${path}`;
  let watcher: AbortController;
  let watched = '';

  beforeAll(async () => {
    cluster = await startTestCluster();
    watcher = new AbortController();
    const response = await fetch(url(`${CLOCK}?watch=1`), { signal: watcher.signal });
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of response.body!) watched += decoder.decode(chunk as Uint8Array);
      } catch {
        // Aborted at the end of the file.
      }
    })();
  });
  afterAll(async () => {
    watcher.abort();
    await cluster.stop();
  });

  it.each([1e308, 1e20, 1001, 0.0001])('refuses speed %s with 422 naming the bound', async (speed) => {
    const response = await request(url(`${CLOCK}/speed`), { method: 'POST', body: { speed } });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ kind: 'Status', reason: 'Invalid' });
    expect(response.body.message).toContain('speed: Invalid value');
    expect(response.body.message).toContain('must be between 0.001 and 1000');
  });

  it('refuses an advance of more than a year', async () => {
    const response = await request(url(`${CLOCK}/advance`), { method: 'POST', body: { ms: 1e15 } });
    expect(response.status).toBe(422);
    expect(response.body.message).toContain('must be at most 31622400000 (a year)');
  });

  it('keeps the clock, the watcher and timestamped writes working', async () => {
    expect((await request(url(`${CLOCK}/speed`), { method: 'POST', body: { speed: 1000 } })).status).toBe(200);
    expect((await request(url(`${CLOCK}/speed`), { method: 'POST', body: { speed: 1 } })).status).toBe(200);
    const created = await request(url('/api/v1/namespaces/default/configmaps'), { method: 'POST', body: { metadata: { name: 'after' } } });
    expect(created.status).toBe(201);
    expect(created.body.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    await eventually(() =>
      expect(
        watched
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line).speed),
      ).toEqual([1, 1000, 1]),
    );
    expect((await request(url('/readyz'))).status).toBe(200);
  });
});
