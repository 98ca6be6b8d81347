/** /version and the health endpoints. The reported minor version picks the kubectl binary of
 * this machine's kubectl dispatcher (docs/kubectl-wire.md, "Version and the kubectl
 * dispatcher"): 1.33, the newest bundled. Since 1.32 kubectl sends protobuf bodies for
 * `create <generator>` and `autoscale`, which the server decodes (apiserver/protobuf/). */
import type { FastifyInstance } from 'fastify';
import { registerHealthRoutes } from './health.js';

export const KUBERNETES_VERSION = { major: '1', minor: '33', gitVersion: 'v1.33.0' } as const;

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
  registerHealthRoutes(app);
}
