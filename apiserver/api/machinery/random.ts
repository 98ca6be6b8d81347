/**
 * Random is the one source of randomness every component draws from: uids, generateName
 * suffixes, IPs, ports, jitter, reconcile ids. Unseeded it is `Math.random`/crypto; seeded it is a
 * small deterministic generator, so a cluster started with the same seed makes the same
 * choices in the same order (deterministic mode, issue 8).
 *
 * Components that run concurrently each get their own stream (`fork(name)`), so the order in
 * which *different* components draw cannot change what any one of them gets.
 */
import { randomBytes, randomUUID } from 'node:crypto';

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** `bytes` random bytes as lowercase hex. */
  hex(bytes: number): string;
  /** An RFC 4122 version-4 UUID. */
  uuid(): string;
  /** An independent stream for `name`, derived from this one's seed (unseeded: another unseeded source). */
  fork(name: string): Random;
  /** The seed, or undefined when this source is not deterministic. */
  readonly seed: number | undefined;
}

/** createRandom returns a seeded Random when `seed` is given, else one backed by the platform. */
export function createRandom(seed?: number): Random {
  return seed === undefined ? platformRandom : seededRandom(seed >>> 0);
}

const platformRandom: Random = {
  seed: undefined,
  next: () => Math.random(),
  int: (n) => Math.floor(Math.random() * n),
  hex: (bytes) => pooledHex(bytes),
  uuid: () => randomUUID(),
  fork: () => platformRandom,
};

/** HEX_POOL_BYTES of crypto randomness are drawn at once: a reconcile id per reconcile (every
 * loop, every pod event) made randomBytes' per-call cost show in CPU profiles. */
const HEX_POOL_BYTES = 4096;
let hexPool = Buffer.alloc(0);
let hexPoolOffset = 0;

function pooledHex(bytes: number): string {
  if (bytes > HEX_POOL_BYTES) return randomBytes(bytes).toString('hex');
  if (hexPoolOffset + bytes > hexPool.length) {
    hexPool = randomBytes(HEX_POOL_BYTES);
    hexPoolOffset = 0;
  }
  const hex = hexPool.toString('hex', hexPoolOffset, hexPoolOffset + bytes);
  hexPoolOffset += bytes;
  return hex;
}

/** seededRandom is mulberry32: tiny, fast, and good enough for simulation choices (not crypto). */
function seededRandom(seed: number): Random {
  let state = seed;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  const hex = (bytes: number): string => {
    let out = '';
    for (let i = 0; i < bytes; i++) out += int(256).toString(16).padStart(2, '0');
    return out;
  };
  return {
    seed,
    next,
    int,
    hex,
    uuid: () => {
      const h = hex(16);
      // Version 4 and the RFC 4122 variant bits, as randomUUID sets them.
      const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
    },
    // Seed and name hashed together: forks of forks never collide with their parents or siblings.
    fork: (name) => seededRandom(hashName(`${seed}:${name}`)),
  };
}

/** hashName is FNV-1a over the name's UTF-16 units: a stable 32-bit number per stream name. */
function hashName(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}
