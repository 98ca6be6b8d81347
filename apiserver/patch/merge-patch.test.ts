import { describe, expect, it } from 'vitest';
import { applyMergePatch } from './merge-patch.js';
import { deepFreeze } from './testing/deep-freeze.js';

describe('applyMergePatch', () => {
  // RFC 7386 Appendix A: original, patch, result.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('merges %j with %j into %j', (original, patch, expected) => {
    expect(applyMergePatch(original, patch)).toEqual(expected);
  });

  it('keeps nulls inside a replacing array', () => {
    expect(applyMergePatch({ a: [1] }, { a: [null, { b: null }] })).toEqual({ a: [null, { b: null }] });
  });

  it('applies the kubectl label body and its null removal', () => {
    const deployment = { metadata: { name: 'web', labels: { app: 'web' } }, spec: { replicas: 1 } };
    const labelled = applyMergePatch(deployment, { metadata: { labels: { env: 'prod' } } });
    expect(labelled).toEqual({ metadata: { name: 'web', labels: { app: 'web', env: 'prod' } }, spec: { replicas: 1 } });
    expect(applyMergePatch(labelled, { metadata: { labels: { env: null } } })).toEqual(deployment);
  });

  it('applies the kubectl scale body to a Scale', () => {
    const scale = { kind: 'Scale', spec: { replicas: 2 }, status: { replicas: 2, selector: 'app=web' } };
    expect(applyMergePatch(scale, { spec: { replicas: 3 } })).toEqual({ ...scale, spec: { replicas: 3 } });
  });

  it('never mutates or aliases its inputs', () => {
    const original = deepFreeze({ metadata: { labels: { app: 'web' } }, spec: { list: [1] } });
    const patch = deepFreeze({ metadata: { labels: { env: 'prod' } }, spec: { extra: { deep: [1] } } });
    const result = applyMergePatch(original, patch) as {
      metadata: { labels: Record<string, string> };
      spec: { list: number[]; extra: { deep: number[] } };
    };
    result.metadata.labels.more = 'x';
    result.spec.list.push(2);
    result.spec.extra.deep.push(2);
    expect(original).toEqual({ metadata: { labels: { app: 'web' } }, spec: { list: [1] } });
    expect(patch).toEqual({ metadata: { labels: { env: 'prod' } }, spec: { extra: { deep: [1] } } });
  });

  it('keeps __proto__ an ordinary member', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    const result = applyMergePatch({}, patch) as object;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result)).toEqual(['__proto__']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
