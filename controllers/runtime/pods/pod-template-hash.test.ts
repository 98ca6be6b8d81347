import { describe, expect, it } from 'vitest';
import type { PodTemplateSpec } from '../../../apiserver/api/core/pod-spec.js';
import { canonicalJson, computeHash, fnv1a32, safeEncodeString } from './pod-template-hash.js';

const template: PodTemplateSpec = {
  metadata: { labels: { app: 'web', tier: 'front' } },
  spec: { containers: [{ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80, protocol: 'TCP' }] }] },
};

describe('fnv1a32', () => {
  it.each([
    ['', 0x811c9dc5],
    ['a', 0xe40c292c],
    ['foobar', 0xbf9cf968],
  ])('matches the published FNV-1a 32 vector for %j', (text, want) => {
    expect(fnv1a32(new TextEncoder().encode(text))).toBe(want);
  });
});

describe('safeEncodeString', () => {
  it('maps digits onto the vowel-free alphabet as rand.SafeEncodeString does', () => {
    // '0'..'9' are char codes 48..57, i.e. alphabet positions 21..26 and 0..3.
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
  });
});

describe('computeHash', () => {
  it('is stable: the same template always hashes to the same value (golden)', () => {
    const hash = computeHash(template);
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    // Pinned so a change to the rendering (which would rename every ReplicaSet after an
    // upgrade and trigger needless rollouts) fails loudly.
    expect(hash).toBe(computeHash(structuredClone(template)));
    expect(hash).toMatchInlineSnapshot(`"6457b5b8bf"`);
  });

  it('does not depend on key order or undefined members', () => {
    const reordered: PodTemplateSpec = {
      spec: { containers: [{ ports: [{ protocol: 'TCP', containerPort: 80 }], image: 'nginx:1.25', name: 'nginx' }] },
      metadata: { annotations: undefined, labels: { tier: 'front', app: 'web' } },
    };
    expect(computeHash(reordered)).toBe(computeHash(template));
  });

  it('changes with the template', () => {
    const changed = structuredClone(template);
    changed.spec.containers[0]!.image = 'nginx:1.26';
    expect(computeHash(changed)).not.toBe(computeHash(template));
  });

  it('mixes in the collision count, and a count of 0 differs from none', () => {
    const hashes = new Set([computeHash(template), computeHash(template, 0), computeHash(template, 1), computeHash(template, 2)]);
    expect(hashes.size).toBe(4);
  });

  it('does not mutate the template', () => {
    const frozen = Object.freeze(structuredClone(template));
    expect(() => computeHash(frozen)).not.toThrow();
  });
});

describe('canonicalJson', () => {
  it('sorts keys and keeps array order', () => {
    expect(canonicalJson({ b: [2, 1], a: { d: 1, c: null } })).toBe('{"a":{"c":null,"d":1},"b":[2,1]}');
  });
});
