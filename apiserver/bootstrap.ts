/**
 * bootstrapCluster creates what every cluster has from the start: the namespaces default,
 * kube-system, kube-public and kube-node-lease, and the `kubernetes` Service in default.
 * Idempotent: objects that exist (a reopened data dir) are left alone.
 */
import { isAlreadyExists } from './api/api-error.js';
import type { HandlerContext } from './handlers/types.js';
import { createObject } from './registry/create.js';
import { decodeObject } from './registry/object-codec.js';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

function ensure(ctx: HandlerContext, apiVersion: string, kind: string, namespace: string, body: Record<string, unknown>): void {
  const def = ctx.registry.findByKind(apiVersion, kind);
  if (!def) throw new Error(`bootstrap: ${apiVersion} ${kind} is not served`);
  try {
    const object = decodeObject(def, { apiVersion, kind, ...body }, { fieldValidation: 'Strict', warnings: [] });
    createObject(ctx, { def, namespace }, object, { dryRun: false });
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
}

export function bootstrapCluster(ctx: HandlerContext, options: { apiPort: number }): void {
  for (const name of SYSTEM_NAMESPACES) ensure(ctx, 'v1', 'Namespace', '', { metadata: { name } });
  ensure(ctx, 'v1', 'Service', 'default', {
    metadata: { name: 'kubernetes', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: { clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: options.apiPort }] },
  });
}
