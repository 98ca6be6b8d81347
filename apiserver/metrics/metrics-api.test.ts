/**
 * The metrics.k8s.io kinds through the generic handlers (app.inject, no network): the
 * virtual sources fed a fixed snapshot, answering get, list, selectors, Tables and 404/405
 * as metrics-server does. The scraper's HTTP side is covered by test/integration/metrics.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type Store } from '../../store/index.js';
import { nodeMetricsDefinition, podMetricsDefinition } from '../api/metrics/index.js';
import { type ApiServer, buildServer } from '../server.js';
import { nodeMetricsSource, podMetricsSource } from './metrics-sources.js';
import { type MetricsSnapshot, mergeBatches } from './samples.js';

const NOW = Date.parse('2024-05-01T12:00:00Z');
const BASE = '/apis/metrics.k8s.io/v1beta1';

describe('metrics.k8s.io API', () => {
  let store: Store;
  let server: ApiServer;
  let snapshot: MetricsSnapshot;

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH', url: string, body?: unknown, accept?: string) => {
    const res = await server.app.inject({
      method,
      url,
      headers: { 'content-type': 'application/json', ...(accept ? { accept } : {}) },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };

  const create = async (url: string, body: unknown) => {
    const res = await call('POST', url, body);
    expect(res.status).toBe(201);
    return res.body;
  };

  beforeEach(async () => {
    store = openSqliteStore();
    server = buildServer({ store, now: () => NOW });
    await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
    await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    await create('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', labels: { zone: 'a' } } });
    const pods: Array<[string, string, string]> = [
      ['default', 'web-1', 'web'],
      ['default', 'db-1', 'db'],
      ['shop', 'cart-1', 'cart'],
    ];
    const uids: Record<string, string> = {};
    for (const [namespace, name, app] of pods) {
      const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app } }, spec: { containers: [{ name: 'main', image: 'nginx' }] } };
      uids[name] = (await create(`/api/v1/namespaces/${namespace}/pods`, pod)).metadata.uid;
    }
    const podSample = (namespace: string, name: string, cpuMillis: number) => ({
      namespace,
      name,
      uid: uids[name] ?? '',
      timestampMs: NOW - 5000,
      containers: [{ name: 'main', cpuNanoCores: cpuMillis * 1e6, memoryBytes: 12 * 1024 * 1024 }],
    });
    snapshot = mergeBatches([
      {
        nodes: [{ name: 'node-1', timestampMs: NOW - 5000, cpuNanoCores: 350e6, memoryBytes: 1024 ** 3 }],
        pods: [
          podSample('default', 'web-1', 466.5),
          podSample('default', 'db-1', 3),
          podSample('shop', 'cart-1', 10),
          { ...podSample('default', 'gone', 1), uid: 'x' },
        ],
      },
    ]);
    const options = { snapshot: () => snapshot, store, registry: server.context.registry, now: () => NOW };
    server.context.virtual = new Map([
      [podMetricsDefinition.storage.resource, podMetricsSource(options)],
      [nodeMetricsDefinition.storage.resource, nodeMetricsSource(options)],
    ]);
  });

  afterEach(async () => {
    await server.app.close();
    store.close();
  });

  it('lists PodMetrics of a namespace in the shape metrics-server serves', async () => {
    const res = await call('GET', `${BASE}/namespaces/default/pods`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      kind: 'PodMetricsList',
      apiVersion: 'metrics.k8s.io/v1beta1',
      metadata: {},
      items: [
        {
          kind: 'PodMetrics',
          apiVersion: 'metrics.k8s.io/v1beta1',
          metadata: { name: 'db-1', namespace: 'default', labels: { app: 'db' }, creationTimestamp: '2024-05-01T12:00:00Z' },
          timestamp: '2024-05-01T11:59:55Z',
          window: '15s',
          containers: [{ name: 'main', usage: { cpu: '3m', memory: '12Mi' } }],
        },
        expect.objectContaining({
          metadata: expect.objectContaining({ name: 'web-1' }),
          containers: [{ name: 'main', usage: { cpu: '467m', memory: '12Mi' } }],
        }),
      ],
    });
  });

  it('filters by label and field selectors, and lists across namespaces', async () => {
    const names = (body: { items: Array<{ metadata: { name: string } }> }) => body.items.map((i) => i.metadata.name);
    expect(names((await call('GET', `${BASE}/namespaces/default/pods?labelSelector=app%3Dweb`)).body)).toEqual(['web-1']);
    expect(names((await call('GET', `${BASE}/namespaces/default/pods?fieldSelector=metadata.name%3Ddb-1`)).body)).toEqual(['db-1']);
    expect(names((await call('GET', `${BASE}/pods`)).body)).toEqual(['db-1', 'web-1', 'cart-1']);
  });

  it('gets one PodMetrics, and 404s worded as metrics-server words them', async () => {
    const res = await call('GET', `${BASE}/namespaces/shop/pods/cart-1`);
    expect(res.body.containers).toEqual([{ name: 'main', usage: { cpu: '10m', memory: '12Mi' } }]);
    const missing = await call('GET', `${BASE}/namespaces/default/pods/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'pods "nope" not found' });
    snapshot = mergeBatches([{ nodes: [], pods: [] }]);
    const noMetrics = await call('GET', `${BASE}/namespaces/default/pods/web-1`);
    expect(noMetrics.status).toBe(404);
    expect(noMetrics.body).toMatchObject({ reason: 'NotFound', message: 'podmetrics.metrics.k8s.io "default/web-1" not found' });
    expect((await call('GET', `${BASE}/nodes/node-1`)).body.message).toBe('nodemetrics.metrics.k8s.io "node-1" not found');
    expect((await call('GET', `${BASE}/nodes/node-9`)).body.message).toBe('nodes "node-9" not found');
  });

  it('drops the metrics of a pod deleted since the scrape', async () => {
    expect((await call('GET', `${BASE}/namespaces/default/pods/db-1`)).status).toBe(200);
    expect((await call('DELETE', '/api/v1/namespaces/default/pods/db-1?gracePeriodSeconds=0')).status).toBe(200);
    expect((await call('GET', `${BASE}/namespaces/default/pods/db-1`)).status).toBe(404);
  });

  it('serves NodeMetrics with the node’s labels', async () => {
    const res = await call('GET', `${BASE}/nodes`);
    expect(res.body.kind).toBe('NodeMetricsList');
    expect(res.body.items).toEqual([
      {
        kind: 'NodeMetrics',
        apiVersion: 'metrics.k8s.io/v1beta1',
        metadata: { name: 'node-1', labels: { zone: 'a' }, creationTimestamp: '2024-05-01T12:00:00Z' },
        timestamp: '2024-05-01T11:59:55Z',
        window: '15s',
        usage: { cpu: '350m', memory: '1Gi' },
      },
    ]);
    expect((await call('GET', `${BASE}/nodes/node-1`)).body.usage).toEqual({ cpu: '350m', memory: '1Gi' });
  });

  it('is read-only: writes and watches are 405 MethodNotAllowed', async () => {
    const body = { apiVersion: 'metrics.k8s.io/v1beta1', kind: 'PodMetrics', metadata: { name: 'x' }, timestamp: 'now', window: '15s', containers: [] };
    for (const [method, url] of [
      ['POST', `${BASE}/namespaces/default/pods`],
      ['PUT', `${BASE}/namespaces/default/pods/web-1`],
      ['PATCH', `${BASE}/namespaces/default/pods/web-1`],
      ['DELETE', `${BASE}/namespaces/default/pods/web-1`],
      ['DELETE', `${BASE}/namespaces/default/pods`],
      ['GET', `${BASE}/namespaces/default/pods?watch=true`],
    ] as const) {
      const res = await call(method, url, method === 'GET' || method === 'DELETE' ? undefined : body);
      expect([method, url, res.status, res.body.reason]).toEqual([method, url, 405, 'MethodNotAllowed']);
    }
  });

  it('renders a Table for kubectl get', async () => {
    const table = await call('GET', `${BASE}/namespaces/default/pods`, undefined, 'application/json;as=Table;v=v1;g=meta.k8s.io');
    expect(table.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'CPU', 'Memory', 'Window']);
    expect(table.body.rows.map((r: { cells: unknown[] }) => r.cells)).toEqual([
      ['db-1', '3m', '12Mi', '15s'],
      ['web-1', '467m', '12Mi', '15s'],
    ]);
  });

  it('is listed in discovery with verbs get and list, and in OpenAPI with GETs only', async () => {
    const resources = (await call('GET', BASE)).body.resources;
    expect(resources).toEqual([
      { name: 'pods', singularName: 'podmetrics', namespaced: true, kind: 'PodMetrics', verbs: ['get', 'list'] },
      { name: 'nodes', singularName: 'nodemetrics', namespaced: false, kind: 'NodeMetrics', verbs: ['get', 'list'] },
    ]);
    const groups = (await call('GET', '/apis')).body.groups.map((g: { name: string }) => g.name);
    expect(groups).toContain('metrics.k8s.io');
    const doc = (await call('GET', '/openapi/v3/apis/metrics.k8s.io/v1beta1')).body;
    expect(Object.keys(doc.paths['/apis/metrics.k8s.io/v1beta1/namespaces/{namespace}/pods/{name}'])).toEqual(['parameters', 'get']);
  });
});
