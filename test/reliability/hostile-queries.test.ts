/**
 * Regression tests for query parameters and patches that once answered 500: integers past
 * Go's int64/uint64, a JSON patch replacing the whole document. Each gets kube-apiserver's 4xx
 * (or its 504 for a resourceVersion the store has not reached) as a Status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { startTestCluster, type TestCluster } from '../support/test-cluster.js';

const CM = '/api/v1/namespaces/default/configmaps';

describe('hostile query parameters and patches', () => {
  let cluster: TestCluster;
  const url = (path: string) => `${cluster.url}${path}`;

  beforeAll(async () => {
    cluster = await startTestCluster();
    await request(url(CM), { method: 'POST', body: { metadata: { name: 'target' }, data: { k: 'v' } } });
  });
  afterAll(() => cluster.stop());

  it.each([
    ['limit past int64', `${CM}?limit=99999999999999999999`, 400, /value out of range/],
    ['timeoutSeconds past int64', `${CM}?watch=1&timeoutSeconds=99999999999999999999`, 400, /value out of range/],
    ['a resourceVersion past uint64', `${CM}?watch=1&resourceVersion=18446744073709551616`, 400, /invalid resource version.*value out of range/],
    ['a list resourceVersion past uint64', `${CM}?resourceVersion=18446744073709551616&resourceVersionMatch=NotOlderThan`, 400, /value out of range/],
    ['a non-numeric limit', `${CM}?limit=ten`, 400, /invalid integer value for parameter limit/],
  ])('answers %s with a Status', async (_name, path, code, message) => {
    const response = await request(url(path));
    expect(response.status).toBe(code);
    expect(response.body).toMatchObject({ kind: 'Status', code });
    expect(response.body.message).toMatch(message);
  });

  it('treats a limit inside int64 but past 2^53 as no limit', async () => {
    const response = await request(url(`${CM}?limit=9223372036854775807`));
    expect(response.status).toBe(200);
    expect(response.body.items.map((cm: { metadata: { name: string } }) => cm.metadata.name)).toContain('target');
  });

  it('answers a list at a uint64 resourceVersion the store has not reached with 504, as for any future one', async () => {
    const response = await request(url(`${CM}?resourceVersion=18446744073709551615&resourceVersionMatch=NotOlderThan`));
    expect(response.status).toBe(504);
    expect(response.body).toMatchObject({ kind: 'Status', reason: 'Timeout' });
  });

  it.each(['replace', 'add', 'copy', 'move'])('answers a JSON patch that %ss the whole document with a value that is no object with 400', async (op) => {
    const before = (await request(url(`${CM}/target`))).body;
    const operation = op === 'copy' || op === 'move' ? { op, from: '/data/k', path: '' } : { op, path: '', value: 'not an object' };
    const response = await request(url(`${CM}/target`), { method: 'PATCH', body: [operation], contentType: 'application/json-patch+json' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ kind: 'Status', message: 'the patched object must be a JSON object, got a string' });
    expect((await request(url(`${CM}/target`))).body).toEqual(before);
  });

  it('reads a name holding a percent sign once, as sent', async () => {
    const response = await request(url(`${CM}/a%25zz`));
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'configmaps "a%zz" not found' });
  });
});
