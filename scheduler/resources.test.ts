import { describe, expect, it } from 'vitest';
import { amountOf, podNonZeroRequests, podRequests } from './resources.js';
import { makePod } from './testing/fixtures.js';

const container = (name: string, requests: Record<string, string>, restartPolicy?: string) => ({ name, image: 'i', resources: { requests }, restartPolicy });

describe('podRequests', () => {
  it('sums app containers, cpu in millicores and memory in bytes', () => {
    const pod = makePod('p', { spec: { containers: [container('a', { cpu: '250m', memory: '64Mi' }), container('b', { cpu: '1', memory: '1Gi' })] } });
    expect(podRequests(pod)).toEqual({ cpu: 1250, memory: 64 * 1024 ** 2 + 1024 ** 3 });
  });

  it('takes the largest init container when it exceeds the app containers, plus overhead', () => {
    const pod = makePod('p', {
      spec: { initContainers: [container('init', { cpu: '2' })], containers: [container('a', { cpu: '500m', memory: '1Gi' })], overhead: { cpu: '100m' } },
    });
    expect(podRequests(pod)).toEqual({ cpu: 2100, memory: 1024 ** 3 });
  });

  it('adds sidecars (restartPolicy Always init containers) to everything after them', () => {
    const pod = makePod('p', {
      spec: {
        initContainers: [container('proxy', { cpu: '100m' }, 'Always'), container('migrate', { cpu: '1' })],
        containers: [container('a', { cpu: '200m' })],
      },
    });
    expect(podRequests(pod)).toEqual({ cpu: 1100 });
  });

  it('lets pod-level requests replace the container sums', () => {
    const pod = makePod('p', { cpu: '1', spec: { resources: { requests: { cpu: '3' } } } });
    expect(podRequests(pod)['cpu']).toBe(3000);
  });

  it('is memoized per pod object', () => {
    const pod = makePod('p', { cpu: '1' });
    expect(podRequests(pod)).toBe(podRequests(pod));
  });
});

describe('podNonZeroRequests and amountOf', () => {
  it('gives each container without a cpu or memory request 100m and 200Mi, for scoring', () => {
    const pod = makePod('p', { spec: { containers: [container('a', {}), container('b', { cpu: '500m' }), container('c', { cpu: '0' })] } });
    expect(podNonZeroRequests(pod)).toEqual({ cpu: 600, memory: 3 * 200 * 1024 ** 2 });
    expect(podRequests(pod)).toEqual({ cpu: 500 });
  });

  it('rounds up like Kubernetes and treats garbage as 0', () => {
    expect(amountOf('cpu', '0.5')).toBe(500);
    expect(amountOf('memory', '1.5')).toBe(2);
    expect(amountOf('cpu', 'lots')).toBe(0);
  });
});
