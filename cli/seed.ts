/** `--seed N`, the deterministic-mode flag of `kubesim up` and of every component process it
 * starts: each process seeds its randomness (apiserver/api/machinery/random.ts) with N and forks
 * a stream named after itself, so processes never share draws and the same seed (with the
 * same inputs) replays the same uids, names, IPs and jitter. Without it: the platform's. */
import { createRandom, type Random } from '../apiserver/api/machinery/random.js';
import { type FlagSpec, type Flags, UsageError } from './args.js';

export const seedFlags: Record<'seed', FlagSpec> = {
  seed: { type: 'number', description: 'seed every random choice (uids, generated names, IPs, jitter): same seed, same cluster' },
};

/** seedOf returns the --seed value, or undefined when the flag is absent. Throws UsageError
 * unless it is an integer that fits 32 bits unsigned (what the generator keeps). */
export function seedOf(flags: Flags): number | undefined {
  const value = flags['seed'];
  if (value === undefined) return undefined;
  const seed = Number(value);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffff_ffff) throw new UsageError(`--seed must be an integer from 0 to 4294967295, got ${String(value)}`);
  return seed;
}

/** randomFromFlags is `component`'s Random: a fork named after it of the --seed stream, or
 * the platform's randomness when no seed was given. */
export function randomFromFlags(flags: Flags, component: string): Random {
  const seed = seedOf(flags);
  return seed === undefined ? createRandom() : createRandom(seed).fork(component);
}

/** seedArgs passes --seed on to a child process (nothing when there is no seed). */
export function seedArgs(flags: Flags): string[] {
  const seed = seedOf(flags);
  return seed === undefined ? [] : ['--seed', String(seed)];
}
