/**
 * /metrics through every kubectl (`kubectl get --raw /metrics`): valid Prometheus text with
 * kube-apiserver's families and label names, request counters and latency histograms that
 * move with requests (verbs in kube-apiserver's vocabulary: LIST, APPLY, dry_run), the
 * long-running gauge and watch-event counters of an open watch (counted as a request when it
 * ends), and stored object counts.
 */
import { describe, expect, it } from 'vitest';
import { REQUEST_DURATION_BUCKETS } from '../../apiserver/prometheus/apiserver-metrics.js';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { type Exposition, parsePrometheusText, sampleValue } from '../support/prometheus-text.js';
import { useKubectlCluster } from './fixture.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps', component: 'apiserver' };

describe.each(binaries)('$label: /metrics', (binary) => {
  const k = useKubectlCluster(binary);
  const scrape = async (): Promise<Exposition> => parsePrometheusText((await k.ok(['get', '--raw', '/metrics'])).stdout);

  it('serves kube-apiserver families as Prometheus text', async () => {
    await k.ok(['get', 'configmaps']);
    const metrics = await scrape();
    expect(metrics.types.get('apiserver_request_total')).toBe('counter');
    expect(metrics.types.get('apiserver_request_duration_seconds')).toBe('histogram');
    expect(metrics.types.get('apiserver_longrunning_requests')).toBe('gauge');
    expect(metrics.types.get('apiserver_storage_objects')).toBe('gauge');
    expect(metrics.types.get('apiserver_watch_events_total')).toBe('counter');
    expect(metrics.types.get('process_cpu_seconds_total')).toBe('counter');
    const request = metrics.samples.find((s) => s.name === 'apiserver_request_total');
    expect(Object.keys(request?.labels ?? {}).sort()).toEqual(['code', 'component', 'dry_run', 'group', 'resource', 'scope', 'subresource', 'verb', 'version']);
  });

  it('counts requests by verb, scope, code and dry run', async () => {
    const before = await scrape();
    await k.ok(['create', 'configmap', 'counted', '--from-literal=a=b']);
    await k.ok(['get', 'configmaps']);
    await k.run(['get', 'configmap', 'missing']);
    await k.ok(['create', 'configmap', 'dry', '--dry-run=server']);
    await k.ok(['apply', '--server-side', '-f', '-'], { stdin: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n' });
    const after = await scrape();
    const moved = (labels: Record<string, string>) =>
      sampleValue(after, 'apiserver_request_total', { ...CONFIGMAPS, ...labels }) -
      sampleValue(before, 'apiserver_request_total', { ...CONFIGMAPS, ...labels });
    expect(moved({ verb: 'POST', scope: 'resource', code: '201', dry_run: '' })).toBe(1);
    expect(moved({ verb: 'POST', scope: 'resource', code: '201', dry_run: 'All' })).toBe(1);
    expect(moved({ verb: 'LIST', scope: 'namespace', code: '200' })).toBeGreaterThanOrEqual(1);
    expect(moved({ verb: 'GET', scope: 'resource', code: '404' })).toBe(1);
    expect(moved({ verb: 'APPLY', scope: 'resource', code: '201' })).toBe(1);
  });

  it('times requests in kube-apiserver buckets, one count per request', async () => {
    await k.ok(['get', 'configmaps']);
    const metrics = await scrape();
    const labels = { ...CONFIGMAPS, verb: 'LIST', scope: 'namespace', dry_run: '', subresource: '' };
    const buckets = metrics.samples.filter(
      (s) => s.name === 'apiserver_request_duration_seconds_bucket' && Object.entries(labels).every(([key, v]) => s.labels[key] === v),
    );
    expect(buckets.map((s) => s.labels['le'])).toEqual([...REQUEST_DURATION_BUCKETS.map(String), '+Inf']);
    expect(sampleValue(metrics, 'apiserver_request_duration_seconds_count', labels)).toBe(sampleValue(metrics, 'apiserver_request_total', labels));
  });

  it('shows an open watch as long-running and counts the events it is sent', async () => {
    const watch = k.watch(['get', 'configmaps', '-w', '-v=6']);
    await watch.watching();
    const open = await scrape();
    const watchLabels = { ...CONFIGMAPS, verb: 'WATCH', scope: 'namespace' };
    expect(sampleValue(open, 'apiserver_longrunning_requests', watchLabels)).toBeGreaterThanOrEqual(1);
    await k.ok(['create', 'configmap', 'watched']);
    await watch.waitFor((lines) => lines.some((line) => line.startsWith('watched')));
    await eventually(async () => {
      const sent = await scrape();
      expect(sampleValue(sent, 'apiserver_watch_events_total', { group: '', version: 'v1', resource: 'configmaps' })).toBeGreaterThan(
        sampleValue(open, 'apiserver_watch_events_total', { group: '', version: 'v1', resource: 'configmaps' }),
      );
    });
    await watch.stop();
    // A watch is counted when it ends, however it ends: kubectl stopped here walks away.
    await eventually(async () => {
      const closed = await scrape();
      expect(sampleValue(closed, 'apiserver_request_total', { ...watchLabels, code: '200' })).toBeGreaterThan(
        sampleValue(open, 'apiserver_request_total', { ...watchLabels, code: '200' }),
      );
      expect(sampleValue(closed, 'apiserver_longrunning_requests', watchLabels)).toBeLessThan(sampleValue(open, 'apiserver_longrunning_requests', watchLabels));
    });
  });

  it('counts stored objects by group-qualified resource', async () => {
    await k.ok(['create', 'deployment', 'counted', '--image=nginx']);
    await eventually(async () => {
      const metrics = await scrape();
      expect(sampleValue(metrics, 'apiserver_storage_objects', { resource: 'deployments.apps' })).toBeGreaterThanOrEqual(1);
      expect(sampleValue(metrics, 'apiserver_storage_objects', { resource: 'namespaces' })).toBeGreaterThanOrEqual(4);
    });
  });
});
