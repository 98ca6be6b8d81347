/**
 * The pieces PodMetrics and NodeMetrics share: the group/version, the resource usage map
 * (cpu, memory as Quantity strings) and the Table cells metrics-server prints for both.
 */
import { z } from 'zod';

import { QuantitySchema } from '../meta.js';
import { addQuantities, tryParseQuantity } from '../quantity.js';

/** METRICS_GROUP is the resource metrics API group that metrics-server serves. */
export const METRICS_GROUP = 'metrics.k8s.io';

/** METRICS_VERSION is the only served version of the resource metrics API. */
export const METRICS_VERSION = 'v1beta1';

/** METRICS_API_VERSION is `metrics.k8s.io/v1beta1`, the apiVersion of every metrics object. */
export const METRICS_API_VERSION = `${METRICS_GROUP}/${METRICS_VERSION}`;

/** METRICS_SCHEMA_PREFIX names the OpenAPI definitions as Kubernetes publishes them. */
export const METRICS_SCHEMA_PREFIX = 'io.k8s.metrics.pkg.apis.metrics.v1beta1';

/** METRICS_WINDOW is the window every sample covers, metrics-server's default resolution. */
export const METRICS_WINDOW = '15s';

/** ResourceUsageSchema maps a resource name (cpu, memory) to the amount used. */
export const ResourceUsageSchema = z.record(z.string(), QuantitySchema);

export type ResourceUsage = z.infer<typeof ResourceUsageSchema>;

/** sumUsage adds up one resource over several usage maps, as a canonical quantity string;
 * unreadable amounts count as zero (a Table cell must not throw). */
export function sumUsage(usages: ReadonlyArray<ResourceUsage | undefined>, resource: string): string {
  const amounts = usages.map((usage) => tryParseQuantity(String(usage?.[resource] ?? '0')) ?? '0');
  return addQuantities(...amounts).toString();
}
