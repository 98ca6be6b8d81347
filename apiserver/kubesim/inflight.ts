/**
 * Counts the API requests being served, except the long-running ones (watches, followed logs)
 * and kubesim's own control API: a request in flight means a write may be about to land, so the
 * cluster is not quiescent yet.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

export interface InflightCounter {
  readonly count: number;
}

/** trackInflight installs the hooks on `app` and returns the live counter. */
export function trackInflight(app: FastifyInstance): InflightCounter {
  let count = 0;
  const counted = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', async (request) => {
    if (isLongRunning(request.url)) return;
    counted.add(request);
    count++;
  });
  const finish = async (request: FastifyRequest): Promise<void> => {
    if (counted.delete(request)) count--;
  };
  app.addHook('onResponse', finish);
  app.addHook('onRequestAbort', finish);
  return {
    get count() {
      return count;
    },
  };
}

/** isLongRunning recognises requests that stay open by design. */
function isLongRunning(url: string): boolean {
  const query = url.includes('?') ? new URLSearchParams(url.slice(url.indexOf('?') + 1)) : undefined;
  const flag = (name: string) => ['true', '1'].includes(query?.get(name) ?? '');
  // kubesim's own API (settle, clock advance, activity reports, the UI) is about the cluster, not
  // in it: a settle or an advance waiting for quiet must not count itself.
  return flag('watch') || flag('follow') || url.includes('/watch/') || url.startsWith('/apis/kubesim.io/') || url.startsWith('/kubesim/');
}
