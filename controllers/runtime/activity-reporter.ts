/**
 * reportActivity pushes a component process's loop activity to the API server
 * (PUT /apis/kubesim.io/v1alpha1/activity/{component}) so the cluster can tell when it is
 * quiescent (`settle`) and the live view can show queues. It sends at once when the component
 * turns busy or idle; while busy, again once a second with fresh counters; while idle, once
 * per heartbeat, so the API server knows the process is alive (see ActivityBoard).
 *
 * An idle process does not look at its loops until signalled (activity-signal.ts): work
 * entering a loop wakes it, so turning busy is reported at once without polling. While busy it
 * looks every few milliseconds, to report turning idle promptly.
 *
 * Timers and sending use wall time on purpose: this is transport, not cluster logic, and it
 * must keep working while the cluster clock is paused.
 */
import { busyLoops, type ComponentActivity, type LoopActivity } from '../../apiserver/api/machinery/activity.js';
import { onActivitySignal } from './activity-signal.js';
import type { KubeClient } from './client/http-client.js';
import type { Logger } from './types.js';

export const ACTIVITY_PATH = '/apis/kubesim.io/v1alpha1/activity';

/** How often an idle component repeats its report (wall ms). ActivityBoard keeps an idle
 * report for a few of these, so a live process never looks gone. */
export const IDLE_HEARTBEAT_MS = 5_000;

/** How long after a failed report it is sent again (wall ms). */
const RETRY_MS = 50;

export interface ActivityReporterOptions {
  client: KubeClient;
  component: string;
  loops: () => LoopActivity[];
  logger: Logger;
  signal: AbortSignal;
  /** How often the loops are looked at while busy (wall ms). Default 5. */
  pollMs?: number;
  /** How often a busy component's report is repeated with fresh counters (wall ms). Default 1000. */
  busyRefreshMs?: number;
  /** How often an idle component's report is repeated (wall ms). Default IDLE_HEARTBEAT_MS. */
  heartbeatMs?: number;
}

/** reportActivity runs until `signal` aborts; failures to send are logged at debug and retried. */
export function reportActivity(options: ActivityReporterOptions): void {
  const pollMs = options.pollMs ?? 5;
  const busyRefreshMs = options.busyRefreshMs ?? 1_000;
  const heartbeatMs = options.heartbeatMs ?? IDLE_HEARTBEAT_MS;
  let lastBusy: boolean | undefined;
  let lastSentMs = 0;
  let sending = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let checkQueued = false;

  const send = async (activity: ComponentActivity): Promise<void> => {
    sending = true;
    let sent = false;
    try {
      await options.client.raw({
        method: 'PUT',
        path: `${ACTIVITY_PATH}/${encodeURIComponent(options.component)}`,
        body: JSON.stringify(activity),
        contentType: 'application/json',
        signal: options.signal,
      });
      sent = true;
    } catch (err) {
      lastBusy = undefined; // resend on the next check
      options.logger.debug({ err }, 'activity report failed');
    } finally {
      sending = false;
    }
    // Look again at what changed while the report was on its way; after a failure, a little later.
    if (sent) check();
    else schedule(RETRY_MS);
  };

  /** check sends a report if due, then sets the timer for the next look. */
  const check = (): void => {
    checkQueued = false;
    if (options.signal.aborted || sending) return; // send() checks again when it is done
    const activity: ComponentActivity = { component: options.component, loops: options.loops() };
    // Whether the clock runs is the server's business: report delayed work as possibly busy.
    const busy = busyLoops([activity], true).length > 0;
    const now = Date.now();
    const repeatMs = busy ? busyRefreshMs : heartbeatMs;
    if (busy !== lastBusy || now - lastSentMs >= repeatMs) {
      lastBusy = busy;
      lastSentMs = now;
      void send(activity);
      return;
    }
    schedule(busy ? pollMs : lastSentMs + heartbeatMs - now);
  };

  const schedule = (delayMs: number): void => {
    clearTimeout(timer);
    timer = setTimeout(check, delayMs);
    timer.unref();
  };

  // Coalesces a burst of signals (a list of a thousand objects) into one look.
  const onSignal = (): void => {
    if (checkQueued || lastBusy) return; // a busy reporter is polling already
    checkQueued = true;
    setImmediate(check);
  };
  const stopListening = onActivitySignal(onSignal);
  options.signal.addEventListener(
    'abort',
    () => {
      stopListening();
      clearTimeout(timer);
    },
    { once: true },
  );
  check();
}
