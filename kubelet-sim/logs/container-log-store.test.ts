import { describe, expect, it } from 'vitest';
import { ContainerLogStore, type LogLine } from './container-log-store.js';

const KEY = { podUid: 'uid-1', container: 'web' };
const T0 = Date.parse('2024-05-01T12:00:00Z');

describe('ContainerLogStore', () => {
  it('writes start-up lines, then access lines lazily at the interval', () => {
    const logs = new ContainerLogStore();
    logs.started(KEY, { image: 'nginx:1.27', atMs: T0, intervalMs: 1000, restartCount: 0 });
    const startup = logs.read(KEY, { previous: false, nowMs: T0 })!.lines;
    expect(startup.map((l) => l.text).join('\n')).toContain('[notice] 1#1: start worker processes');
    const later = logs.read(KEY, { previous: false, nowMs: T0 + 3500 })!;
    expect(later.running).toBe(true);
    expect(later.lines.slice(startup.length).map((l) => l.timeMs - T0)).toEqual([1000, 2000, 3000]);
    expect(later.lines.at(-1)?.text).toMatch(/^10\.244\.\d+\.\d+ - - \[01\/May\/2024:12:00:03 \+0000\] "GET /);
  });

  it('ends a run with its exit reason and keeps it as the previous run after a restart', () => {
    const logs = new ContainerLogStore();
    logs.started(KEY, { image: 'busybox', atMs: T0, intervalMs: 1000, restartCount: 0 });
    logs.exited(KEY, { atMs: T0 + 2000, exitCode: 3, reason: 'simulated crash after 2s' });
    logs.started(KEY, { image: 'busybox', atMs: T0 + 2500, intervalMs: 1000, restartCount: 1 });
    const previous = logs.read(KEY, { previous: true, nowMs: T0 + 10_000 })!;
    expect(previous.running).toBe(false);
    expect(previous.lines.slice(-2).map((l) => l.text)).toEqual(['fatal: simulated crash after 2s', 'kubesim: container exiting with code 3']);
    expect(logs.read(KEY, { previous: false, nowMs: T0 + 2500 })!.lines[0]?.text).toContain('starting');
  });

  it('streams new lines to followers and tells them when the run ends', () => {
    const logs = new ContainerLogStore();
    logs.started(KEY, { image: 'nginx', atMs: T0, intervalMs: 1000, restartCount: 0 });
    const seen: LogLine[] = [];
    let ended = 0;
    logs.follow(KEY, { line: (line) => seen.push(line), ended: () => ended++ });
    logs.catchUp(KEY, T0 + 2000);
    expect(seen).toHaveLength(2);
    logs.exited(KEY, { atMs: T0 + 2500, exitCode: 0, reason: 'stopped' });
    expect(seen.at(-1)?.text).toContain('exit');
    expect(ended).toBe(1);
  });

  it('keeps at most `capacity` lines, even after a long unread run', () => {
    const logs = new ContainerLogStore(50);
    logs.started(KEY, { image: 'nginx', atMs: T0, intervalMs: 1000, restartCount: 0 });
    const read = logs.read(KEY, { previous: false, nowMs: T0 + 24 * 3600_000 })!;
    expect(read.lines).toHaveLength(50);
    expect(read.lines.at(-1)?.timeMs).toBe(T0 + 24 * 3600_000);
  });

  it('forgets a pod and ends its followers', () => {
    const logs = new ContainerLogStore();
    logs.started(KEY, { image: 'nginx', atMs: T0, intervalMs: 1000, restartCount: 0 });
    let ended = false;
    logs.follow(KEY, { line: () => undefined, ended: () => (ended = true) });
    logs.forgetPod('uid-1', T0 + 1);
    expect(ended).toBe(true);
    expect(logs.read(KEY, { previous: false, nowMs: T0 + 2 })).toBeUndefined();
  });

  it('logs only what the main process writes in a process run, and nothing after it ended', () => {
    const logs = new ContainerLogStore();
    logs.started(KEY, { image: 'busybox', atMs: T0, intervalMs: 1000, restartCount: 0, process: true });
    const write = logs.output(KEY)!;
    write({ timeMs: T0 + 10, text: 'hi' });
    logs.exited(KEY, { atMs: T0 + 20, exitCode: 0, reason: 'the main process exited' });
    write({ timeMs: T0 + 30, text: 'too late' });
    expect(logs.read(KEY, { previous: false, nowMs: T0 + 60_000 })!.lines).toEqual([{ timeMs: T0 + 10, text: 'hi' }]);
  });
});
