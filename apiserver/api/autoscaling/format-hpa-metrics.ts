/**
 * The TARGETS cell of `kubectl get hpa`, worded as kube-apiserver's formatHPAMetrics:
 * `current/target` per metric (current from status.currentMetrics at the same index,
 * `<unknown>` until the controller has read it), resource metrics prefixed by their name,
 * at most two metrics followed by ` + N more...`.
 */
import { tryParseQuantity } from '../quantity.js';
import type { MetricSpec, MetricTarget } from './metric-spec.js';
import type { MetricStatus, MetricValueStatus } from './metric-status.js';

const SHOWN_METRICS = 2;
const UNKNOWN = '<unknown>';

/** formatHpaMetrics renders an HPA's metrics and their current values; `<none>` without
 * metrics. Never throws on partially filled metrics. */
export function formatHpaMetrics(specs: readonly MetricSpec[], statuses: readonly MetricStatus[]): string {
  if (specs.length === 0) return '<none>';
  const cells = specs.map((spec, i) => formatMetric(spec, statuses[i]));
  const shown = cells.slice(0, SHOWN_METRICS).join(', ');
  return cells.length > SHOWN_METRICS ? `${shown} + ${cells.length - SHOWN_METRICS} more...` : shown;
}

function formatMetric(spec: MetricSpec, status: MetricStatus | undefined): string {
  switch (spec.type) {
    case 'External':
      return formatValueOrAverage(spec.external?.target, status?.external?.current);
    case 'Object':
      return formatValueOrAverage(spec.object?.target, status?.object?.current);
    case 'Pods':
      return `${currentOf(status?.pods?.current, 'averageValue')}/${quantity(spec.pods?.target.averageValue)}`;
    case 'Resource':
      return formatResource(spec.resource?.name, spec.resource?.target, status?.resource?.current);
    case 'ContainerResource':
      return formatResource(spec.containerResource?.name, spec.containerResource?.target, status?.containerResource?.current);
    default:
      return '<unknown type>';
  }
}

// External and Object metrics show the per-pod average, marked `(avg)`, when the target is
// an averageValue, and the raw value otherwise.
function formatValueOrAverage(target: MetricTarget | undefined, current: MetricValueStatus | undefined): string {
  if (target?.averageValue !== undefined) {
    const now = current?.averageValue === undefined ? UNKNOWN : quantity(current.averageValue);
    return `${now}/${quantity(target.averageValue)} (avg)`;
  }
  return `${currentOf(current, 'value')}/${quantity(target?.value)}`;
}

function formatResource(name: string | undefined, target: MetricTarget | undefined, current: MetricValueStatus | undefined): string {
  if (target?.averageValue !== undefined) return `${name ?? ''}: ${currentOf(current, 'averageValue')}/${quantity(target.averageValue)}`;
  const now = current?.averageUtilization === undefined ? UNKNOWN : `${current.averageUtilization}%`;
  const goal = target?.averageUtilization === undefined ? '<auto>' : `${target.averageUtilization}%`;
  return `${name ?? ''}: ${now}/${goal}`;
}

// A status entry of the right type whose quantity is missing prints `<nil>`, as Go's
// (*Quantity)(nil).String() does; a missing entry prints `<unknown>`.
function currentOf(current: MetricValueStatus | undefined, field: 'value' | 'averageValue'): string {
  return current === undefined ? UNKNOWN : quantity(current[field]);
}

// Quantities print in canonical form (Quantity.String()), e.g. "0.5" as 500m.
function quantity(value: string | undefined): string {
  if (value === undefined) return '<nil>';
  return tryParseQuantity(value)?.toString() ?? value;
}
