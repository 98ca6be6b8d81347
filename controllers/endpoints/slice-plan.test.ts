import { describe, expect, it } from 'vitest';
import type { Endpoint, EndpointSlicePort } from '../../apiserver/api/discovery/endpoint-slice.js';
import type { EndpointGroup } from './desired-endpoints.js';
import { type CurrentSlice, planSlices } from './slice-plan.js';

const PORTS: EndpointSlicePort[] = [{ name: '', port: 8080, protocol: 'TCP' }];
const KEY = JSON.stringify([['', 8080, 'TCP', '']]);

function endpoint(i: number, ready = true): Endpoint {
  return {
    addresses: [`10.0.${Math.floor(i / 250)}.${i % 250}`],
    conditions: { ready, serving: ready, terminating: false },
    targetRef: { kind: 'Pod', name: `p${i}`, uid: `u${i}` },
  };
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => endpoint(from + k));
const group = (endpoints: Endpoint[]): Map<string, EndpointGroup> => new Map([[KEY, { ports: PORTS, endpoints }]]);

describe('planSlices', () => {
  it('cuts new endpoints into slices of at most 100', () => {
    const plan = planSlices(group(range(0, 250)), []);
    expect(plan.create.map((c) => c.endpoints.length)).toEqual([100, 100, 50]);
    expect(plan).toMatchObject({ update: [], delete: [], unchanged: [] });
  });

  it('keeps an unchanged slice untouched', () => {
    const plan = planSlices(group(range(0, 3)), [{ name: 'web-a', ports: PORTS, endpoints: range(0, 3) }]);
    expect(plan).toEqual({ create: [], update: [], delete: [], unchanged: ['web-a'] });
  });

  it('updates in place: a changed endpoint stays in its slice, new ones fill free room first', () => {
    const current: CurrentSlice[] = [
      { name: 'web-a', ports: PORTS, endpoints: range(0, 100) },
      { name: 'web-b', ports: PORTS, endpoints: range(100, 110) },
    ];
    const desired = [...range(0, 110), ...range(110, 205)];
    desired[105] = endpoint(105, false);
    const plan = planSlices(group(desired), current);
    expect(plan.unchanged).toEqual(['web-a']);
    expect(plan.update.map((u) => [u.name, u.endpoints.length, u.endpoints[5]?.conditions?.ready])).toEqual([['web-b', 100, false]]);
    expect(plan.create.map((c) => c.endpoints.length)).toEqual([5]);
  });

  it('deletes slices left empty and slices of port sets no longer wanted', () => {
    const current: CurrentSlice[] = [
      { name: 'web-a', ports: PORTS, endpoints: range(0, 2) },
      { name: 'web-b', ports: PORTS, endpoints: range(2, 4) },
      { name: 'web-old', ports: [{ name: '', port: 80, protocol: 'TCP' }], endpoints: range(4, 5) },
    ];
    const plan = planSlices(group(range(0, 2)), current);
    expect(plan).toEqual({ create: [], update: [], delete: ['web-old', 'web-b'], unchanged: ['web-a'] });
  });

  it('without endpoints keeps exactly one empty placeholder slice', () => {
    expect(planSlices(new Map(), [])).toEqual({ create: [{ ports: [], endpoints: [] }], update: [], delete: [], unchanged: [] });
    const current: CurrentSlice[] = [
      { name: 'web-a', ports: PORTS, endpoints: range(0, 2) },
      { name: 'web-b', ports: [], endpoints: [] },
    ];
    expect(planSlices(new Map(), current)).toEqual({ create: [], update: [], delete: ['web-a'], unchanged: ['web-b'] });
    expect(planSlices(new Map(), current.slice(0, 1))).toEqual({
      create: [],
      update: [{ name: 'web-a', ports: [], endpoints: [] }],
      delete: [],
      unchanged: [],
    });
  });
});
