/**
 * The clock of a component process (`kubesim controller|scheduler|kubelet`): by default it
 * follows the API server's cluster clock (controllers/runtime/remote-clock.ts), so
 * `kubesim clock pause|resume|speed|advance` reaches it; `--clock local` gives it a real clock
 * of its own at `--speed`, for a server that serves no clock or a component run on purpose at
 * another pace.
 */

import { createRealClock } from '../apiserver/api/machinery/clock.js';
import { clockSpeedProblem } from '../apiserver/api/machinery/clock-bounds.js';
import type { KubeconfigTarget } from '../controllers/runtime/client/kubeconfig.js';
import { serverList } from '../controllers/runtime/client/server-pool.js';
import { fetchWithTls } from '../controllers/runtime/client/tls-fetch.js';
import { followServerClock } from '../controllers/runtime/remote-clock.js';
import type { Clock, Logger } from '../controllers/runtime/types.js';
import { type FlagSpec, type Flags, UsageError } from './args.js';

/** componentClockFlags are the clock flags every component command accepts. */
export const componentClockFlags: Record<string, FlagSpec> = {
  clock: {
    type: 'string',
    description:
      "server: follow the API server's cluster clock (pause, speed and advance reach this process); local: a real clock of its own (default server, local when --speed or --clock-origin is given)",
  },
  speed: { type: 'number', description: 'speed factor of a local clock (implies --clock local; must match the cluster)' },
  'clock-origin': { type: 'number', description: 'origin of a local clock, ms since the epoch (implies --clock local)' },
};

const SERVING_POLL_MS = 20;
const SERVING_TIMEOUT_MS = 60_000;

/** untilServing resolves once the API server at `server` (any of them, for a list) answers
 * /readyz; throws after a minute. */
async function untilServing(target: KubeconfigTarget, signal: AbortSignal): Promise<void> {
  const servers = serverList(target.server);
  const deadline = Date.now() + SERVING_TIMEOUT_MS;
  while (!signal.aborted) {
    for (const server of servers) {
      const ready = await fetchWithTls(`${server}/readyz`, { signal, tls: target.tls, token: target.token }).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) return;
    }
    if (Date.now() > deadline) throw new Error(`the API server at ${target.server} did not answer within ${SERVING_TIMEOUT_MS / 1000} s: is it running?`);
    await new Promise((resolve) => setTimeout(resolve, SERVING_POLL_MS));
  }
}

/** componentClock returns the clock `flags` ask for; a server clock follows until `signal` aborts. */
export async function componentClock(flags: Flags, target: KubeconfigTarget, signal: AbortSignal, logger?: Logger): Promise<Clock> {
  const localFlags = flags['speed'] !== undefined || flags['clock-origin'] !== undefined;
  const mode = flags['clock'] ?? (localFlags ? 'local' : 'server');
  if (mode === 'server') {
    if (localFlags)
      throw new UsageError('--speed and --clock-origin set a local clock; with --clock server the cluster sets the pace (`kubesim clock speed N`)');
    // `kubesim up` starts its components while its API server is still starting.
    await untilServing(target, signal);
    return followServerClock({ server: target.server, token: target.token, tls: target.tls }, signal, { logger });
  }
  if (mode !== 'local') throw new UsageError(`--clock must be server or local, got ${JSON.stringify(mode)}`);
  const speed = (flags['speed'] as number | undefined) ?? 1;
  const speedProblem = clockSpeedProblem(speed);
  if (speedProblem) throw new UsageError(`--speed ${speedProblem}, got ${speed}`);
  return createRealClock({ speed, originMs: flags['clock-origin'] as number | undefined });
}
