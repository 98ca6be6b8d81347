import { describe, expect, it } from 'vitest';
import { isPatchError, type PatchError } from './errors.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';
import { deploymentRoot } from './testing/deployment-schema.js';

type Spec = Record<string, unknown>;
const withPodSpec = (spec: Spec) => ({ spec: { template: { spec } } });
const patchPodSpec = (live: Spec, patch: Spec) => {
  const result = applyStrategicMergePatch(withPodSpec(live), withPodSpec(patch), deploymentRoot) as ReturnType<typeof withPodSpec>;
  return result.spec.template.spec;
};
const names = (spec: Spec) => (spec.containers as { name: string }[]).map((container) => container.name);
const order = (...keys: string[]) => keys.map((name) => ({ name }));
const containers = (...keys: string[]) => ({ containers: keys.map((name) => ({ name })) });

function expectPatchError(fn: () => unknown): PatchError {
  try {
    fn();
  } catch (err) {
    if (isPatchError(err)) return err;
    throw err;
  }
  throw new Error('expected a PatchError');
}

describe('$setElementOrder on keyed lists', () => {
  it('puts a new element where the order says (kubectl apply adding a container)', () => {
    const patch = { '$setElementOrder/containers': order('a', 'new', 'b'), containers: [{ name: 'new', image: 'x' }] };
    const result = patchPodSpec(containers('a', 'b'), patch);
    expect(names(result)).toEqual(['a', 'new', 'b']);
    expect(result).not.toHaveProperty('$setElementOrder/containers');
  });

  it('reorders the live list even when the patch carries no list', () => {
    const patch = { '$setElementOrder/containers': order('c', 'b', 'a') };
    expect(names(patchPodSpec(containers('a', 'b', 'c'), patch))).toEqual(['c', 'b', 'a']);
  });

  it('keeps server-only elements next to the live elements they preceded', () => {
    const patch = { '$setElementOrder/containers': order('d', 'b', 'c', 'a') };
    expect(names(patchPodSpec(containers('a', 'c', 'd', 'b', 'server'), patch))).toEqual(['d', 'b', 'c', 'a', 'server']);
    expect(names(patchPodSpec(containers('a', 'c', 'server', 'd', 'b'), patch))).toEqual(['server', 'd', 'b', 'c', 'a']);
    const swapPairs = { '$setElementOrder/containers': order('b', 'a', 'd', 'c') };
    expect(names(patchPodSpec(containers('a', 'b', 'server', 'c', 'd'), swapPairs))).toEqual(['b', 'a', 'server', 'd', 'c']);
  });

  it('orders deletions and additions as kube-apiserver does', () => {
    const patch = { '$setElementOrder/containers': order('b', 'c'), containers: [{ name: 'c' }, { name: 'a', $patch: 'delete' }] };
    expect(names(patchPodSpec(containers('a', 'b', 'server'), patch))).toEqual(['b', 'server', 'c']);
  });

  it('creates the list from the patch when the live object has none', () => {
    const patch = { '$setElementOrder/containers': order('b', 'a'), containers: [{ name: 'b' }, { name: 'a' }] };
    expect(names(patchPodSpec({}, patch))).toEqual(['b', 'a']);
    expect(patchPodSpec({}, { '$setElementOrder/containers': order('a') })).toEqual({});
  });

  it('rejects a patch list whose order contradicts the directive', () => {
    const patch = { '$setElementOrder/containers': order('a', 'b'), containers: [{ name: 'b' }, { name: 'a' }] };
    const err = expectPatchError(() => patchPodSpec(containers('a', 'b'), patch));
    expect(err.message).toBe("The order in patch list:\n[map[name:b] map[name:a]]\n doesn't match $setElementOrder list:\n[map[name:a] map[name:b]]\n");
    expect(err.reason).toBe('BadRequest');
  });

  it('rejects a patch element the directive does not list', () => {
    const patch = { '$setElementOrder/containers': order('a'), containers: [{ name: 'b' }] };
    expect(expectPatchError(() => patchPodSpec(containers('a'), patch)).message).toContain("doesn't match $setElementOrder list");
  });

  it('rejects malformed directives', () => {
    expect(expectPatchError(() => patchPodSpec({}, { '$setElementOrder/containers': 'a' })).message).toBe('invalid patch format of setElementOrder list');
    expect(expectPatchError(() => patchPodSpec({}, { $setElementOrder: [] })).message).toBe('invalid patch format of setElementOrder list');
    expect(expectPatchError(() => patchPodSpec({}, { '$setElementOrder/containers': [{ image: 'x' }] })).message).toBe(
      'map: map[image:x] does not contain declared merge key: name',
    );
    expect(expectPatchError(() => patchPodSpec({}, { '$setElementOrder/bogus': [] })).message).toBe(
      'unable to find api field in struct PodSpec for the json field "bogus"',
    );
  });
});

describe('$setElementOrder on other lists', () => {
  it('orders a set of scalars, keeping server-only values in place', () => {
    const result = applyStrategicMergePatch(
      { metadata: { finalizers: ['a', 'server', 'b'] } },
      { metadata: { '$setElementOrder/finalizers': ['c', 'b', 'a'], finalizers: ['c'] } },
      deploymentRoot,
    );
    expect(result).toEqual({ metadata: { finalizers: ['c', 'server', 'b', 'a'] } });
  });

  it('is dropped for lists that are replaced anyway', () => {
    const patch = { '$setElementOrder/tolerations': [{ key: 'b' }], tolerations: [{ key: 'b' }] };
    expect(patchPodSpec({ tolerations: [{ key: 'a' }] }, patch)).toEqual({ tolerations: [{ key: 'b' }] });
  });
});
