import { describe, expect, it } from 'vitest';
import type { Container } from '../apiserver/api/core/container.js';
import type { Pod } from '../apiserver/api/core/pod.js';
import { IDLE_USAGE, jitter, NODE_OVERHEAD, nodeUsage, type PodUsageInput, podUsage, spread } from './usage.js';

const MI = 1024 * 1024;
const NODE = { cpuMillis: 4000, memoryBytes: 16 * 1024 * MI };

function pod(containers: Array<Partial<Container> & { name: string }>, options: { uid?: string; running?: string[] } = {}): Pod {
  const running = options.running ?? containers.map((c) => c.name);
  return {
    metadata: { name: 'web-1', namespace: 'default', uid: options.uid ?? 'uid-1' },
    spec: { containers: containers.map((c) => ({ image: 'nginx', ...c })) },
    status: {
      phase: 'Running',
      containerStatuses: containers.map((c) => ({
        name: c.name,
        image: 'nginx',
        imageID: '',
        ready: running.includes(c.name),
        restartCount: 0,
        state: running.includes(c.name) ? { running: { startedAt: '2024-01-01T00:00:00Z' } } : { waiting: { reason: 'ContainerCreating' } },
      })),
    },
  };
}

const usage = (input: Partial<PodUsageInput> & { pod: Pod }) => podUsage({ fixed: {}, capacity: NODE, ...input });

describe('podUsage', () => {
  it('gives an idle container a small baseline, the same at every scrape, different per pod', () => {
    const [first] = usage({ pod: pod([{ name: 'nginx' }]) });
    expect(first?.cpuMillis).toBeGreaterThanOrEqual(IDLE_USAGE.cpuMillis.min);
    expect(first?.cpuMillis).toBeLessThanOrEqual(IDLE_USAGE.cpuMillis.max);
    expect(first?.memoryBytes).toBeGreaterThanOrEqual(IDLE_USAGE.memoryBytes.min);
    expect(first?.memoryBytes).toBeLessThanOrEqual(IDLE_USAGE.memoryBytes.max);
    expect((first?.memoryBytes ?? 1) % 1024).toBe(0);
    expect(usage({ pod: pod([{ name: 'nginx' }]) })).toEqual([first]);
    const others = ['a', 'b', 'c', 'd', 'e'].map((uid) => usage({ pod: pod([{ name: 'nginx' }], { uid }) })[0]?.memoryBytes);
    expect(new Set(others).size).toBeGreaterThan(1);
  });

  it('uses kubesim.io/cpu and kubesim.io/memory as each container’s fixed usage', () => {
    const result = usage({ pod: pod([{ name: 'app' }, { name: 'sidecar' }]), fixed: { cpu: '250m', memory: '128Mi' } });
    expect(result).toEqual([
      { name: 'app', cpuMillis: 250, memoryBytes: 128 * MI },
      { name: 'sidecar', cpuMillis: 250, memoryBytes: 128 * MI },
    ]);
  });

  it('lists only running containers', () => {
    const result = usage({ pod: pod([{ name: 'app' }, { name: 'waiting' }], { running: ['app'] }), fixed: { cpu: '10m' } });
    expect(result.map((c) => c.name)).toEqual(['app']);
    expect(usage({ pod: pod([{ name: 'app' }], { running: [] }) })).toEqual([]);
  });

  it('adds the pod’s share of the load on top of the baseline', () => {
    const [c] = usage({ pod: pod([{ name: 'app' }]), fixed: { cpu: '5m', memory: '10Mi' }, share: { cpuMillis: 1400 / 3, memoryBytes: 90 * MI } });
    expect(c).toEqual({ name: 'app', cpuMillis: 5 + 467, memoryBytes: 100 * MI });
  });

  it('splits the share over the containers by their requests', () => {
    const containers = [
      { name: 'app', resources: { requests: { cpu: '300m', memory: '300Mi' } } },
      { name: 'proxy', resources: { requests: { cpu: '100m', memory: '100Mi' } } },
      { name: 'logger' },
    ];
    const result = usage({ pod: pod(containers), fixed: { cpu: '0', memory: '0' }, share: { cpuMillis: 400, memoryBytes: 400 * MI } });
    expect(result).toEqual([
      { name: 'app', cpuMillis: 300, memoryBytes: 300 * MI },
      { name: 'proxy', cpuMillis: 100, memoryBytes: 100 * MI },
      { name: 'logger', cpuMillis: 0, memoryBytes: 0 },
    ]);
  });

  it('splits the share equally when no container requests anything', () => {
    const result = usage({ pod: pod([{ name: 'a' }, { name: 'b' }]), fixed: { cpu: '0', memory: '0' }, share: { cpuMillis: 500 } });
    expect(result.map((c) => c.cpuMillis)).toEqual([250, 250]);
  });

  it('caps CPU and memory at the container’s limits and at the node’s capacity', () => {
    const limited = { name: 'app', resources: { limits: { cpu: '500m', memory: '256Mi' } } };
    const [c] = usage({ pod: pod([limited]), share: { cpuMillis: 5000, memoryBytes: 64 * 1024 * MI } });
    expect(c).toMatchObject({ cpuMillis: 500, memoryBytes: 256 * MI });
    const [unlimited] = usage({ pod: pod([{ name: 'app' }]), share: { cpuMillis: 50_000, memoryBytes: 64 * 1024 * MI } });
    expect(unlimited).toMatchObject({ cpuMillis: NODE.cpuMillis, memoryBytes: NODE.memoryBytes });
  });

  it('ignores unreadable requests and limits', () => {
    const odd = { name: 'app', resources: { requests: { cpu: 'lots' }, limits: { memory: '??' } } };
    const [c] = usage({ pod: pod([odd]), fixed: { cpu: '0', memory: '1Mi' }, share: { cpuMillis: 100 } });
    expect(c).toEqual({ name: 'app', cpuMillis: 100, memoryBytes: MI });
  });
});

describe('nodeUsage', () => {
  it('is the pods’ usage plus a stable system overhead, within the node’s capacity', () => {
    const pods = [
      { cpuMillis: 100, memoryBytes: 100 * MI },
      { cpuMillis: 200, memoryBytes: 50 * MI },
    ];
    const total = nodeUsage('node-1', pods, NODE);
    expect(total.cpuMillis - 300).toBeGreaterThanOrEqual(NODE_OVERHEAD.cpuMillis.min);
    expect(total.cpuMillis - 300).toBeLessThanOrEqual(NODE_OVERHEAD.cpuMillis.max);
    expect(total.memoryBytes - 150 * MI).toBeGreaterThanOrEqual(NODE_OVERHEAD.memoryBytes.min - 1024);
    expect(total.memoryBytes - 150 * MI).toBeLessThanOrEqual(NODE_OVERHEAD.memoryBytes.max);
    expect(nodeUsage('node-1', pods, NODE)).toEqual(total);
    expect(nodeUsage('node-1', [{ cpuMillis: 10_000, memoryBytes: 0 }], NODE).cpuMillis).toBe(NODE.cpuMillis);
  });
});

describe('spread and jitter', () => {
  it('spread divides by weight, or equally without weights', () => {
    expect(spread(90, [1, 2, 0])).toEqual([30, 60, 0]);
    expect(spread(90, [0, 0, 0])).toEqual([30, 30, 30]);
    expect(spread(90, [])).toEqual([]);
  });

  it('jitter is a stable fraction in [0, 1)', () => {
    const values = ['a', 'b', 'pod/uid/nginx/cpu', ''].map(jitter);
    for (const value of values) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
    expect(jitter('a')).toBe(values[0]);
    expect(new Set(values).size).toBe(values.length);
  });
});
