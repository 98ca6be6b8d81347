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
export function fnv1a32(bytes, hash = FNV32_OFFSET_BASIS) {
    let h = hash;
    for (const byte of bytes) {
        h ^= byte;
        h = Math.imul(h, FNV32_PRIME) >>> 0;
    }
    return h >>> 0;
}
/** safeEncodeString maps every character of `text` onto the safe alphabet by its code modulo
 * the alphabet's length (rand.SafeEncodeString). Pure. */
export function safeEncodeString(text) {
    let out = '';
    for (let i = 0; i < text.length; i++)
        out += SAFE_ALPHABET[text.charCodeAt(i) % SAFE_ALPHABET.length];
    return out;
}
/** canonicalJson renders a JSON value with object keys sorted and undefined members dropped,
 * so equal templates always render to the same text. Pure. */
export function canonicalJson(value) {
    if (Array.isArray(value))
        return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
    if (value !== null && typeof value === 'object') {
        const entries = Object.entries(value)
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
export function computeHash(template, collisionCount) {
    let hash = fnv1a32(new TextEncoder().encode(canonicalJson(template)));
    if (collisionCount !== undefined) {
        const bytes = new Uint8Array(8);
        new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
        hash = fnv1a32(bytes, hash);
    }
    return safeEncodeString(String(hash));
}
//# sourceMappingURL=pod-template-hash.js.map