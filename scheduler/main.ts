/**
 * runScheduler runs the scheduler as a process against an API server until `signal` aborts:
 * a manager (shared informers, the event recorder as `default-scheduler`) with the scheduler
 * registered. `kubesim scheduler` calls it; tests may too.
 */

import { createRealClock } from '../apiserver/api/machinery/clock.js';
import { createRandom, type Random } from '../apiserver/api/machinery/random.js';
import { createKubeClient } from '../controllers/runtime/client/http-client.js';
import type { ClientTls } from '../controllers/runtime/client/http-transport.js';
import { processIdentity } from '../controllers/runtime/leader-election.js';
import { createLogger, type LogLevel } from '../controllers/runtime/logger.js';
import { createManager } from '../controllers/runtime/manager.js';
import type { Clock, Logger } from '../controllers/runtime/types.js';
import { DEFAULT_SCHEDULER_NAME } from './event-handlers.js';
import { registerScheduler, type Scheduler } from './scheduler.js';

/** RunSchedulerOptions configures runScheduler. */
export interface RunSchedulerOptions {
  server: string;
  token?: string;
  /** The CA and client certificate of an https server (KubeconfigTarget.tls). */
  tls?: ClientTls;
  /** Default: a real clock at speed 1. */
  clock?: Clock;
  /** Default: a JSON logger at `logLevel`. */
  logger?: Logger;
  logLevel?: LogLevel;
  /** Seeds the tie-break between equally scored nodes. Default: drawn from a seeded `random`,
   * else 0. */
  seed?: number;
  /** This process's randomness (seeded for a deterministic cluster); the platform's when absent. */
  random?: Random;
  /** Schedule only while holding the Lease kube-system/kube-scheduler (kube-scheduler's
   * --leader-elect), so several copies can run and one schedules. */
  leaderElect?: boolean;
  /** Called once the scheduler is registered (before it starts), e.g. to read its counters. */
  onStarted?: (scheduler: Scheduler) => void;
  signal: AbortSignal;
}

/** SCHEDULER_LEASE is kube-scheduler's lock, a Lease in kube-system (its RBAC is bootstrapped). */
export const SCHEDULER_LEASE = 'kube-scheduler';

/** runScheduler resolves once the scheduler has stopped (after `signal` aborted); it rejects
 * only if the manager fails. */
export async function runScheduler(options: RunSchedulerOptions): Promise<void> {
  const component = DEFAULT_SCHEDULER_NAME;
  const clock = options.clock ?? createRealClock();
  const logger = options.logger ?? createLogger({ component, level: options.logLevel ?? 'info', clock });
  const client = createKubeClient({ server: options.server, token: options.token, tls: options.tls, userAgent: `kubesim-scheduler/0.1`, logger });
  const random = options.random ?? createRandom();
  const leaderElection = options.leaderElect ? { name: SCHEDULER_LEASE, identity: processIdentity() } : undefined;
  const manager = createManager({ client, clock, logger, component, random, leaderElection });
  const seed = options.seed ?? tieBreakSeed(random);
  const scheduler = registerScheduler(manager, { seed });
  options.onStarted?.(scheduler);
  logger.info({ seed, leaderElect: !!options.leaderElect }, 'starting');
  try {
    await manager.start(options.signal);
  } finally {
    client.close();
    logger.info({}, 'stopped');
  }
}

/** tieBreakSeed derives the tie-break seed from a seeded Random (its own stream, so it does
 * not depend on other draws); an unseeded scheduler keeps the fixed seed 0, as before. */
export function tieBreakSeed(random: Random): number {
  return random.seed === undefined ? 0 : random.fork('tie-break').int(2 ** 32);
}
