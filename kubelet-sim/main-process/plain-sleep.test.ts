import { describe, expect, it } from 'vitest';
import type { Container } from '../../apiserver/api/core/container.js';
import { plainSleepMs } from './plain-sleep.js';

const sleepOf = (container: Partial<Container>) => plainSleepMs({ name: 'c', image: 'busybox', ...container });

describe('plainSleepMs', () => {
  it('reads a whole command that is sleep N, in any of its spellings', () => {
    expect(sleepOf({ command: ['sleep', '30'] })).toBe(30_000);
    expect(sleepOf({ command: ['sleep'], args: ['2m'] })).toBe(120_000);
    expect(sleepOf({ args: ['/bin/sleep', '1h'] })).toBe(3_600_000);
    expect(sleepOf({ command: ['sleep', 'infinity'] })).toBe(Number.POSITIVE_INFINITY);
  });

  it('leaves everything else to the userland', () => {
    expect(sleepOf({ command: ['sleep', '1.5'] })).toBeUndefined();
    expect(sleepOf({ command: ['sleep', '$(DELAY)'] })).toBeUndefined();
    expect(sleepOf({ command: ['sleep', '1', '2'] })).toBeUndefined();
    expect(sleepOf({ command: ['sh', '-c', 'sleep 30'] })).toBeUndefined();
    expect(sleepOf({})).toBeUndefined();
  });
});
