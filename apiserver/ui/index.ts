/**
 * The live view (docs/live-view.md): a page at /kubesim/ui/ that shows the cluster changing —
 * its object graph, every loop's queue and reconciles, the timeline of changes with their
 * actors, the clock — with controls that go through the ordinary APIs.
 */
import type { FastifyInstance } from 'fastify';
import { LiveView, type LiveViewDeps } from './live-view.js';
import { registerStaticRoutes } from './static-routes.js';
import { registerSupervisorFallback } from './supervisor-fallback.js';

export { LIVE_SOCKET_PATH } from './live-view.js';
export { UI_PATH } from './static-routes.js';

/** registerLiveView serves the page, its WebSocket feed, and the no-supervisor answers. */
export function registerLiveView(app: FastifyInstance, deps: LiveViewDeps): void {
  registerStaticRoutes(app);
  registerSupervisorFallback(app);
  const view = new LiveView(deps);
  view.attach(app);
  app.addHook('preClose', async () => view.close());
}
