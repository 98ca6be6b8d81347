/** /version and the health endpoints. The reported minor version picks the kubectl binary of
 * this machine's kubectl dispatcher (KUBECTL-WIRE.md §1.2): 1.31 sends JSON request bodies
 * everywhere; 1.32+ send protobuf for `create <generator>`, which is not decoded yet. */
import type { FastifyInstance } from 'fastify';

export const KUBERNETES_VERSION = { major: '1', minor: '31', gitVersion: 'v1.31.0' } as const;

export function registerVersionRoutes(app: FastifyInstance): void {
  app.get('/version', async () => ({
    ...KUBERNETES_VERSION,
    gitCommit: 'kubesim',
    gitTreeState: 'clean',
    buildDate: '2026-11-22T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'kubesim',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  }));
  for (const path of ['/healthz', '/livez', '/readyz']) {
    app.get(path, async (_request, reply) => reply.type('text/plain').send('ok'));
  }
}
