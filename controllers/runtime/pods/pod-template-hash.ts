/**
 * The pod-template-hash: the short, stable name suffix that tells a Deployment's ReplicaSets
 * apart (Kubernetes' controller.ComputeHash).
 *
 * Kubernetes hashes the Go value of the PodTemplateSpec as spew prints it (DeepHashObject)
 * with FNV-1a 32, mixes in status.collisionCount, and "safe-encodes" the decimal digits of
 * the sum. We keep the algorithm and the alphabet but hash a canonical JSON rendering of the
 * template instead of spew's Go rendering, so our hashes are NOT byte-for-byte equal to a
 * real cluster's. Nothing depends on equality with Go: the controller finds a Deployment's
 * current ReplicaSet by comparing templates (equalIgnoreHash), never by hash. What matters is
 * that the hash is deterministic and stable across restarts, which canonical JSON (sorted
 * keys, undefined dropped) guarantees for a given template.
 */
import type { PodTemplateSpec } from '../../../apiserver/api/core/pod-spec.js';
import type { DeepReadonly } from '../types.js';

/** POD_TEMPLATE_HASH_LABEL is apps/v1 DefaultDeploymentUniqueLabelKey: the label (and
 * selector term) that makes each ReplicaSet of a Deployment select only its own pods. */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

/** SAFE_ALPHABET is k8s.io/apimachinery rand's alphanums: no vowels (no accidental words)
 * and no look-alike characters (0/o, 1/l, 3/e). */
const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

const FNV32_OFFSET_BASIS = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;

/** fnv1a32 folds `bytes` into the running FNV-1a 32-bit hash `hash` (start from the offset
 * basis). Pure. */
export function fnv1a32(bytes: Uint8Array, hash = FNV32_OFFSET_BASIS): number {
  let h = hash;
  for (const byte of bytes) {
    h ^= byte;
    h = Math.imul(h, FNV32_PRIME) >>> 0;
  }
  return h >>> 0;
}

/** safeEncodeString maps every character of `text` onto the safe alphabet by its code modulo
 * the alphabet's length (rand.SafeEncodeString). Pure. */
export function safeEncodeString(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += SAFE_ALPHABET[text.charCodeAt(i) % SAFE_ALPHABET.length];
  return out;
}

/** canonicalJson renders a JSON value with object keys sorted and undefined members dropped,
 * so equal templates always render to the same text. Pure. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * computeHash returns the pod-template-hash of `template` for a Deployment whose
 * status.collisionCount is `collisionCount` (controller.ComputeHash): FNV-1a 32 over the
 * canonical JSON of the template, then, when a collision count is set, over its value as 4
 * little-endian bytes padded to 8 (as Go writes it), and the decimal sum safe-encoded.
 * Deterministic; never mutates `template`.
 */
export function computeHash(template: DeepReadonly<PodTemplateSpec>, collisionCount?: number): string {
  let hash = fnv1a32(new TextEncoder().encode(canonicalJson(template)));
  if (collisionCount !== undefined) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    hash = fnv1a32(bytes, hash);
  }
  return safeEncodeString(String(hash));
}
