/**
 * docs/adding-a-kind.md, proved: the page's worked example is apiserver/api/testing/gadget.ts
 * verbatim, and that one definition, added to the registry, is served in full — discovery,
 * defaults, validation, the strategy hook, the Table, a field selector, /status and /scale.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Registry } from '../../apiserver/api/registry.js';
import { gadgetDefinition } from '../../apiserver/api/testing/gadget.js';
import { serverDefinitions } from '../../apiserver/server-definitions.js';
import { request } from '../support/http.js';
import { startTestCluster, type TestCluster } from '../support/test-cluster.js';

const ROOT = resolve(import.meta.dirname, '../..');
const GADGETS = '/apis/examples.kubesim.io/v1/namespaces/default/gadgets';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

const gadget = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'examples.kubesim.io/v1', kind: 'Gadget', metadata: { name }, spec });

describe('adding a kind (docs/adding-a-kind.md)', () => {
  let cluster: TestCluster;
  const url = (path: string) => `${cluster.url}${GADGETS}${path}`;

  beforeAll(async () => {
    cluster = await startTestCluster({ registry: new Registry([...serverDefinitions(), gadgetDefinition]) });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it('shows the example file verbatim', () => {
    const doc = readFileSync(resolve(ROOT, 'docs/adding-a-kind.md'), 'utf8');
    const file = readFileSync(resolve(ROOT, 'apiserver/api/testing/gadget.ts'), 'utf8');
    const block = doc.match(/## Worked example[\s\S]*?```ts\n([\s\S]*?)```/)?.[1];
    expect(block).toBe(file);
  });

  it('is discovered with its short name and subresources', async () => {
    const res = await request(`${cluster.url}/apis/examples.kubesim.io/v1`);
    expect(res.status).toBe(200);
    const names = res.body.resources.map((r: { name: string }) => r.name);
    expect(names).toEqual(expect.arrayContaining(['gadgets', 'gadgets/status', 'gadgets/scale']));
    expect(res.body.resources.find((r: { name: string }) => r.name === 'gadgets').shortNames).toEqual(['gd']);
  });

  it('creates with defaults and the strategy hook, and validates', async () => {
    const created = await request(url(''), { method: 'POST', body: { ...gadget('g', { color: 'red' }), status: { replicas: 7 } } });
    expect(created.status).toBe(201);
    expect(created.body.spec.replicas).toBe(1);
    expect(created.body.status).toEqual({ replicas: 0 });
    expect(created.body.metadata.generation).toBe(1);
    const invalid = await request(url(''), { method: 'POST', body: gadget('bad', { color: 'pink' }) });
    expect(invalid.status).toBe(422);
    expect(invalid.body.details.causes[0].field).toBe('spec.color');
  });

  it('answers a Table with its columns, and selects by spec.color', async () => {
    await request(url(''), { method: 'POST', body: gadget('blue-one', { color: 'blue', replicas: 2 }) });
    const table = await request(url('?fieldSelector=spec.color%3Dred'), { accept: TABLE });
    expect(table.status).toBe(200);
    expect(table.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Color', 'Desired', 'Current', 'Age']);
    expect(table.body.rows.map((r: { cells: unknown[] }) => r.cells.slice(0, 4))).toEqual([['g', 'red', 1, 0]]);
  });

  it('scales through /scale and reports through /status', async () => {
    const scaled = await request(url('/g/scale'), {
      method: 'PUT',
      body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'g', namespace: 'default' }, spec: { replicas: 3 } },
    });
    expect(scaled.status).toBe(200);
    expect(scaled.body.spec.replicas).toBe(3);
    const current = await request(url('/g'));
    expect(current.body.spec.replicas).toBe(3);
    expect(current.body.metadata.generation).toBe(2);
    const status = await request(url('/g/status'), { method: 'PUT', body: { ...current.body, status: { replicas: 3 } } });
    expect(status.status).toBe(200);
    expect((await request(url('/g/scale'))).body.status.replicas).toBe(3);
  });
});
