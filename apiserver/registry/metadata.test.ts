import { describe, expect, it } from 'vitest';
import { configMapDefinition } from '../api/core/config-map.js';
import { createRandom, type Random } from '../api/machinery/random.js';
import type { KubeObject, ResourceDefinition } from '../api/resource-definition.js';
import { generateNameSuffix, prepareForCreate } from './metadata.js';

describe('server-chosen metadata', () => {
  const suffixes = (random: Random) => Array.from({ length: 4 }, () => generateNameSuffix(random));
  const uids = (random: Random) =>
    Array.from({ length: 3 }, () => {
      const object: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } };
      prepareForCreate(configMapDefinition as unknown as ResourceDefinition, object, 0, random);
      return object.metadata.uid;
    });

  it('generateName suffixes: 5 characters of the Kubernetes alphabet, repeated for a seed', () => {
    const first = suffixes(createRandom(1));
    expect(first.every((s) => /^[bcdfghjklmnpqrstvwxz2456789]{5}$/.test(s))).toBe(true);
    expect(suffixes(createRandom(1))).toEqual(first);
    expect(suffixes(createRandom(2))).not.toEqual(first);
  });

  it('uids: RFC 4122 version 4, repeated for a seed, random without one', () => {
    const first = uids(createRandom(1));
    expect(first.every((u) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u ?? ''))).toBe(true);
    expect(uids(createRandom(1))).toEqual(first);
    expect(uids(createRandom(2))).not.toEqual(first);
    expect(uids(createRandom())).not.toEqual(uids(createRandom()));
  });
});
