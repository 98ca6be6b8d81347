/**
 * Leader election on coordination.k8s.io/v1 Leases (client-go's leaderelection package):
 * of all candidates running with the same lease name, at most one leads at a time.
 *
 * Rules (what every candidate does every retryPeriodMs):
 *   - no Lease → create it holding it (AlreadyExists: someone else won the race);
 *   - held by another identity whose record this candidate saw change less than the lease's
 *     duration ago → wait. Expiry is judged by the local clock from when *this* candidate
 *     last saw the record change, not by the holder's renewTime, so clock skew between
 *     processes cannot make two leaders;
 *   - otherwise (expired, released or ours) → update it: holderIdentity, renewTime, and on a
 *     change of holder acquireTime and leaseTransitions + 1. The update carries the
 *     resourceVersion read, so of two candidates racing only one wins (409 for the other).
 *
 * A leader that cannot renew for renewDeadlineMs, or finds the lease taken, stops leading:
 * its leaderSignal aborts so everything it started stops. When run()'s own signal aborts the
 * leader simply stops renewing; the lease expires and another candidate takes over.
 */
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { isAlreadyExists, isConflict, isNotFound } from '../../apiserver/api/api-error.js';

import type { Lease } from '../../apiserver/api/coordination/lease.js';
import { isAbortError } from '../../apiserver/api/machinery/clock.js';
import { rfc3339Micro } from '../../apiserver/api/machinery/time.js';
import type { KubeClient } from './client/http-client.js';
import { KINDS } from './kinds.js';
import type { Clock, Logger, ResourceClient } from './types.js';

/** LeaderElectorOptions configures createLeaderElector; the timings default to
 * kube-controller-manager's (15s lease, 10s renew deadline, 2s retry period). */
export interface LeaderElectorOptions {
  client: KubeClient;
  namespace?: string;
  /** The Lease's name, shared by all candidates (e.g. `kube-controller-manager`). */
  name: string;
  /** This candidate, unique among them (e.g. `<hostname>_<random>`). */
  identity: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  clock: Clock;
  logger: Logger;
}

/** processIdentity names this process among the candidates of any lease: <hostname>_<pid>. */
export function processIdentity(): string {
  return `${hostname()}_${process.pid}`;
}

/** LeaderCallbacks are what a LeaderElector calls as leadership starts and ends. */
export interface LeaderCallbacks {
  /** Called once leadership is won; `leaderSignal` aborts when it is lost or run() stops. */
  onStartedLeading(leaderSignal: AbortSignal): void | Promise<void>;
  /** Called after leading ends (never when this candidate did not lead). */
  onStoppedLeading?(): void;
}

/**
 * LeaderElector knows how to compete for one Lease. run() resolves when `signal` aborts, or
 * after leadership was lost (a lost leader does not compete again: like
 * kube-controller-manager, the process should exit and be restarted with a clean state).
 * Callback errors are logged, never thrown.
 */
export interface LeaderElector {
  run(signal: AbortSignal, callbacks: LeaderCallbacks): Promise<void>;
  isLeader(): boolean;
  /** The holder this candidate last observed, if any. */
  leader(): string | undefined;
}

/** createLeaderElector returns a LeaderElector (see the module comment). Throws RangeError
 * unless leaseDurationMs > renewDeadlineMs > retryPeriodMs > 0, as client-go requires. */
export function createLeaderElector(options: LeaderElectorOptions): LeaderElector {
  const config = {
    namespace: options.namespace ?? 'kube-system',
    leaseDurationMs: options.leaseDurationMs ?? 15_000,
    renewDeadlineMs: options.renewDeadlineMs ?? 10_000,
    retryPeriodMs: options.retryPeriodMs ?? 2_000,
  };
  if (!(config.leaseDurationMs > config.renewDeadlineMs && config.renewDeadlineMs > config.retryPeriodMs && config.retryPeriodMs > 0)) {
    throw new RangeError('leader election needs leaseDurationMs > renewDeadlineMs > retryPeriodMs > 0');
  }
  return new LeaseElector({ ...options, ...config }, options.client.resource(KINDS.lease));
}

type ElectorConfig = LeaderElectorOptions & Required<Pick<LeaderElectorOptions, 'namespace' | 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'>>;

class LeaseElector implements LeaderElector {
  /** The lease spec as last read, and when (local clock) it was last seen to change. */
  private observed: { spec: NonNullable<Lease['spec']>; atMs: number } | undefined;
  private leading = false;
  private readonly logger: Logger;

  constructor(
    private readonly config: ElectorConfig,
    private readonly leases: ResourceClient<Lease>,
  ) {
    this.logger = config.logger.child({ lease: `${config.namespace}/${config.name}`, identity: config.identity });
  }

  isLeader(): boolean {
    return this.leading;
  }

  leader(): string | undefined {
    return this.observed?.spec.holderIdentity || undefined;
  }

  async run(signal: AbortSignal, callbacks: LeaderCallbacks): Promise<void> {
    if (!(await this.acquire(signal))) return;
    const leadership = new AbortController();
    // Everything the leader runs listens on leaderSignal (see Manager): not a leak.
    setMaxListeners(0, leadership.signal);
    this.leading = true;
    this.logger.info({}, 'became leader');
    const work = this.startLeading(callbacks, leadership.signal);
    await this.renewWhileLeading(signal);
    this.leading = false;
    leadership.abort();
    this.logger.info({ stopped: signal.aborted ? 'shutdown' : 'lost' }, 'stopped leading');
    await work;
    try {
      callbacks.onStoppedLeading?.();
    } catch (err) {
      this.logger.error({ err }, 'onStoppedLeading threw');
    }
  }

  private async startLeading(callbacks: LeaderCallbacks, leaderSignal: AbortSignal): Promise<void> {
    try {
      await callbacks.onStartedLeading(leaderSignal);
    } catch (err) {
      if (!isAbortError(err)) this.logger.error({ err }, 'onStartedLeading failed');
    }
  }

  /** acquire retries every retryPeriodMs until this candidate holds the lease (true) or
   * `signal` aborts (false). */
  private async acquire(signal: AbortSignal): Promise<boolean> {
    for (;;) {
      if (signal.aborted) return false;
      if (await this.tryAcquireOrRenew()) return true;
      if (!(await this.pause(signal))) return false;
    }
  }

  /** renewWhileLeading renews every retryPeriodMs until `signal` aborts or renewing has
   * failed for renewDeadlineMs (or the lease was taken). */
  private async renewWhileLeading(signal: AbortSignal): Promise<void> {
    let lastRenewMs = this.config.clock.now();
    while (await this.pause(signal)) {
      if (await this.tryAcquireOrRenew()) {
        lastRenewMs = this.config.clock.now();
        continue;
      }
      const holder = this.leader();
      if (holder && holder !== this.config.identity) {
        this.logger.warn({ holder }, 'lease taken by another candidate');
        return;
      }
      if (this.config.clock.now() - lastRenewMs >= this.config.renewDeadlineMs) {
        this.logger.warn({ renewDeadlineMs: this.config.renewDeadlineMs }, 'failed to renew the lease before the deadline');
        return;
      }
    }
  }

  /** pause sleeps one retry period; false when `signal` aborted. */
  private async pause(signal: AbortSignal): Promise<boolean> {
    try {
      await this.config.clock.sleep(this.config.retryPeriodMs, signal);
      return true;
    } catch (err) {
      if (signal.aborted) return false;
      throw err;
    }
  }

  /** tryAcquireOrRenew makes one attempt; false on any failure (logged at debug level:
   * losing a race is the normal outcome for every candidate but one). */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const nowMs = this.config.clock.now();
    try {
      const lease = await this.read();
      if (!lease) return await this.create(nowMs);
      this.observe(lease, nowMs);
      if (this.heldByOther(lease, nowMs)) return false;
      const updated = await this.leases.update(this.claim(lease, nowMs));
      this.observed = { spec: updated.spec ?? {}, atMs: nowMs };
      return true;
    } catch (err) {
      if (isConflict(err) || isAlreadyExists(err)) this.logger.debug({ reason: (err as Error).message }, 'lost a race for the lease');
      else this.logger.warn({ err }, 'lease request failed');
      return false;
    }
  }

  private async read(): Promise<Lease | undefined> {
    try {
      return await this.leases.get(this.config.namespace, this.config.name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  private async create(nowMs: number): Promise<boolean> {
    const spec = this.claim({ metadata: {} }, nowMs).spec ?? {};
    const lease: Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: this.config.name, namespace: this.config.namespace },
      spec: { ...spec, leaseTransitions: 0 },
    };
    const created = await this.leases.create(lease);
    this.observed = { spec: created.spec ?? {}, atMs: nowMs };
    return true;
  }

  /** observe records the lease and, if it changed since last seen, restarts its expiry timer. */
  private observe(lease: Lease, nowMs: number): void {
    const spec = lease.spec ?? {};
    const previous = this.observed?.spec;
    const changed = !previous || previous.holderIdentity !== spec.holderIdentity || previous.renewTime !== spec.renewTime;
    if (changed) this.observed = { spec, atMs: nowMs };
  }

  private heldByOther(lease: Lease, nowMs: number): boolean {
    const holder = lease.spec?.holderIdentity;
    if (!holder || holder === this.config.identity || !this.observed) return false;
    const durationMs = (lease.spec?.leaseDurationSeconds ?? 0) * 1000 || this.config.leaseDurationMs;
    return this.observed.atMs + durationMs > nowMs;
  }

  /** claim is `lease` held by this candidate now, counting a transition on a change of holder. */
  private claim(lease: Lease, nowMs: number): Lease {
    const spec = lease.spec ?? {};
    const isRenewal = spec.holderIdentity === this.config.identity;
    const now = rfc3339Micro(nowMs);
    return {
      ...lease,
      spec: {
        ...spec,
        holderIdentity: this.config.identity,
        leaseDurationSeconds: Math.max(1, Math.ceil(this.config.leaseDurationMs / 1000)),
        acquireTime: isRenewal && spec.acquireTime ? spec.acquireTime : now,
        renewTime: now,
        leaseTransitions: isRenewal ? (spec.leaseTransitions ?? 0) : (spec.leaseTransitions ?? 0) + 1,
      },
    };
  }
}
