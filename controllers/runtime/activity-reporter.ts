/**
 * reportActivity pushes a component process's loop activity to the API server
 * (PUT /apis/kubesim.io/v1alpha1/activity/{component}) so the cluster can tell when it is
 * quiescent (`settle`) and the live view can show queues. It sends at once when the component
 * turns busy or idle, and otherwise once a second with fresh counters.
 *
 * Polling and sending use wall time on purpose: this is transport, not cluster logic, and it
 * must keep working while the cluster clock is paused.
 */
import { busyLoops, type ComponentActivity, type LoopActivity } from '../../apiserver/api/machinery/activity.js';
import type { KubeClient } from './client/http-client.js';
import type { Logger } from './types.js';

export const ACTIVITY_PATH = '/apis/kubesim.io/v1alpha1/activity';

export interface ActivityReporterOptions {
  client: KubeClient;
  component: string;
  loops: () => LoopActivity[];
  logger: Logger;
  signal: AbortSignal;
  /** How often the loops are looked at (wall ms). Default 5. */
  pollMs?: number;
  /** How often an unchanged report is repeated (wall ms). Default 1000. */
  heartbeatMs?: number;
}

/** reportActivity runs until `signal` aborts; failures to send are logged at debug and retried. */
export function reportActivity(options: ActivityReporterOptions): void {
  const pollMs = options.pollMs ?? 5;
  const heartbeatMs = options.heartbeatMs ?? 1_000;
  let lastBusy: boolean | undefined;
  let lastSentMs = 0;
  let sending = false;
  const send = async (activity: ComponentActivity): Promise<void> => {
    sending = true;
    try {
      await options.client.raw({
        method: 'PUT',
        path: `${ACTIVITY_PATH}/${encodeURIComponent(options.component)}`,
        body: JSON.stringify(activity),
        contentType: 'application/json',
        signal: options.signal,
      });
    } catch (err) {
      lastBusy = undefined; // resend on the next tick
      options.logger.debug({ err }, 'activity report failed');
    } finally {
      sending = false;
    }
  };
  const tick = (): void => {
    if (options.signal.aborted || sending) return;
    const activity: ComponentActivity = { component: options.component, loops: options.loops() };
    // Whether the clock runs is the server's business: report delayed work as possibly busy.
    const busy = busyLoops([activity], true).length > 0;
    const now = Date.now();
    if (busy === lastBusy && now - lastSentMs < heartbeatMs) return;
    lastBusy = busy;
    lastSentMs = now;
    void send(activity);
  };
  const timer = setInterval(tick, pollMs);
  timer.unref();
  options.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  tick();
}
