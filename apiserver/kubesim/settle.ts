/**
 * settle waits until the cluster is quiescent: no loop has keys queued or reconciles in flight
 * (nor, while the clock runs, kubelet transitions due), no API request is being served, and no
 * write has happened for a quiet period. It replaces polling loops in controller tests: once it
 * resolves, everything the last change set in motion has happened.
 */

import type { Store } from '../../store/index.js';
import { busyLoops } from '../api/machinery/activity.js';
import type { ActivityBoard } from './activity-board.js';
import type { InflightCounter } from './inflight.js';

export interface SettleOptions {
  /** Give up after this much wall time. Default 10 000. */
  timeoutMs?: number;
  /** Wall time with nothing busy and no write before the cluster counts as quiet. Default 20,
   * or 100 when loops run in other processes (`kubesim up`): the quiet period must cover an
   * event's trip to another process and that process's report of the work it queued. */
  quietMs?: number;
  /** Count kubelet transitions still to come (default true). Reset turns it off: the pods it
   * just deleted may still have stage timers pending, which will find nothing to do. */
  countTransitions?: boolean;
}

export interface SettleResult {
  /** Wall time it took. */
  elapsedMs: number;
  /** The store revision the cluster settled at. */
  revision: number;
}

export interface SettleDeps {
  board: ActivityBoard;
  store: Store;
  inflight: InflightCounter;
  /** Whether cluster time is moving (delayed kubelet transitions count only then). */
  clockRunning: () => boolean;
  /** Components that should be reporting (the supervisor's running processes); one that has
   * not reported yet is still starting, so the cluster is not quiet. */
  expected?: () => string[];
  /** Watch frames written to in-process informers and not handled by them yet. */
  watchHandoffs?: { readonly inTransit: number };
  /** What keeps the other API servers on the same store busy (asked only while this one is
   * quiet); absent for a server alone. */
  peersBusy?: () => Promise<string[]>;
}

/** SettleTimeoutError says what was still busy when settle gave up. */
export class SettleTimeoutError extends Error {
  override readonly name = 'SettleTimeoutError';

  constructor(
    readonly timeoutMs: number,
    readonly busy: string[],
  ) {
    super(`the cluster did not settle within ${timeoutMs} ms; still busy: ${busy.join('; ') || 'writes kept coming'}`);
  }
}

const POLL_MS = 2;

/** busyParts lists what keeps the cluster from being quiet right now. */
export function busyParts(deps: SettleDeps, countTransitions = true): string[] {
  const current = deps.board.current();
  const busy = busyLoops(current, countTransitions && deps.clockRunning());
  const reporting = new Set(current.map((c) => c.component));
  for (const name of deps.expected?.() ?? []) if (!reporting.has(name)) busy.push(`${name} (starting: not reporting yet)`);
  if (deps.inflight.count > 0) busy.push(`apiserver (${deps.inflight.count} request(s) in flight)`);
  const undelivered = deps.store.undeliveredEvents;
  if (undelivered > 0) busy.push(`watch streams (${undelivered} change(s) not yet sent)`);
  const inTransit = deps.watchHandoffs?.inTransit ?? 0;
  if (inTransit > 0) busy.push(`watch streams (${inTransit} event(s) sent, not yet handled by informers)`);
  return busy;
}

const IN_PROCESS_QUIET_MS = 20;
const OUT_OF_PROCESS_QUIET_MS = 100;

export async function settle(deps: SettleDeps, options: SettleOptions = {}): Promise<SettleResult> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const outOfProcess = (deps.expected?.() ?? []).length > 0;
  const quietMs = options.quietMs ?? (outOfProcess ? OUT_OF_PROCESS_QUIET_MS : IN_PROCESS_QUIET_MS);
  const started = Date.now();
  let revision = deps.store.currentRevision;
  let quietSince: number | undefined;
  for (;;) {
    const now = Date.now();
    const busy = busyParts(deps, options.countTransitions);
    if (busy.length === 0 && deps.peersBusy) busy.push(...(await deps.peersBusy()));
    const current = deps.store.currentRevision;
    if (busy.length > 0 || current !== revision) {
      quietSince = undefined;
      revision = current;
    } else {
      quietSince ??= now;
      if (now - quietSince >= quietMs) return { elapsedMs: now - started, revision };
    }
    if (now - started > timeoutMs) {
      throw new SettleTimeoutError(timeoutMs, busy.length ? busy : [`store revision still moving (at ${current})`]);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
