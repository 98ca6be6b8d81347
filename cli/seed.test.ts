import { describe, expect, it } from 'vitest';
import { UsageError } from './args.js';
import { randomFromFlags, seedArgs, seedOf } from './seed.js';

describe('--seed', () => {
  it('accepts 32-bit unsigned integers and refuses anything else', () => {
    expect(seedOf({})).toBeUndefined();
    expect(seedOf({ seed: 0 })).toBe(0);
    expect(seedOf({ seed: 4294967295 })).toBe(4294967295);
    for (const seed of [-1, 1.5, 4294967296, Number.NaN]) expect(() => seedOf({ seed })).toThrow(UsageError);
  });

  it('gives each component its own stream of the seed, the same on every run', () => {
    const uuids = (seed: number, component: string) => {
      const random = randomFromFlags({ seed }, component);
      return [random.uuid(), random.uuid()];
    };
    expect(uuids(7, 'apiserver')).toEqual(uuids(7, 'apiserver'));
    expect(uuids(7, 'apiserver')).not.toEqual(uuids(8, 'apiserver'));
    expect(uuids(7, 'apiserver')).not.toEqual(uuids(7, 'default-scheduler'));
    expect(randomFromFlags({ seed: 7 }, 'x').seed).toBeDefined();
    expect(randomFromFlags({}, 'x').seed).toBeUndefined();
  });

  it('is passed on to child processes only when given', () => {
    expect(seedArgs({ seed: 42 })).toEqual(['--seed', '42']);
    expect(seedArgs({})).toEqual([]);
  });
});
