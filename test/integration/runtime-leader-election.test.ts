/** controllers/runtime's leader election on a real Lease: one leader at a time, renewals,
 * take-over after the leader stops renewing, and a leader that finds the lease taken. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Lease, leaseDefinition } from '../../apiserver/api/coordination/lease.js';
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import { rfc3339Micro } from '../../apiserver/api/machinery/time.js';
import { createLeaderElector, type LeaderElector } from '../../controllers/runtime/leader-election.js';
import { silentLogger } from '../../controllers/runtime/logger.js';
import { eventually } from '../support/eventually.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const cluster = useTestCluster({ userAgent: 'runtime-leader-election-test' });
const stops: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** Short timings so a take-over happens within a test: the lease lasts 1s. */
const TIMING = { leaseDurationMs: 1_000, renewDeadlineMs: 600, retryPeriodMs: 100 };

/** timeline records who leads, and fails the test the moment two lead at once. */
const timeline = { leaders: new Set<string>(), log: [] as string[], overlaps: 0 };

interface Candidate {
  elector: LeaderElector;
  stop(): Promise<void>;
  leaderSignal(): AbortSignal | undefined;
}

function candidate(identity: string): Candidate {
  const elector = createLeaderElector({ client: cluster.client, name: 'test-lock', identity, clock: createRealClock(), logger: silentLogger, ...TIMING });
  const abort = new AbortController();
  let leaderSignal: AbortSignal | undefined;
  const done = elector.run(abort.signal, {
    onStartedLeading(signal) {
      leaderSignal = signal;
      if (timeline.leaders.size > 0) timeline.overlaps++;
      timeline.leaders.add(identity);
      timeline.log.push(`${identity} started`);
    },
    onStoppedLeading() {
      timeline.leaders.delete(identity);
      timeline.log.push(`${identity} stopped`);
    },
  });
  const stop = async () => {
    abort.abort();
    await done;
  };
  stops.push(stop);
  return { elector, stop, leaderSignal: () => leaderSignal };
}

const lease = () => cluster.client.resource(leaseDefinition).get('kube-system', 'test-lock');

beforeEach(() => {
  timeline.leaders.clear();
  timeline.log = [];
  timeline.overlaps = 0;
});

describe('leader election', () => {
  it('lets one candidate lead; the other takes over once the leader stops renewing', async () => {
    const a = candidate('a');
    await eventually(() => expect(a.elector.isLeader()).toBe(true));
    const b = candidate('b');
    const first = await lease();
    expect(first.spec).toMatchObject({ holderIdentity: 'a', leaseDurationSeconds: 1, leaseTransitions: 0 });
    expect(first.spec?.acquireTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    // While a renews, b sees it hold the lease and stays a follower.
    await eventually(() => expect(b.elector.leader()).toBe('a'));
    await eventually(async () => expect((await lease()).spec?.renewTime).not.toBe(first.spec?.renewTime));
    expect(b.elector.isLeader()).toBe(false);

    await a.stop();
    expect(a.leaderSignal()?.aborted).toBe(true);
    await eventually(() => expect(b.elector.isLeader()).toBe(true), { timeoutMs: 5_000 });
    const taken = await lease();
    expect(taken.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    expect(taken.spec?.acquireTime).not.toBe(first.spec?.acquireTime);
    expect(timeline.log).toEqual(['a started', 'a stopped', 'b started']);
    expect(timeline.overlaps).toBe(0);
  });

  it('stops leading (aborting leaderSignal) when it finds the lease taken', async () => {
    const a = candidate('a');
    await eventually(() => expect(a.elector.isLeader()).toBe(true));
    const current = await lease();
    const stolen: Lease = { ...current, spec: { ...current.spec, holderIdentity: 'thief', leaseDurationSeconds: 3600, renewTime: rfc3339Micro(Date.now()) } };
    await eventually(async () => void (await cluster.client.resource(leaseDefinition).update({ ...(await lease()), spec: stolen.spec })));
    await eventually(() => expect(a.leaderSignal()?.aborted).toBe(true));
    expect(a.elector.isLeader()).toBe(false);
    expect(timeline.log).toEqual(['a started', 'a stopped']);
  });

  it('rejects timings that cannot work', () => {
    expect(() =>
      createLeaderElector({
        client: cluster.client,
        name: 'x',
        identity: 'a',
        clock: createRealClock(),
        logger: silentLogger,
        leaseDurationMs: 1000,
        renewDeadlineMs: 1000,
      }),
    ).toThrow(RangeError);
  });
});
