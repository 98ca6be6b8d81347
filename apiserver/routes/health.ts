/**
 * /healthz, /livez and /readyz as kube-apiserver answers them: `ok`, or with `?verbose` one
 * `[+]<check> ok` line per check and `<endpoint> check passed`; `/<endpoint>/<check>` runs one
 * check; `?exclude=<check>` skips one. kubesim's API server is live and ready as soon as it
 * listens (its store is in-process SQLite, opened before listening), so every check passes;
 * the names are kube-apiserver's so that probes and scripts written for a cluster work.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';

/** The checks of each endpoint. `etcd` stands for kubesim's store, which plays etcd's role. */
const CHECKS: Record<string, readonly string[]> = {
  healthz: ['ping', 'log', 'etcd'],
  livez: ['ping', 'log', 'etcd'],
  readyz: ['ping', 'log', 'etcd', 'shutdown'],
};

export function registerHealthRoutes(app: FastifyInstance): void {
  for (const [endpoint, checks] of Object.entries(CHECKS)) {
    app.get(`/${endpoint}`, async (request, reply) => answerAll(reply, endpoint, checks, request.query as Record<string, unknown>));
    app.get(`/${endpoint}/:check`, async (request, reply) => {
      const { check } = request.params as { check: string };
      if (!checks.includes(check)) return reply.code(404).type('text/plain').send('404 page not found\n');
      return reply.type('text/plain').send('ok');
    });
  }
}

function answerAll(reply: FastifyReply, endpoint: string, checks: readonly string[], query: Record<string, unknown>) {
  if (!('verbose' in query)) return reply.type('text/plain').send('ok');
  const excluded = new Set([query['exclude']].flat().filter((name): name is string => typeof name === 'string'));
  const lines = checks.map((check) => (excluded.has(check) ? `[+]${check} excluded: ok` : `[+]${check} ok`));
  return reply.type('text/plain').send(`${lines.join('\n')}\n${endpoint} check passed\n`);
}
