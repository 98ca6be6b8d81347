import { describe, expect, it } from 'vitest';
import { isAlreadyExists } from '../api/api-error.js';
import { createRandom } from '../api/machinery/random.js';
import { FaultInjector } from './injector.js';
import type { FaultRequest } from './types.js';

const get: FaultRequest = {
  method: 'GET',
  url: '/api/v1/namespaces/default/pods/a',
  user: 'kubesim',
  fieldManager: '',
  verb: 'get',
  resource: 'pods',
  group: '',
  namespace: 'default',
  name: 'a',
};
const watch: FaultRequest = { ...get, url: '/api/v1/namespaces/default/pods?watch=1', verb: 'watch', name: undefined };

function injectorAt(start = Date.parse('2030-01-01T00:00:00Z')) {
  const clock = { ms: start };
  const logged: object[] = [];
  const injector = new FaultInjector({ now: () => clock.ms, logger: { warn: (fields) => logged.push(fields) } });
  return { injector, clock, logged };
}

describe('FaultInjector', () => {
  it('fires a rule at most count times', () => {
    const { injector } = injectorAt();
    const rule = injector.add({ verbs: ['get'], error: 500, count: 2 });
    expect([1, 2, 3].map(() => injector.fire(get).length)).toEqual([1, 1, 0]);
    expect(injector.get(rule.id)?.status).toEqual({ fired: 2, active: false });
  });

  it("draws a seeded rule's probability from createRandom(seed)", () => {
    const { injector } = injectorAt();
    injector.add({ id: 'coin', error: 503, probability: 0.5, seed: 7 });
    const fired = Array.from({ length: 32 }, () => injector.fire(get).length === 1);
    const expected = createRandom(7);
    expect(fired).toEqual(Array.from({ length: 32 }, () => expected.next() < 0.5));
    expect(fired).toContain(true);
    expect(fired).toContain(false);
  });

  it('stops firing at expiresAt on the cluster clock (ttlSeconds counts from add)', () => {
    const { injector, clock } = injectorAt();
    const rule = injector.add({ latencyMs: 10, ttlSeconds: 30 });
    expect(rule.expiresAt).toBe('2030-01-01T00:00:30.000Z');
    clock.ms += 29_999;
    expect(injector.fire(get)).toHaveLength(1);
    clock.ms += 1;
    expect(injector.fire(get)).toHaveLength(0);
    expect(injector.list()[0]?.status.active).toBe(false);
  });

  it('applies watch faults only to watches, and refusal only to resumes', () => {
    const { injector } = injectorAt();
    injector.add({ refuseWatchResume: true, withholdBookmarks: true, closeWatches: { open: false, afterEvents: 2 } });
    expect(injector.fire(get)).toEqual([]);
    expect(injector.fire(watch)[0]?.effects).toEqual([{ type: 'withholdBookmarks' }, { type: 'closeWatch', afterEvents: 2 }]);
    expect(injector.fire({ ...watch, resumeRevision: 12 })[0]?.effects).toContainEqual({ type: 'refuseWatchResume', resourceVersion: 12 });
  });

  it('gives 429 a Retry-After of 1 second unless the rule sets one', () => {
    const { injector } = injectorAt();
    injector.add({ error: 429, count: 1 });
    injector.add({ error: { code: 429, retryAfterSeconds: 5 }, count: 1 });
    expect(injector.fire(get).map((f) => f.effects)).toEqual([
      [{ type: 'error', code: 429, retryAfterSeconds: 1 }],
      [{ type: 'error', code: 429, retryAfterSeconds: 5 }],
    ]);
  });

  it('ends matching open watches when a closeWatches rule is added, within its count', () => {
    const { injector } = injectorAt();
    const closed: string[] = [];
    const track = (name: string, request: FaultRequest) => injector.trackWatch(request, () => closed.push(name));
    track('pods-1', watch);
    track('pods-2', watch);
    track('nodes', { ...watch, resource: 'nodes', namespace: '' });
    const untrack = track('pods-gone', watch);
    untrack();
    injector.add({ resource: 'pods', closeWatches: true, count: 1 });
    expect(closed).toEqual(['pods-1']);
    injector.add({ resource: 'pods', closeWatches: true });
    expect(closed).toEqual(['pods-1', 'pods-2']);
    expect(injector.openWatches().map((w) => w.resource)).toEqual(['nodes']);
  });

  it('logs and records every firing, keeping the newest historySize', () => {
    const clock = { ms: Date.parse('2030-01-01T00:00:00Z') };
    const logged: object[] = [];
    const injector = new FaultInjector({ now: () => clock.ms, logger: { warn: (fields) => logged.push(fields) }, historySize: 2 });
    const rule = injector.add({ userAgent: 'kubectl', error: 409 });
    for (const name of ['a', 'b', 'c']) injector.fire({ ...get, name, url: `/api/v1/namespaces/default/pods/${name}`, userAgent: 'kubectl/v1.32' });
    expect(logged).toHaveLength(3);
    expect(injector.injected()).toEqual([
      {
        ruleId: rule.id,
        time: '2030-01-01T00:00:00.000Z',
        request: { method: 'GET', url: '/api/v1/namespaces/default/pods/b', userAgent: 'kubectl/v1.32', user: 'kubesim', verb: 'get' },
        injected: [{ type: 'error', code: 409 }],
      },
      expect.objectContaining({ request: expect.objectContaining({ url: '/api/v1/namespaces/default/pods/c' }) }),
    ]);
    injector.clearInjected();
    expect(injector.injected()).toEqual([]);
  });

  it('names rules fault-N unless given an id, and refuses a taken one', () => {
    const { injector } = injectorAt();
    expect(injector.add({ error: 500 }).id).toBe('fault-1');
    expect(injector.add({ id: 'fault-2', error: 500 }).id).toBe('fault-2');
    expect(injector.add({ error: 500 }).id).toBe('fault-3');
    expect(() => injector.add({ id: 'fault-2', error: 500 })).toThrow(expect.toSatisfy(isAlreadyExists));
    expect(injector.remove('fault-2')).toBe(true);
    expect(injector.remove('fault-2')).toBe(false);
    injector.clear();
    expect(injector.list()).toEqual([]);
  });
});
