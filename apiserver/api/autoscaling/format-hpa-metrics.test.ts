import { describe, expect, it } from 'vitest';
import { formatHpaMetrics } from './format-hpa-metrics.js';
import type { MetricSpec } from './metric-spec.js';
import type { MetricStatus } from './metric-status.js';

const cpu = (averageUtilization?: number): MetricSpec => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization } },
});
const memory = (averageValue: string): MetricSpec => ({ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue } } });
const pods = (averageValue: string): MetricSpec => ({ type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue } } });
const external = (target: { value?: string; averageValue?: string }): MetricSpec => ({
  type: 'External',
  external: { metric: { name: 'queue' }, target: { type: target.value ? 'Value' : 'AverageValue', ...target } },
});
const object = (target: { value?: string; averageValue?: string }): MetricSpec => ({
  type: 'Object',
  object: { describedObject: { kind: 'Ingress', name: 'main' }, metric: { name: 'hits' }, target: { type: 'Value', ...target } },
});

describe('formatHpaMetrics', () => {
  it('prints <none> without metrics', () => {
    expect(formatHpaMetrics([], [])).toBe('<none>');
  });

  it('prints resource utilization and raw values, <unknown> before the first reading', () => {
    expect(formatHpaMetrics([cpu(80)], [])).toBe('cpu: <unknown>/80%');
    const current: MetricStatus[] = [
      { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 45, averageValue: '45m' } } },
      { type: 'Resource', resource: { name: 'memory', current: { averageValue: '100Mi' } } },
    ];
    expect(formatHpaMetrics([cpu(70), memory('200Mi')], current)).toBe('cpu: 45%/70%, memory: 100Mi/200Mi');
    // Quantities print canonically, as Quantity.String() does.
    expect(formatHpaMetrics([memory('0.5Gi')], [])).toBe('memory: <unknown>/512Mi');
    expect(formatHpaMetrics([cpu(undefined)], [])).toBe('cpu: <unknown>/<auto>');
  });

  it('prints pods, external and object metrics in their own words', () => {
    const current: MetricStatus[] = [
      { type: 'Pods', pods: { metric: { name: 'rps' }, current: { averageValue: '7' } } },
      { type: 'External', external: { metric: { name: 'queue' }, current: { averageValue: '300m' } } },
    ];
    expect(formatHpaMetrics([pods('10'), external({ averageValue: '1' })], current)).toBe('7/10, 300m/1 (avg)');
    expect(formatHpaMetrics([object({ value: '5' }), external({ value: '2k' })], [])).toBe('<unknown>/5, <unknown>/2k');
  });

  it('shows two metrics and counts the rest', () => {
    expect(formatHpaMetrics([cpu(80), memory('1Gi'), pods('1'), { type: 'Other' }], [])).toBe('cpu: <unknown>/80%, memory: <unknown>/1Gi + 2 more...');
  });

  it('prints unknown metric types and status entries of another type as Kubernetes does', () => {
    const statuses: MetricStatus[] = [
      { type: 'Resource', resource: { name: 'cpu', current: {} } },
      { type: 'Pods', pods: { metric: { name: 'rps' }, current: {} } },
    ];
    expect(formatHpaMetrics([object({ value: '5' }), pods('10')], statuses)).toBe('<unknown>/5, <nil>/10');
    expect(formatHpaMetrics([{ type: 'Other' }], [])).toBe('<unknown type>');
  });
});
