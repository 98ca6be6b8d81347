import { describe, expect, it } from 'vitest';
import { ApiError } from '../../apiserver/api/api-error.js';
import { FakeClock } from '../../apiserver/api/machinery/clock.js';
import { FaultInjector } from '../../apiserver/faults/injector.js';
import type { FaultRequest } from '../../apiserver/faults/types.js';
import type { ComponentAction, ComponentControl } from '../components.js';
import type { ComponentStatus } from '../supervisor.js';
import { Chaos, type ChaosDeps, userAgentOf } from './chaos.js';

/** A stand-in for the cluster's components that records what it was asked to do. */
function fakeComponents(names = ['replicaset', 'scheduler', 'kubelet']) {
  const calls: string[] = [];
  const stopped = new Set<string>();
  const status = (name: string): ComponentStatus => ({ name, state: stopped.has(name) ? 'stopped' : 'running', pid: 100, restarts: 0 });
  const act = async (name: string, action: ComponentAction) => {
    if (action === 'kill' && stopped.has(name)) throw new Error(`${name} is not running (stopped): nothing to kill`);
    calls.push(`${action} ${name}`);
    if (action === 'stop') stopped.add(name);
    if (action === 'start') stopped.delete(name);
    return { ...status(name), restartInMs: 1000 };
  };
  return { calls, names: () => names, act: act as ComponentControl['act'] };
}

function setup() {
  const clock = new FakeClock(Date.parse('2025-01-01T00:00:00Z'));
  const faults = new FaultInjector({ now: () => clock.now() });
  const supervisor = fakeComponents();
  const nodeCalls: string[] = [];
  const notes: string[] = [];
  const deps: ChaosDeps = {
    components: supervisor,
    faults,
    clock,
    nodes: {
      names: async () => ['node-1', 'node-2'],
      set: async (name, action) => {
        nodeCalls.push(`${action} ${name}`);
        return `node/${name} ${action === 'stop' ? 'stopped' : 'started'}`;
      },
    },
    notify: (message) => notes.push(message),
  };
  return { chaos: new Chaos(deps), clock, faults, supervisor, nodeCalls, notes };
}

const request = (userAgent: string, verb = 'list'): FaultRequest => ({
  method: 'GET',
  url: '/api/v1/pods',
  userAgent,
  user: 'kubesim',
  fieldManager: 'x',
  verb,
  resource: 'pods',
  group: '',
  namespace: '',
});

describe('Chaos', () => {
  it('kills a loop and says the supervisor restarts it and what it catches up on', async () => {
    const { chaos, supervisor } = setup();
    const result = await chaos.run({ action: 'kill-loop', target: 'replicaset' });
    expect(supervisor.calls).toEqual(['kill replicaset']);
    expect(result).toMatchObject({ kind: 'ChaosResult', action: 'kill-loop', target: 'replicaset', did: 'killed replicaset (pid 100) with SIGKILL' });
    expect(result.expect).toMatch(/restarts it in ~1 s.*re-list.*every ReplicaSet/);
  });

  it('stops a loop for a while on the cluster clock, and starts it again then', async () => {
    const { chaos, supervisor, clock } = setup();
    const result = await chaos.run({ action: 'stop-loop', target: 'scheduler', seconds: 30 });
    expect(result.did).toBe('stopped scheduler for 30 s of cluster time; it starts again then');
    expect(result.expect).toMatch(/new pods stay Pending/);
    clock.advance(29_999);
    expect(supervisor.calls).toEqual(['stop scheduler']);
    clock.advance(1);
    expect(supervisor.calls).toEqual(['stop scheduler', 'start scheduler']);
  });

  it('partitions a component: 503 for its requests only, until the time is up', async () => {
    const { chaos, faults, clock } = setup();
    const result = await chaos.run({ action: 'partition', target: 'kubelet', seconds: 20 });
    expect(result.faultRule).toBeDefined();
    const kubelet = request('kubesim-kubelet/0.1');
    expect(faults.fire(kubelet)[0]?.effects).toEqual([expect.objectContaining({ type: 'error', code: 503 })]);
    expect(faults.fire(request('kubesim-scheduler/0.1'))).toEqual([]);
    clock.advance(20_000);
    expect(faults.fire(kubelet)).toEqual([]);
  });

  it('cuts watches with a rule that is gone once it has closed them', async () => {
    const { chaos, faults } = setup();
    let closed = 0;
    faults.trackWatch(request('kubesim-replicaset-controller/0.1', 'watch'), () => closed++);
    faults.trackWatch(request('kubesim-deployment-controller/0.1', 'watch'), () => closed++);
    const result = await chaos.run({ action: 'cut-watches', target: 'replicaset' });
    expect(closed).toBe(1);
    expect(result.did).toBe('closed 1 open watch stream(s) of replicaset');
    expect(faults.list()).toEqual([]);
  });

  it("slows every request, or one component's", async () => {
    const { chaos, faults } = setup();
    await chaos.run({ action: 'slow-api', latencyMs: 300, seconds: 10 });
    expect(faults.fire(request('kubectl/v1.33'))[0]?.effects).toEqual([{ type: 'latency', latencyMs: 300 }]);
    faults.clear();
    const result = await chaos.run({ action: 'slow-api', target: 'scheduler' });
    expect(result.did).toMatch(/^added 300 ms of latency to every API request of scheduler for 30 s/);
    expect(faults.fire(request('kubectl/v1.33'))).toEqual([]);
  });

  it('stops a node until started, or for a while', async () => {
    const { chaos, nodeCalls, clock } = setup();
    const forever = await chaos.run({ action: 'stop-node', target: 'node-1' });
    expect(forever.did).toMatch(/stays stopped until `kubesim node start node-1`/);
    expect(forever.expect).toMatch(/NotReady.*evicted.*replace/);
    await chaos.run({ action: 'stop-node', target: 'node-2', seconds: 60 });
    clock.advance(60_000);
    await Promise.resolve();
    expect(nodeCalls).toEqual(['stop node-1', 'stop node-2', 'start node-2']);
  });

  it('names the problem: a missing or unknown target, a loop that is not running', async () => {
    const { chaos } = setup();
    await expect(chaos.run({ action: 'kill-loop' })).rejects.toMatchObject({
      code: 400,
      message: expect.stringMatching(/needs a target: one of replicaset, scheduler, kubelet/),
    });
    await expect(chaos.run({ action: 'partition', target: 'nope' })).rejects.toMatchObject({
      code: 404,
      message: expect.stringMatching(/component "nope" not found; components: replicaset/),
    });
    await expect(chaos.run({ action: 'stop-node', target: 'node-9' })).rejects.toMatchObject({
      code: 404,
      message: expect.stringMatching(/node "node-9" not found; nodes: node-1, node-2/),
    });
    await chaos.run({ action: 'stop-loop', target: 'replicaset' });
    const err = await chaos.run({ action: 'kill-loop', target: 'replicaset' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 409, message: expect.stringMatching(/not running.*kubesim start replicaset/) });
  });

  it('runs a seeded random schedule on the cluster clock and reports each step', async () => {
    const { chaos, clock, notes, supervisor } = setup();
    const result = await chaos.run({ action: 'random', seed: 7, seconds: 20, intervalSeconds: 5 });
    const replay = await setup().chaos.run({ action: 'random', seed: 7, seconds: 20, intervalSeconds: 5 });
    expect(result.schedule).toEqual(replay.schedule);
    expect(result.seed).toBe(7);
    expect(result.schedule).toHaveLength(4);
    expect(result.did).toMatch(/^random chaos for 20 s of cluster time, seed 7: 4 disturbance\(s\)\n {2}at 0 s: /);
    for (let i = 0; i < 20; i++) {
      clock.advance(1000);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(notes.filter((n) => n.startsWith('chaos: '))).toHaveLength(4);
    // Every loop that was stopped has been started again by the end.
    const stops = supervisor.calls.filter((c) => c.startsWith('stop ')).length;
    expect(supervisor.calls.filter((c) => c.startsWith('start ')).length).toBe(stops);
  });

  it("matches each component's own User-Agent", () => {
    expect(userAgentOf('replicaset')).toBe('kubesim-replicaset-controller/');
    expect(userAgentOf('scheduler')).toBe('kubesim-scheduler/');
    expect(userAgentOf('kubelet')).toBe('kubesim-kubelet/');
  });
});
