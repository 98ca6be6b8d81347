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
const patchMetadata = (live: Spec, patch: Spec) =>
  (applyStrategicMergePatch({ metadata: live }, { metadata: patch }, deploymentRoot) as { metadata: Spec }).metadata;

function expectPatchError(fn: () => unknown): PatchError {
  try {
    fn();
  } catch (err) {
    if (isPatchError(err)) return err;
    throw err;
  }
  throw new Error('expected a PatchError');
}

describe('lists merged by key', () => {
  const live = {
    containers: [
      { name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }] },
      { name: 'log', image: 'busybox' },
    ],
  };

  it('merges a patch element into the live element with the same key', () => {
    expect(patchPodSpec(live, { containers: [{ name: 'web', image: 'nginx:1.26' }] })).toEqual({
      containers: [
        { name: 'web', image: 'nginx:1.26', ports: [{ containerPort: 80 }] },
        { name: 'log', image: 'busybox' },
      ],
    });
  });

  it('places new elements before the live ones, as Kubernetes does without $setElementOrder', () => {
    expect(patchPodSpec(live, { containers: [{ name: 'sidecar', image: 'envoy' }] }).containers).toEqual([
      { name: 'sidecar', image: 'envoy' },
      ...live.containers,
    ]);
  });

  it('follows the patch order for the elements it names, keeping the others in place', () => {
    const three = { containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] };
    expect(
      patchPodSpec(three, {
        containers: [
          { name: 'c', image: 'x' },
          { name: 'a', image: 'y' },
        ],
      }).containers,
    ).toEqual([{ name: 'b' }, { name: 'c', image: 'x' }, { name: 'a', image: 'y' }]);
  });

  it('merges nested keyed lists: ports by containerPort, env by name', () => {
    const withEnv = { containers: [{ name: 'web', env: [{ name: 'A', value: '1' }], ports: [{ containerPort: 80, protocol: 'TCP' }] }] };
    const patch = {
      containers: [{ name: 'web', env: [{ name: 'A', value: '2' }], ports: [{ containerPort: 80, protocol: 'UDP' }, { containerPort: 443 }] }],
    };
    expect(patchPodSpec(withEnv, patch).containers).toEqual([
      { name: 'web', env: [{ name: 'A', value: '2' }], ports: [{ containerPort: 80, protocol: 'UDP' }, { containerPort: 443 }] },
    ]);
  });

  it('deletes every element matching a $patch: delete element', () => {
    const duplicated = { containers: [{ name: 'a' }, { name: 'b' }, { name: 'a', image: 'dup' }] };
    expect(patchPodSpec(duplicated, { containers: [{ name: 'a', $patch: 'delete' }] })).toEqual({ containers: [{ name: 'b' }] });
    expect(patchPodSpec(live, { containers: [{ name: 'zzz', $patch: 'delete' }] })).toEqual(live);
  });

  it('replaces the whole list when an element says $patch: replace', () => {
    expect(patchPodSpec(live, { containers: [{ $patch: 'replace' }, { name: 'only', env: [{ name: 'X', $patch: 'delete' }] }] })).toEqual({
      containers: [{ name: 'only', env: [] }],
    });
    expect(patchPodSpec(live, { containers: [{ $patch: 'replace' }] })).toEqual({ containers: [] });
  });

  it('rejects a patch element without its merge key, with the Kubernetes message', () => {
    const err = expectPatchError(() => patchPodSpec(live, { containers: [{ image: 'nginx' }] }));
    expect(err.message).toBe('map: map[image:nginx] does not contain declared merge key: name');
    expect(err.reason).toBe('BadRequest');
    expect(expectPatchError(() => patchPodSpec(live, { containers: [{ $patch: 'delete' }] })).message).toBe(
      'map: map[$patch:delete] does not contain declared merge key: name',
    );
  });

  it('rejects a live element without its merge key once merged', () => {
    const err = expectPatchError(() => patchPodSpec({ containers: [{ image: 'x' }] }, { containers: [{ name: 'a' }] }));
    expect(err.reason).toBe('Invalid');
    expect(err.message).toBe('map: map[image:x] does not contain declared merge key: name');
  });

  it('rejects an unknown $patch element, lists of lists and mixed element types', () => {
    expect(expectPatchError(() => patchPodSpec(live, { containers: [{ name: 'web', $patch: 'nope' }] })).message).toBe(
      'unknown patch type: nope in map: map[$patch:nope name:web]',
    );
    expect(expectPatchError(() => patchPodSpec(live, { containers: [['web']] })).message).toBe('lists of lists are not supported');
    expect(expectPatchError(() => patchPodSpec(live, { containers: ['web'] })).message).toBe(
      'list element types are not identical: [[map[image:nginx:1.25 name:web ports:[map[containerPort:80]]] map[image:busybox name:log]] [web]]',
    );
  });
});

describe('keyed lists with no live counterpart', () => {
  it('are taken as sent, like Kubernetes: no merge-key check, $patch elements dropped', () => {
    const patch = { containers: [{ name: 'web', ports: [{ protocol: 'TCP' }, { containerPort: 1, $patch: 'delete' }, { $patch: 'replace' }] }] };
    expect(patchPodSpec({ containers: [{ name: 'web' }] }, patch)).toEqual({ containers: [{ name: 'web', ports: [{ protocol: 'TCP' }] }] });
  });

  it('accept $patch: merge elements as ordinary ones (Kubernetes rejects them)', () => {
    const live = { containers: [{ name: 'web', image: 'a' }] };
    expect(patchPodSpec(live, { containers: [{ name: 'web', image: 'b', $patch: 'merge' }, { $patch: 'merge' }] })).toEqual({
      containers: [{ name: 'web', image: 'b' }],
    });
  });
});

describe('lists of scalars merged as sets', () => {
  it('unions without duplicates; values new to the list come first, as in Kubernetes', () => {
    expect(patchMetadata({ finalizers: ['a', 'b'] }, { finalizers: ['b', 'c', 'c'] })).toEqual({ finalizers: ['a', 'b', 'c'] });
    expect(patchMetadata({ finalizers: ['a', 'b'] }, { finalizers: ['z'] })).toEqual({ finalizers: ['z', 'a', 'b'] });
  });

  it('removes values with $deleteFromPrimitiveList, after merging', () => {
    expect(patchMetadata({ finalizers: ['a', 'b', 'a'] }, { '$deleteFromPrimitiveList/finalizers': ['a'], finalizers: ['c'] })).toEqual({
      finalizers: ['c', 'b'],
    });
    expect(patchMetadata({ name: 'x' }, { '$deleteFromPrimitiveList/finalizers': ['a'] })).toEqual({ name: 'x' });
  });

  it('applies $deleteFromPrimitiveList to any list, whatever its strategy', () => {
    const live = { containers: [{ name: 'web', args: ['a', 'b'] }] };
    const patch = { containers: [{ name: 'web', '$deleteFromPrimitiveList/args': ['a'] }] };
    expect(patchPodSpec(live, patch)).toEqual({ containers: [{ name: 'web', args: ['b'] }] });
  });

  it('rejects malformed $deleteFromPrimitiveList directives', () => {
    expect(expectPatchError(() => patchMetadata({}, { '$deleteFromPrimitiveList/finalizers': 'a' })).message).toBe('invalid patch format of primitive list');
    expect(expectPatchError(() => patchMetadata({}, { $deleteFromPrimitiveList: ['a'] })).message).toBe('invalid patch format of primitive list');
  });
});

describe('lists replaced wholesale', () => {
  it('replaces lists without a merge strategy (tolerations, args)', () => {
    const live = { tolerations: [{ key: 'a', operator: 'Exists' }], containers: [{ name: 'web', args: ['-v'] }] };
    const patch = { tolerations: [{ key: 'b', operator: 'Equal', value: 'x' }], containers: [{ name: 'web', args: ['-q'] }] };
    expect(patchPodSpec(live, patch)).toEqual({
      tolerations: [{ key: 'b', operator: 'Equal', value: 'x' }],
      containers: [{ name: 'web', args: ['-q'] }],
    });
  });

  it('cleans directives and nulls out of the replacing elements', () => {
    const patch = {
      tolerations: [
        { key: 'b', value: null },
        { key: 'c', $patch: 'delete' },
      ],
    };
    expect(patchPodSpec({ tolerations: [] }, patch)).toEqual({ tolerations: [{ key: 'b' }] });
  });
});
