import { describe, expect, it } from 'vitest';
import { createRandom } from '../apiserver/api/machinery/random.js';
import { tieBreakSeed } from './main.js';

describe('tieBreakSeed', () => {
  it('is 0 without a seed (as before) and drawn from a seeded Random otherwise', () => {
    expect(tieBreakSeed(createRandom())).toBe(0);
    const seeded = tieBreakSeed(createRandom(1));
    expect(Number.isInteger(seeded) && seeded >= 0 && seeded < 2 ** 32).toBe(true);
    expect(tieBreakSeed(createRandom(1))).toBe(seeded);
    expect(tieBreakSeed(createRandom(2))).not.toBe(seeded);
  });
});
