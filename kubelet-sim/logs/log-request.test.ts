import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { ByteBudget, formatLine, logsUnavailableReason, parseLogQuery, rfc3339Nano, selectLines } from './log-request.js';

const T0 = Date.parse('2024-05-01T12:00:00Z');
const lines = [0, 1000, 2000, 3000].map((offset) => ({ timeMs: T0 + offset, text: `line ${offset / 1000}` }));

function pod(state: object, lastState: object = {}): Pod {
  return {
    metadata: { name: 'web' },
    spec: { containers: [{ name: 'nginx' }] },
    status: { containerStatuses: [{ name: 'nginx', ready: false, restartCount: 0, state, lastState }] },
  };
}

describe('containerLogs requests', () => {
  it('parses PodLogOptions leniently and rejects malformed numbers', () => {
    expect(parseLogQuery(new URLSearchParams('follow=true&tailLines=10&timestamps=1&previous=False'))).toEqual({
      follow: true,
      previous: false,
      timestamps: true,
      tailLines: 10,
    });
    expect(parseLogQuery(new URLSearchParams('tailLines=-1'))).toMatch(/invalid tailLines/);
  });

  it('selects by sinceSeconds, then tailLines', () => {
    const query = { follow: false, previous: false, timestamps: false };
    expect(selectLines(lines, { ...query, tailLines: 2 }, T0 + 3000).map((l) => l.text)).toEqual(['line 2', 'line 3']);
    expect(selectLines(lines, { ...query, sinceSeconds: 2 }, T0 + 3000).map((l) => l.text)).toEqual(['line 1', 'line 2', 'line 3']);
    expect(selectLines(lines, { ...query, tailLines: 0 }, T0)).toEqual([]);
  });

  it("timestamps lines as Go's RFC3339Nano and limits bytes", () => {
    expect(rfc3339Nano(T0)).toBe('2024-05-01T12:00:00Z');
    expect(rfc3339Nano(T0 + 120)).toBe('2024-05-01T12:00:00.12Z');
    expect(formatLine({ timeMs: T0 + 5, text: 'hi' }, true)).toBe('2024-05-01T12:00:00.005Z hi\n');
    const budget = new ByteBudget(5);
    expect(budget.take('abc\n')).toBe('abc\n');
    expect(budget.take('defg\n')).toBe('d');
    expect(budget.exhausted).toBe(true);
  });

  it("answers the kubelet's reasons when logs are not available", () => {
    expect(logsUnavailableReason(pod({ waiting: { reason: 'ContainerCreating' } }), 'nginx', false)).toBe(
      'container "nginx" in pod "web" is waiting to start: ContainerCreating',
    );
    expect(logsUnavailableReason(pod({ waiting: { reason: 'ImagePullBackOff' } }), 'nginx', false)).toMatch(/trying and failing to pull image$/);
    expect(logsUnavailableReason(pod({ running: {} }), 'nginx', false)).toBeUndefined();
    expect(logsUnavailableReason(pod({ running: {} }), 'nginx', true)).toBe('previous terminated container "nginx" in pod "web" not found');
    expect(logsUnavailableReason(pod({ waiting: { reason: 'CrashLoopBackOff' } }, { terminated: { exitCode: 1 } }), 'nginx', false)).toBeUndefined();
  });
});
