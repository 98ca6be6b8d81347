/**
 * controllers/runtime — the client library every kubesim process uses (controllers, scheduler,
 * kubelet-sim, cli): clock, logger, work queue and rate limiters, Reconciler helpers and the
 * controller, plus the HTTP client, informers, listers and manager. It plays the role of
 * client-go plus controller-runtime and talks to the API server only over HTTP. The clocks, the
 * seeded Random and causes live in apiserver/api/machinery (the API server uses them too) and
 * are re-exported here unchanged.
 *
 * May import: apiserver/api/** only (never apiserver/ or store/; see test/architecture.test.ts).
 * Docs: docs/controllers.md.
 *
 * Keep this file a plain list of `export *` lines.
 */

export * from '../../apiserver/api/machinery/cause.js';
export * from '../../apiserver/api/machinery/clock.js';
export * from '../../apiserver/api/machinery/cluster-clock.js';
export * from '../../apiserver/api/machinery/random.js';
export * from './builder.js';
export * from './client/http-client.js';
export * from './client/http-transport.js';
export * from './client/kubeconfig.js';
export * from './client/watch-stream.js';
export * from './component-recorder.js';
export * from './controller.js';
export * from './event-recorder.js';
export * from './expectations.js';
export * from './index-store.js';
export * from './indexers.js';
export * from './informer.js';
export * from './leader-election.js';
export * from './lister.js';
export * from './logger.js';
export * from './manager.js';
export * from './reconciler.js';
export * from './reflector.js';
export * from './remote-clock.js';
export * from './types.js';
export * from './workqueue/queue.js';
export * from './workqueue/rate-limiter.js';
