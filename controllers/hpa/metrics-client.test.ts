/**
 * Reading metrics.k8s.io PodMetrics: the wire shape, per-container sums, and Kubernetes'
 * wording when nothing can be read.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../apiserver/api/api-error.js';
import type { HttpRequest } from '../runtime/client/http-transport.js';
import { createResourceMetricsClient, parseMetricsWindowMs, resourceMetricsFromList } from './metrics-client.js';

const podMetrics = (name: string, containers: Array<[string, Record<string, string>]>) => ({
  metadata: { name, namespace: 'default', labels: { app: 'web' } },
  timestamp: '2024-05-01T12:00:00Z',
  window: '15s',
  containers: containers.map(([containerName, usage]) => ({ name: containerName, usage })),
});

const list = {
  kind: 'PodMetricsList',
  apiVersion: 'metrics.k8s.io/v1beta1',
  items: [
    podMetrics('web-0', [
      ['app', { cpu: '250m', memory: '12Mi' }],
      ['sidecar', { cpu: '50m', memory: '1Mi' }],
    ]),
    podMetrics('web-1', [
      ['app', { cpu: '1', memory: '10Mi' }],
      ['sidecar', { memory: '1Mi' }],
    ]),
  ],
};

describe('resourceMetricsFromList', () => {
  it('sums every container, leaving out pods where one lacks the resource', () => {
    const { metrics, timestampMs } = resourceMetricsFromList(list, { resource: 'cpu' });
    expect([...metrics.keys()]).toEqual(['web-0']);
    expect(metrics.get('web-0')).toEqual({ valueMilli: 300, timestampMs: Date.parse('2024-05-01T12:00:00Z'), windowMs: 15_000 });
    expect(timestampMs).toBe(Date.parse('2024-05-01T12:00:00Z'));
  });

  it('reads one container when asked', () => {
    const { metrics } = resourceMetricsFromList(list, { resource: 'cpu', container: 'app' });
    expect(metrics.get('web-0')?.valueMilli).toBe(250);
    expect(metrics.get('web-1')?.valueMilli).toBe(1000);
  });

  it('reads memory in milli-bytes', () => {
    expect(resourceMetricsFromList(list, { resource: 'memory' }).metrics.get('web-1')?.valueMilli).toBe(11 * 1024 * 1024 * 1000);
  });

  it('fails on an empty list', () => {
    expect(() => resourceMetricsFromList({ kind: 'PodMetricsList', items: [] }, { resource: 'cpu' })).toThrow('no metrics returned from resource metrics API');
  });
});

describe('parseMetricsWindowMs', () => {
  it.each([
    ['15s', 15_000],
    ['1m0s', 60_000],
    ['1m30s', 90_000],
    ['500ms', 500],
    ['1.5s', 1500],
    ['1h2m3s', 3_723_000],
    ['', 0],
    ['soon', 0],
    [undefined, 0],
  ])('%s → %i ms', (text, ms) => expect(parseMetricsWindowMs(text)).toBe(ms));
});

describe('createResourceMetricsClient', () => {
  it('GETs the namespaced PodMetrics with the selector', async () => {
    const requests: HttpRequest[] = [];
    const client = createResourceMetricsClient({
      raw: async (request) => {
        requests.push(request);
        return list;
      },
    });
    const result = await client.getResourceMetric({ namespace: 'default', selector: 'app=web', resource: 'cpu', container: 'app' });
    expect(requests).toEqual([
      { method: 'GET', path: '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods', query: { labelSelector: 'app=web' }, signal: undefined },
    ]);
    expect(result.metrics.size).toBe(2);
  });

  it('words a failed request as Kubernetes does', async () => {
    const client = createResourceMetricsClient({
      raw: async () => {
        throw new ApiError('NotFound', 404, 'the server could not find the requested resource');
      },
    });
    await expect(client.getResourceMetric({ namespace: 'default', selector: 'app=web', resource: 'cpu' })).rejects.toThrow(
      'unable to fetch metrics from resource metrics API: the server could not find the requested resource',
    );
  });
});
