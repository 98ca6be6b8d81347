import { describe, expect, it } from 'vitest';
import { isPatchError, PatchError } from './errors.js';
import { applyJsonPatch, decodeJsonPatch } from './json-patch.js';
import { deepFreeze } from './testing/deep-freeze.js';

/** expectPatchError runs `fn` and returns the PatchError it must throw. */
function expectPatchError(fn: () => unknown): PatchError {
  try {
    fn();
  } catch (err) {
    if (isPatchError(err)) return err;
    throw err;
  }
  throw new Error('expected a PatchError');
}

describe('applyJsonPatch add', () => {
  it('adds object members at any depth and replaces an existing member', () => {
    const doc = { metadata: { name: 'web', labels: { app: 'web' } } };
    const result = applyJsonPatch(doc, [
      { op: 'add', path: '/metadata/labels/tier', value: 'front' },
      { op: 'add', path: '/metadata/labels/app', value: 'api' },
      { op: 'add', path: '/spec', value: { replicas: 2 } },
    ]);
    expect(result).toEqual({ metadata: { name: 'web', labels: { app: 'api', tier: 'front' } }, spec: { replicas: 2 } });
  });

  it('inserts into arrays by index, appends with "-" and at index == length', () => {
    const doc = { items: ['a', 'c'] };
    expect(applyJsonPatch(doc, [{ op: 'add', path: '/items/1', value: 'b' }])).toEqual({ items: ['a', 'b', 'c'] });
    expect(applyJsonPatch(doc, [{ op: 'add', path: '/items/-', value: 'z' }])).toEqual({ items: ['a', 'c', 'z'] });
    expect(applyJsonPatch(doc, [{ op: 'add', path: '/items/2', value: 'z' }])).toEqual({ items: ['a', 'c', 'z'] });
  });

  it('counts negative indices from the end, as evanphx/json-patch does', () => {
    expect(applyJsonPatch({ items: ['a', 'b'] }, [{ op: 'add', path: '/items/-1', value: 'z' }])).toEqual({
      items: ['a', 'b', 'z'],
    });
    expect(applyJsonPatch({ items: ['a', 'b'] }, [{ op: 'remove', path: '/items/-1' }])).toEqual({ items: ['a'] });
  });

  it('rejects an index past the end and a non-numeric index', () => {
    const pastEnd = expectPatchError(() => applyJsonPatch({ items: ['a'] }, [{ op: 'add', path: '/items/5', value: 1 }]));
    expect(pastEnd.message).toBe("error in add for path: '/items/5': Unable to access invalid index: 5: invalid index referenced");
    expect(pastEnd.reason).toBe('Invalid');
    const word = expectPatchError(() => applyJsonPatch({ items: [] }, [{ op: 'add', path: '/items/x', value: 1 }]));
    expect(word.message).toBe("error in add for path: '/items/x': value was not a proper array index: 'x'");
  });

  it('replaces the whole document at the empty pointer', () => {
    expect(applyJsonPatch({ a: 1 }, [{ op: 'add', path: '', value: { b: 2 } }])).toEqual({ b: 2 });
  });

  it('fails when the parent does not exist', () => {
    const err = expectPatchError(() => applyJsonPatch({}, [{ op: 'add', path: '/metadata/labels/app', value: 'x' }]));
    expect(err.message).toBe('add operation does not apply: doc is missing path: "/metadata/labels/app": missing value');
    expect(err.httpCode).toBe(422);
  });
});

describe('applyJsonPatch remove and replace', () => {
  it('removes object members and array elements', () => {
    const doc = { metadata: { labels: { app: 'web', env: 'prod' } }, items: [1, 2, 3] };
    const result = applyJsonPatch(doc, [
      { op: 'remove', path: '/metadata/labels/env' },
      { op: 'remove', path: '/items/0' },
    ]);
    expect(result).toEqual({ metadata: { labels: { app: 'web' } }, items: [2, 3] });
  });

  it('fails to remove a missing member, a missing index or the whole document', () => {
    expect(expectPatchError(() => applyJsonPatch({ a: {} }, [{ op: 'remove', path: '/a/b' }])).message).toBe(
      "error in remove for path: '/a/b': Unable to remove nonexistent key: b: missing value",
    );
    expect(expectPatchError(() => applyJsonPatch({ a: [1] }, [{ op: 'remove', path: '/a/3' }])).message).toBe(
      "error in remove for path: '/a/3': Unable to access invalid index: 3: invalid index referenced",
    );
    expect(expectPatchError(() => applyJsonPatch({ a: 1 }, [{ op: 'remove', path: '' }])).message).toBe(
      'remove operation does not apply: doc is missing path: "": missing value',
    );
  });

  it('replaces existing members, array elements and the whole document', () => {
    const doc = { spec: { replicas: 1 }, items: ['a', 'b'] };
    const result = applyJsonPatch(doc, [
      { op: 'replace', path: '/spec/replicas', value: 3 },
      { op: 'replace', path: '/items/1', value: 'c' },
    ]);
    expect(result).toEqual({ spec: { replicas: 3 }, items: ['a', 'c'] });
    expect(applyJsonPatch(doc, [{ op: 'replace', path: '', value: [1] }])).toEqual([1]);
  });

  it('fails to replace a missing member (RFC 6902; evanphx v4 would add it)', () => {
    const err = expectPatchError(() => applyJsonPatch({ metadata: { name: 'web' } }, [{ op: 'replace', path: '/metadata/annotations', value: {} }]));
    expect(err.message).toBe('replace operation does not apply: doc is missing key: /metadata/annotations: missing value');
    expect(expectPatchError(() => applyJsonPatch({}, [{ op: 'replace', path: '/a/b', value: 1 }])).message).toBe(
      'replace operation does not apply: doc is missing path: /a/b: missing value',
    );
    expect(expectPatchError(() => applyJsonPatch({ a: [] }, [{ op: 'replace', path: '/a/0', value: 1 }])).message).toBe(
      'replace operation does not apply: doc is missing key: /a/0: missing value',
    );
  });
});

describe('applyJsonPatch move, copy and test', () => {
  it('moves values between members and within arrays', () => {
    expect(applyJsonPatch({ a: { x: 1 }, b: {} }, [{ op: 'move', from: '/a/x', path: '/b/y' }])).toEqual({ a: {}, b: { y: 1 } });
    expect(applyJsonPatch({ l: [1, 2, 3] }, [{ op: 'move', from: '/l/0', path: '/l/-' }])).toEqual({ l: [2, 3, 1] });
    expect(applyJsonPatch({ a: 1 }, [{ op: 'move', from: '/a', path: '/a' }])).toEqual({ a: 1 });
  });

  it('refuses to move a value into its own child or from a missing location', () => {
    expect(expectPatchError(() => applyJsonPatch({ a: { b: {} } }, [{ op: 'move', from: '/a', path: '/a/b/c' }])).message).toBe(
      'move operation does not apply: doc is missing destination path: /a/b/c: missing value',
    );
    expect(expectPatchError(() => applyJsonPatch({}, [{ op: 'move', from: '/x', path: '/y' }])).message).toBe(
      'move operation does not apply: doc is missing from path: /x: missing value',
    );
  });

  it('copies a deep, independent copy', () => {
    const result = applyJsonPatch({ a: { list: [1] } }, [{ op: 'copy', from: '/a', path: '/b' }]) as {
      a: { list: number[] };
      b: { list: number[] };
    };
    expect(result.b).toEqual({ list: [1] });
    result.b.list.push(2);
    expect(result.a.list).toEqual([1]);
    expect(expectPatchError(() => applyJsonPatch({}, [{ op: 'copy', from: '/x', path: '/y' }])).message).toBe(
      'copy operation does not apply: doc is missing from path: /x: missing value',
    );
  });

  it('tests values by JSON equality, whatever the key order', () => {
    const doc = { spec: { selector: { app: 'web', tier: 'front' } }, n: 1 };
    expect(
      applyJsonPatch(doc, [
        { op: 'test', path: '/spec/selector', value: { tier: 'front', app: 'web' } },
        { op: 'test', path: '', value: { n: 1, spec: { selector: { app: 'web', tier: 'front' } } } },
      ]),
    ).toEqual(doc);
  });

  it('fails a test on a different value, a missing member or a missing parent', () => {
    expect(expectPatchError(() => applyJsonPatch({ n: 1 }, [{ op: 'test', path: '/n', value: '1' }])).message).toBe('testing value /n failed: test failed');
    expect(expectPatchError(() => applyJsonPatch({}, [{ op: 'test', path: '/n', value: null }])).message).toBe('testing value /n failed: test failed');
    expect(expectPatchError(() => applyJsonPatch({}, [{ op: 'test', path: '/a/b', value: 1 }])).message).toBe(
      'test operation does not apply: is missing path: /a/b: missing value',
    );
  });
});

describe('applyJsonPatch pointers', () => {
  it('unescapes ~1 to / and ~0 to ~ (in that order)', () => {
    const doc = { metadata: { annotations: { 'example.com/a': 'x', 'm~n': 'y', '~1': 'z' } } };
    const result = applyJsonPatch(doc, [
      { op: 'replace', path: '/metadata/annotations/example.com~1a', value: 'X' },
      { op: 'remove', path: '/metadata/annotations/m~0n' },
      { op: 'replace', path: '/metadata/annotations/~01', value: 'Z' },
    ]);
    expect(result).toEqual({ metadata: { annotations: { 'example.com/a': 'X', '~1': 'Z' } } });
  });

  it('treats a pointer without a leading slash as a missing path', () => {
    expect(expectPatchError(() => applyJsonPatch({ a: 1 }, [{ op: 'replace', path: 'a', value: 2 }])).message).toBe(
      'replace operation does not apply: doc is missing path: a: missing value',
    );
  });

  it('keeps __proto__ an ordinary member', () => {
    const result = applyJsonPatch({}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]) as object;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result)).toEqual(['__proto__']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe('applyJsonPatch validation and purity', () => {
  it.each([
    [{ op: 'add', path: '/a' }, 'Invalid', 'add operation, missing value field: missing value'],
    [{ op: 'frob', path: '/a' }, 'Invalid', 'Unexpected kind: frob'],
    [{ path: '/a' }, 'Invalid', 'Unexpected kind: unknown'],
    [{ op: 'remove' }, 'Invalid', 'remove operation failed to decode path: missing value'],
    [{ op: 'move', path: '/a' }, 'Invalid', 'move operation failed to decode from: missing value'],
    ['add', 'BadRequest', 'json: cannot unmarshal string into Go value of type jsonpatch.Operation'],
  ])('rejects the malformed operation %j', (operation, reason, message) => {
    const err = expectPatchError(() => applyJsonPatch({ a: 1 }, [operation]));
    expect(err.reason).toBe(reason);
    expect(err.message).toBe(message);
  });

  it('rejects a patch that is not an array with 400', () => {
    const err = expectPatchError(() => applyJsonPatch({}, { op: 'add', path: '/a', value: 1 }));
    expect(err.message).toBe('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    expect(err.httpCode).toBe(400);
    expect(expectPatchError(() => decodeJsonPatch(null)).message).toContain('cannot unmarshal null');
  });

  it('checks every operation before applying any', () => {
    expect(() => applyJsonPatch({}, [{ op: 'add', path: '/a', value: 1 }, { op: 'nope' }])).toThrow('Unexpected kind: nope');
  });

  it('never mutates or aliases its inputs, even when an operation fails midway', () => {
    const doc = deepFreeze({ spec: { list: [{ name: 'a' }] } });
    const ops = deepFreeze([
      { op: 'add', path: '/spec/extra', value: { deep: [1] } },
      { op: 'replace', path: '/spec/list/0/name', value: 'b' },
    ]);
    const result = applyJsonPatch(doc, ops) as { spec: { extra: { deep: number[] } } };
    expect(result).toEqual({ spec: { list: [{ name: 'b' }], extra: { deep: [1] } } });
    result.spec.extra.deep.push(2);
    expect(ops[0]).toEqual({ op: 'add', path: '/spec/extra', value: { deep: [1] } });
    expect(() => applyJsonPatch(doc, [...ops, { op: 'remove', path: '/missing' }])).toThrow(PatchError);
    expect(doc).toEqual({ spec: { list: [{ name: 'a' }] } });
  });
});
