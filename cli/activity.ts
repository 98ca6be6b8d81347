/**
 * reportLoops makes a component process push its loops' activity to the API server (see
 * controllers/runtime/activity-reporter.ts), so `settle` over HTTP and the live view see the
 * processes of `kubesim up` as they see in-process loops.
 */

import type { LoopActivity } from '../apiserver/api/machinery/activity.js';
import { reportActivity } from '../controllers/runtime/activity-reporter.js';
import { createKubeClient } from '../controllers/runtime/client/http-client.js';
import type { KubeconfigTarget } from '../controllers/runtime/client/kubeconfig.js';
import { silentLogger } from '../controllers/runtime/logger.js';

export function reportLoops(target: KubeconfigTarget, component: string, loops: () => LoopActivity[], signal: AbortSignal): void {
  const client = createKubeClient({ server: target.server, token: target.token, tls: target.tls, userAgent: `kubesim-${component}-activity/0.1` });
  signal.addEventListener('abort', () => client.close(), { once: true });
  reportActivity({ client, component, loops, logger: silentLogger, signal });
}

/** reportName is what a process reports its activity as: its component, or, for one of several
 * processes of that component (a --leader-elect copy, a kubelet-sim of another node range),
 * `<component>@<instance>`, so that their reports do not overwrite one another's. */
export function reportName(component: string, instance: string | undefined): string {
  return instance ? `${component}@${instance}` : component;
}
