import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { PROGRAMS } from '../userland/commands/index.js';
import { runsInUserland, USERLAND_PROGRAMS } from './runs-in-userland.js';

const pod = (container: Record<string, unknown>, annotations: Record<string, string> = {}) =>
  ({ metadata: { name: 'p', annotations }, spec: { containers: [{ name: 'c', ...container }] } }) as unknown as Pod;
const runs = (container: Record<string, unknown>, annotations?: Record<string, string>) => {
  const p = pod(container, annotations);
  return runsInUserland(p, p.spec.containers[0]!);
};

describe('runsInUserland', () => {
  it('runs commands of OS images, including typos (they fail to start there)', () => {
    expect(runs({ image: 'busybox', command: ['echo', 'hi'] })).toBe(true);
    expect(runs({ image: 'alpine:3.21', command: ['/app/missing'] })).toBe(true);
    // kubectl run x --image=busybox -- sleep 30 sets args: they replace the image's CMD.
    expect(runs({ image: 'busybox', args: ['sleep', '30'] })).toBe(true);
  });

  it('runs the userland programs on other images, not their own binaries or options', () => {
    expect(runs({ image: 'nginx', command: ['sh', '-c', 'echo hi'] })).toBe(true);
    expect(runs({ image: 'registry.example.com/shop/app:1', command: ['/bin/sleep', '10'] })).toBe(true);
    expect(runs({ image: 'registry.example.com/shop/app:1', command: ['/app/server'] })).toBe(false);
    expect(runs({ image: 'registry.example.com/shop/app:1', args: ['--listen=:8080'] })).toBe(false);
    expect(runs({ image: 'hashicorp/http-echo', args: ['-text=hi'] })).toBe(false);
  });

  it('keeps the cheap path for image defaults, unless a shell is attached to (stdin)', () => {
    expect(runs({ image: 'nginx' })).toBe(false);
    expect(runs({ image: 'busybox' })).toBe(false);
    expect(runs({ image: 'busybox', stdin: true, tty: true })).toBe(true);
    expect(runs({ image: 'nginx', stdin: true })).toBe(false);
  });

  it('lets the behaviour annotations that script a run take precedence', () => {
    expect(runs({ image: 'busybox', command: ['sleep', '3600'] }, { 'kubesim.io/crash-after-seconds': '5' })).toBe(false);
    expect(runs({ image: 'busybox', command: ['sleep', '3600'] }, { 'kubesim.io/run-seconds': '5' })).toBe(false);
    expect(runs({ image: 'busybox', command: ['sleep', '3600'] }, { 'kubesim.io/readiness': 'fail' })).toBe(true);
  });

  it('knows exactly the programs the userland implements', () => {
    const implemented = new Set([...PROGRAMS.keys(), 'sh']);
    expect([...USERLAND_PROGRAMS].sort()).toEqual([...implemented].sort());
  });
});
