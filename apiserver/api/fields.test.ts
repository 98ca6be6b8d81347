import { describe, expect, it } from 'vitest';
import { escapeFieldValue, FieldSelectorQuery, parseFieldSelector, SelectorParseError, unescapeFieldValue } from './fields.js';

// Vectors adapted from k8s.io/apimachinery pkg/fields/selector_test.go; error texts checked
// against pkg/fields/selector.go.

const from = (fields: Record<string, string>) => (name: string) => fields[name];

describe('parseFieldSelector canonical form', () => {
  it.each([
    ['x=a,y=b,z=c', 'x=a,y=b,z=c'],
    ['', ''],
    [',', ''],
    ['x!=a,y=b', 'x!=a,y=b'],
    ['x=a||y\\=b', 'x=a||y\\=b'],
    ['x=a\\=\\=b', 'x=a\\=\\=b'],
    ['x==a', 'x=a'],
    ['x=a,a=x', 'a=x,x=a'],
    ['a=b,a!=c', 'a!=c,a=b'],
    ['x=a,', 'x=a'],
    [',x=a', 'x=a'],
    // Terms sort by their raw text, so 'k2=…' comes before 'k=…'.
    ['k=\\,,k2=v2', 'k2=v2,k=\\,'],
    ['k=\\\\,k2=v2', 'k2=v2,k=\\\\'],
    ['k=\\\\\\,,k2=v2', 'k2=v2,k=\\\\\\,'],
    ['함=수,목=록', '목=록,함=수'],
    ['=', ''],
    ['=,a=b', 'a=b'],
    ['spec.nodeName=', 'spec.nodeName='],
    ['=v', '=v'],
    ['a = b', 'a = b'],
  ])('%j → %j', (input, canonical) => {
    expect(parseFieldSelector(input).toString()).toBe(canonical);
  });

  it('exposes unescaped requirements with == folded into =', () => {
    expect(parseFieldSelector('status.phase!=Failed,metadata.name==web,k=\\,\\=\\\\').requirements).toEqual([
      { field: 'k', operator: '=', value: ',=\\' },
      { field: 'metadata.name', operator: '=', value: 'web' },
      { field: 'status.phase', operator: '!=', value: 'Failed' },
    ]);
  });

  it('splits a term at the first operator, preferring != and ==', () => {
    expect(parseFieldSelector('a!=b').requirements).toEqual([{ field: 'a', operator: '!=', value: 'b' }]);
    expect(parseFieldSelector('a==b').requirements).toEqual([{ field: 'a', operator: '=', value: 'b' }]);
    expect(parseFieldSelector('a=!b').requirements).toEqual([{ field: 'a', operator: '=', value: '!b' }]);
  });
});

describe('parseFieldSelector errors', () => {
  it.each([
    ['x=a||y=b', 'invalid field selector: unescaped character in value: 61'],
    ['x==a==b', 'invalid field selector: unescaped character in value: 61'],
    ['x=a,b', "invalid selector: 'x=a,b'; can't understand 'b'"],
    ['x in (a)', "invalid selector: 'x in (a)'; can't understand 'x in (a)'"],
    ['x in (a,b,c)', "invalid selector: 'x in (a,b,c)'; can't understand 'b'"],
    ['x', "invalid selector: 'x'; can't understand 'x'"],
    ['k=\\a', 'invalid field selector: invalid escape sequence: \\a'],
    ['k=\\', 'invalid field selector: invalid escape sequence: \\'],
    ['k=v\\\\\\', 'invalid field selector: invalid escape sequence: \\'],
  ])('%j', (input, message) => {
    expect(() => parseFieldSelector(input)).toThrow(SelectorParseError);
    try {
      parseFieldSelector(input);
    } catch (err) {
      expect((err as Error).message).toBe(message);
    }
  });
});

describe('FieldSelectorQuery.matches', () => {
  const fieldset = { foo: 'bar', baz: 'blah', complex: '=value\\,\\' };
  it.each<[string, Record<string, string>, boolean]>([
    ['', { x: 'y' }, true],
    ['x=y', { x: 'y' }, true],
    ['x=y,z=w', { x: 'y', z: 'w' }, true],
    ['x!=y,z!=w', { x: 'z', z: 'a' }, true],
    ['notin=in', { notin: 'in' }, true],
    ['x=y', { x: 'z' }, false],
    ['x=y,z=w', { x: 'w', z: 'w' }, false],
    ['x!=y,z!=w', { x: 'z', z: 'w' }, false],
    ['foo=bar', fieldset, true],
    ['baz=blah', fieldset, true],
    ['foo=bar,baz=blah', fieldset, true],
    ['foo=bar,baz=blah,complex=\\=value\\\\\\,\\\\', fieldset, true],
    ['foo=blah', fieldset, false],
    ['baz=bar', fieldset, false],
    ['foo=bar,foobar=bar,baz=blah', fieldset, false],
    ['spec.nodeName=', {}, true],
    ['involvedObject.namespace=', { 'involvedObject.namespace': '' }, true],
    ['spec.nodeName!=', { 'spec.nodeName': 'n1' }, true],
    ['spec.nodeName!=', {}, false],
    ['status.phase!=Succeeded,status.phase!=Failed', { 'status.phase': 'Running' }, true],
    ['status.phase!=Succeeded,status.phase!=Failed', { 'status.phase': 'Failed' }, false],
  ])('%j on %j → %s', (selector, fields, expected) => {
    expect(parseFieldSelector(selector).matches(from(fields))).toBe(expected);
  });
});

describe('FieldSelectorQuery introspection', () => {
  it.each<[string, string, string | undefined]>([
    ['', 'test', undefined],
    ['a=b', 'test', undefined],
    ['test=b', 'test', 'b'],
    ['test=', 'test', ''],
    ['test!=b', 'test', undefined],
    ['test!=', 'test', undefined],
    ['=x,test=b', 'test', 'b'],
    ['test=2,test=1', 'test', '1'],
    ['metadata.name=web,metadata.namespace=default', 'metadata.name', 'web'],
  ])('%j requires %j = %j', (selector, field, expected) => {
    expect(parseFieldSelector(selector).requiresExactMatch(field)).toBe(expected);
  });

  it('lists distinct field names for the server to check', () => {
    expect(parseFieldSelector('status.phase!=Failed,spec.nodeName=n1,status.phase!=Succeeded').fields()).toEqual(['spec.nodeName', 'status.phase']);
    expect(parseFieldSelector('').fields()).toEqual([]);
  });

  it('knows when it selects everything', () => {
    expect(parseFieldSelector('').isEverything()).toBe(true);
    expect(parseFieldSelector('=').isEverything()).toBe(true);
    expect(parseFieldSelector('a=b').isEverything()).toBe(false);
    expect(FieldSelectorQuery.everything.matches(() => undefined)).toBe(true);
  });
});

describe('field value escaping', () => {
  it.each([
    ['', ''],
    ['a', 'a'],
    ['=', '\\='],
    [',', '\\,'],
    ['\\', '\\\\'],
    ['\\=\\,\\', '\\\\\\=\\\\\\,\\\\'],
    ['함', '함'],
  ])('%j ⇄ %j', (raw, escaped) => {
    expect(escapeFieldValue(raw)).toBe(escaped);
    expect(unescapeFieldValue(escaped)).toBe(raw);
  });

  it.each(['\\', '\\\\\\', '\\a'])('rejects %j as an invalid escape sequence', (value) => {
    expect(() => unescapeFieldValue(value)).toThrow(/^invalid field selector: invalid escape sequence: /);
  });

  it.each([
    ['a,b', 44],
    ['a=b', 61],
  ])('rejects unescaped characters in %j', (value, codePoint) => {
    expect(() => unescapeFieldValue(value)).toThrow(`invalid field selector: unescaped character in value: ${codePoint}`);
  });
});
