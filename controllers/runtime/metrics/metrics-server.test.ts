/**
 * A loop process's /metrics over real HTTP: a queue's adds, retries and timings and an API
 * client's requests show up as client-go's workqueue_* and rest_client_* families in valid
 * Prometheus text; /healthz answers ok.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../apiserver/api/machinery/clock.js';
import { parsePrometheusText, sampleValue } from '../../../test/support/prometheus-text.js';
import { createWorkQueue } from '../workqueue/queue.js';
import { startMetricsServer } from './metrics-server.js';
import { RestClientMetrics } from './rest-client-metrics.js';

describe('loop process metrics endpoint', async () => {
  const server = await startMetricsServer();
  afterAll(() => server.close());
  const scrape = async () => parsePrometheusText(await (await fetch(server.url)).text());

  it('serves workqueue_* for each queue by name', async () => {
    const queue = createWorkQueue({ clock: new FakeClock(0), name: 'metrics-test' });
    queue.add('a');
    queue.add('b');
    queue.addRateLimited('c');
    const key = await queue.get();
    const held = await scrape();
    expect(sampleValue(held, 'workqueue_adds_total', { name: 'metrics-test' })).toBe(2);
    expect(sampleValue(held, 'workqueue_retries_total', { name: 'metrics-test' })).toBe(1);
    expect(sampleValue(held, 'workqueue_depth', { name: 'metrics-test' })).toBe(1);
    expect(sampleValue(held, 'workqueue_queue_duration_seconds_count', { name: 'metrics-test' })).toBe(1);
    expect(sampleValue(held, 'workqueue_longest_running_processor_seconds', { name: 'metrics-test' })).toBeGreaterThanOrEqual(0);
    queue.done(key!);
    const done = await scrape();
    expect(sampleValue(done, 'workqueue_work_duration_seconds_count', { name: 'metrics-test' })).toBe(1);
    expect(done.types.get('workqueue_unfinished_work_seconds')).toBe('gauge');
    queue.shutdown();
  });

  it('serves rest_client_* by code, method and host', async () => {
    const client = new RestClientMetrics('example.test:6443');
    client.record('GET', 200, 0.01);
    client.record('GET', 200, 0.02);
    client.record('POST', '<error>', 0.5);
    const metrics = await scrape();
    expect(sampleValue(metrics, 'rest_client_requests_total', { code: '200', method: 'GET', host: 'example.test:6443' })).toBe(2);
    expect(sampleValue(metrics, 'rest_client_requests_total', { code: '<error>', method: 'POST', host: 'example.test:6443' })).toBe(1);
    expect(sampleValue(metrics, 'rest_client_request_duration_seconds_bucket', { verb: 'GET', host: 'example.test:6443', le: '0.025' })).toBe(2);
  });

  it('answers /healthz', async () => {
    expect(await (await fetch(server.url.replace(/metrics$/, 'healthz'))).text()).toBe('ok');
  });
});
