import { describe, expect, it } from 'vitest';
import { escapeName, unescapeName } from './escaping.js';
import { jsonToCel, type ObjectValue } from './json-values.js';
import type { StructuralLike } from './structural.js';
import { toPlain } from './testing/expect-cel.js';
import { CelDuration, type CelList, CelTimestamp, celEquals } from './values.js';

describe('escapeName', () => {
  it.each<[string, string | undefined]>([
    ['plain', 'plain'],
    ['with_underscore', 'with_underscore'],
    ['a__b', 'a__underscores__b'],
    ['a.b-c/d', 'a__dot__b__dash__c__slash__d'],
    ['namespace', '__namespace__'],
    ['if', '__if__'],
    ['1abc', undefined],
    ['a b', undefined],
    ['ünï', undefined],
    ['', undefined],
  ])('%j → %j', (name, escaped) => {
    expect(escapeName(name)).toBe(escaped);
    if (escaped !== undefined) expect(unescapeName(escaped)).toBe(name);
  });

  it('rejects malformed escapes', () => expect(unescapeName('a__bogus__b')).toBeUndefined());
});

describe('jsonToCel', () => {
  it('types scalars by schema', () => {
    expect(jsonToCel(3, { type: 'integer' })).toBe(3n);
    expect(jsonToCel(3, { type: 'number' })).toBe(3);
    expect(jsonToCel(3, { 'x-kubernetes-int-or-string': true })).toBe(3n);
    expect(jsonToCel('3', { 'x-kubernetes-int-or-string': true })).toBe('3');
    expect(jsonToCel('1h', { type: 'string', format: 'duration' })).toEqual(new CelDuration(3_600_000_000_000n));
    expect(jsonToCel('2d', { type: 'string', format: 'duration' })).toEqual(new CelDuration(172_800_000_000_000n));
    expect(jsonToCel('2024-01-02', { type: 'string', format: 'date' })).toEqual(new CelTimestamp(1704153600_000_000_000n));
    expect(jsonToCel('2024-01-02 03:04:05.5+0100', { type: 'string', format: 'date-time' })).toEqual(new CelTimestamp(1704161045_500_000_000n, 3600));
    expect(jsonToCel('QUI=', { type: 'string', format: 'byte' })).toEqual(Uint8Array.from([65, 66]));
  });

  it.each<[unknown, StructuralLike, string]>([
    ['x', { type: 'integer' }, 'invalid data, expected int'],
    [1.5, { type: 'integer' }, 'invalid data, expected int'],
    [true, { 'x-kubernetes-int-or-string': true }, 'expected XIntOrString value to be either a string or integer'],
    ['1x', { type: 'string', format: 'duration' }, 'Invalid duration 1x'],
    ['nope', { type: 'string', format: 'date-time' }, 'Invalid date-time formatted string nope'],
    ['!!', { type: 'string', format: 'byte' }, 'Invalid byte formatted string'],
    [[1], { type: 'object' }, 'expected a map'],
  ])('rejects %j under %j', (value, schema, message) => expect(() => jsonToCel(value, schema)).toThrow(message));

  it('reads objects lazily with escaped names and null fields absent', () => {
    const schema: StructuralLike = { type: 'object', properties: { 'a-b': { type: 'integer' }, n: { type: 'string', nullable: true } } };
    const v = jsonToCel({ 'a-b': 1, n: null, extra: 'x' }, schema) as ObjectValue;
    expect(v.get('a__dash__b')).toBe(1n);
    expect(v.get('n')).toBeUndefined();
    expect(v.get('extra')).toBeUndefined();
    expect(v.keys()).toEqual(['a__dash__b', 'n']);
    expect(v.size).toBe(3);
  });

  it('compares unknown fields as JSON', () => {
    const schema: StructuralLike = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { k: { type: 'integer' } } };
    const a = jsonToCel({ k: 1, u: { deep: [1] } }, schema);
    expect(celEquals(a, jsonToCel({ k: 1, u: { deep: [1] } }, schema))).toBe(true);
    expect(celEquals(a, jsonToCel({ k: 1, u: { deep: [2] } }, schema))).toBe(false);
  });

  it('keeps list types and map keys', () => {
    const list = jsonToCel([{ k: 'a' }], {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['k'],
      items: { type: 'object', properties: { k: { type: 'string' } } },
    }) as CelList;
    expect(list.listType).toBe('map');
    expect(toPlain(list)).toEqual([{ k: 'a' }]);
  });
});
