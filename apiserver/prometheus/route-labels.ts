/**
 * How kube-apiserver labels a resource request in its metrics: the verb in its metrics
 * vocabulary (LIST for a collection GET, WATCH, APPLY for a server-side apply patch,
 * DELETECOLLECTION), the scope (`resource` for a named object or a create, else `namespace`
 * or `cluster`) and the dry_run value.
 */
import type { ResourcePath } from '../routes/resource-path.js';

export function metricsVerb(method: string, path: ResourcePath, isWatch: boolean, contentType: string | undefined): string {
  if (isWatch) return 'WATCH';
  const named = path.name !== undefined;
  switch (method) {
    case 'GET':
      return named ? 'GET' : 'LIST';
    case 'DELETE':
      return named ? 'DELETE' : 'DELETECOLLECTION';
    case 'PATCH':
      return contentType?.startsWith('application/apply-patch') ? 'APPLY' : 'PATCH';
    default:
      return method;
  }
}

export function metricsScope(method: string, path: ResourcePath): string {
  if (path.name !== undefined || method === 'POST') return 'resource';
  return path.namespace !== '' ? 'namespace' : 'cluster';
}

/** metricsDryRun: kube-apiserver reports the dryRun values it accepts (only `All`), else ''. */
export function metricsDryRun(dryRun: unknown): string {
  if (dryRun === undefined) return '';
  return dryRun === 'All' || (Array.isArray(dryRun) && dryRun.includes('All')) ? 'All' : '';
}
