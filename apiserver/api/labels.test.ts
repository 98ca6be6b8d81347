import { describe, expect, it } from 'vitest';
import { validateLabelKey, validateLabelValue } from './label-validation.js';
import {
  createLabelRequirement,
  formatLabelSelector,
  LabelSelectorQuery,
  labelSelectorFromStructured,
  matchesSelector,
  parseLabelSelector,
  SelectorParseError,
} from './labels.js';
import type { LabelSelector } from './meta.js';

// Vectors adapted from k8s.io/apimachinery pkg/labels/selector_test.go and
// pkg/apis/meta/v1/helpers_test.go; error texts checked against pkg/labels/selector.go.

const LABEL_VALUE_RULE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const NAME_RULE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const SUBDOMAIN_RULE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const INTEGER_RULE = "for 'Gt', 'Lt' operators, the value must be an integer";
const OPERATORS = 'in, notin, =, ==, !=, gt, lt';

describe('parseLabelSelector canonical form', () => {
  it.each([
    ['x=a,y=b,z=c', 'x=a,y=b,z=c'],
    ['', ''],
    ['   ', ''],
    ['x!=a,y=b', 'x!=a,y=b'],
    ['x=', 'x='],
    ['x= ', 'x='],
    ['x=,z= ', 'x=,z='],
    ['x= ,z= ', 'x=,z='],
    ['!x', '!x'],
    ['x>1', 'x>1'],
    ['x>1,z<5', 'x>1,z<5'],
    ['x==a', 'x==a'],
    ['\rx', 'x'],
    ['this-is-a-dns.domain.com/key-with-dash', 'this-is-a-dns.domain.com/key-with-dash'],
    ['this-is-another-dns.domain.com/key-with-dash in (so,what)', 'this-is-another-dns.domain.com/key-with-dash in (so,what)'],
    ['0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)', '0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)'],
    ['foo  in\t (abc)', 'foo in (abc)'],
    ['x notin\n (abc)', 'x notin (abc)'],
    ['x  notin\t\t(abc,def)', 'x notin (abc,def)'],
    ['x in (abc,def)', 'x in (abc,def)'],
    ['x in (def,abc)', 'x in (abc,def)'],
    ['x in (abc,)', 'x in (,abc)'],
    ['x in (abc,abc)', 'x in (abc)'],
    ['x in ()', 'x in ()'],
    ['x in (a,,)', 'x in (,a)'],
    ['x in (a,,,)', 'x in (,a)'],
    ['x in (a,,,,,,)', 'x in (,a)'],
    ['x in (a,,a,,a,,a,,)', 'x in (,a)'],
    ['x notin (abc,,def),bar,z in (),w', 'bar,w,x notin (,abc,def),z in ()'],
    ['x,y in (a)', 'x,y in (a)'],
    ['x=a,y!=b,z in (h,i,j)', 'x=a,y!=b,z in (h,i,j)'],
    ['x notin ( )', 'x notin ()'],
    ['x notin (, a)', 'x notin (,a)'],
    ['a ', 'a'],
    ['a in (x,y,notin, z,in)', 'a in (in,notin,x,y,z)'],
    ['notin=in', 'notin=in'],
    ['x=a,a=x', 'a=x,x=a'],
    ['b,!a,c in (z)', '!a,b,c in (z)'],
  ])('%j → %j', (input, canonical) => {
    expect(parseLabelSelector(input).toString()).toBe(canonical);
    expect(parseLabelSelector(canonical).toString()).toBe(canonical);
  });

  it('is deterministic whatever the order of terms', () => {
    expect(parseLabelSelector('x=a,a=x').requirements).toEqual(parseLabelSelector('a=x,x=a').requirements);
  });

  it('exposes sorted, structured requirements', () => {
    expect(parseLabelSelector('tier in (b,a),app=web,!canary,x>3').requirements).toEqual([
      { key: 'app', operator: '=', values: ['web'] },
      { key: 'canary', operator: '!', values: [] },
      { key: 'tier', operator: 'in', values: ['a', 'b'] },
      { key: 'x', operator: 'gt', values: ['3'] },
    ]);
  });
});

describe('parseLabelSelector errors', () => {
  it.each([
    ['x=a||y=b', `unable to parse requirement: values[0][x]: Invalid value: "a||y": ${LABEL_VALUE_RULE}`],
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['x<a', `unable to parse requirement: values[0]: Invalid value: "a": ${INTEGER_RULE}`],
    ['x>', `unable to parse requirement: values[0]: Invalid value: "": ${INTEGER_RULE}`],
    ['x>-1', `unable to parse requirement: values[0][x]: Invalid value: "-1": ${LABEL_VALUE_RULE}`],
    ['x>99999999999999999999', `unable to parse requirement: values[0]: Invalid value: "99999999999999999999": ${INTEGER_RULE}`],
    ['x>-a', `unable to parse requirement: [values[0]: Invalid value: "-a": ${INTEGER_RULE}, values[0][x]: Invalid value: "-a": ${LABEL_VALUE_RULE}]`],
    ['x,,y', "found ',', expected: identifier after ','"],
    [',x,y', "found ',', expected: !, identifier, or 'end of string'"],
    ['x nott in (y)', `unable to parse requirement: found 'nott', expected: ${OPERATORS}`],
    ['a in (xyz),', "found '', expected: identifier after ','"],
    ['a in (xyz)b notin ()', "found 'b', expected: ',' or 'end of string'"],
    ['a in (xyz abc)', "unable to parse requirement: found 'abc', expected: ',' or ')'"],
    ['a in (xyz', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a notin(', "unable to parse requirement: found '', expected: ',', ')' or identifier"],
    ['a in a', "unable to parse requirement: found 'a' expected: '('"],
    ['a in (x,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['a (', `unable to parse requirement: found '(', expected: ${OPERATORS}`],
    ['a !', `unable to parse requirement: found '!', expected: ${OPERATORS}`],
    ['a exists', `unable to parse requirement: found 'exists', expected: ${OPERATORS}`],
    ['(', "found '(', expected: !, identifier, or 'end of string'"],
    ['== != (), = notin', "found '==', expected: !, identifier, or 'end of string'"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['!!x', "unable to parse requirement: found '!', expected: identifier"],
    ['x=(', "unable to parse requirement: found '(', expected: identifier"],
    ['x=a b', "found 'b', expected: ',' or 'end of string'"],
    ['x in (a,-b)', `unable to parse requirement: values[0][x]: Invalid value: "-b": ${LABEL_VALUE_RULE}`],
    ['-x', `unable to parse requirement: <nil>: Invalid value: "-x": name part ${NAME_RULE}`],
    ['Example.com/x', `unable to parse requirement: <nil>: Invalid value: "Example.com/x": prefix part ${SUBDOMAIN_RULE}`],
    ['/x', 'unable to parse requirement: <nil>: Invalid value: "/x": prefix part must be non-empty'],
    ['a/', `unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; name part ${NAME_RULE}`],
    [
      'a/b/c',
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name ${NAME_RULE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ],
    [`${'k'.repeat(64)}`, `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters`],
    [`x=${'v'.repeat(64)}`, `unable to parse requirement: values[0][x]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`],
    ['x="a"', `unable to parse requirement: values[0][x]: Invalid value: "\\"a\\"": ${LABEL_VALUE_RULE}`],
  ])('%j', (input, message) => {
    expect(() => parseLabelSelector(input)).toThrow(SelectorParseError);
    expect(() => parseLabelSelector(input)).toThrow(message);
    try {
      parseLabelSelector(input);
    } catch (err) {
      expect((err as Error).message).toBe(message);
    }
  });
});

describe('LabelSelectorQuery.matches', () => {
  const labelset = { foo: 'bar', baz: 'blah' };
  it.each<[string, Record<string, string> | undefined, boolean]>([
    ['', { x: 'y' }, true],
    ['', undefined, true],
    ['x=y', { x: 'y' }, true],
    ['x==y', { x: 'y' }, true],
    ['x=y,z=w', { x: 'y', z: 'w' }, true],
    ['x!=y,z!=w', { x: 'z', z: 'a' }, true],
    ['notin=in', { notin: 'in' }, true],
    ['x', { x: 'z' }, true],
    ['!x', { y: 'z' }, true],
    ['x>1', { x: '2' }, true],
    ['x<1', { x: '0' }, true],
    ['x<1', { x: '-5' }, true],
    ['x=z', {}, false],
    ['x=y', { x: 'z' }, false],
    ['x=y,z=w', { x: 'w', z: 'w' }, false],
    ['x!=y,z!=w', { x: 'z', z: 'w' }, false],
    ['x', { y: 'z' }, false],
    ['x', undefined, false],
    ['!x', { x: 'z' }, false],
    ['x>1', { x: '0' }, false],
    ['x<1', { x: '2' }, false],
    ['x>1', {}, false],
    ['z>1', { z: 'v2' }, false],
    ['x!=y', {}, true],
    ['x notin (a)', {}, true],
    ['foo=bar', labelset, true],
    ['baz=blah', labelset, true],
    ['foo=bar,baz=blah', labelset, true],
    ['foo=blah', labelset, false],
    ['baz=bar', labelset, false],
    ['foo=bar,foobar=bar,baz=blah', labelset, false],
    ['x in (foo),y notin (alpha)', { x: 'foo', y: 'baz' }, true],
    ['x in (foo),y in (alpha)', { x: 'foo', y: 'baz' }, false],
    ['x notin (),y', { y: '' }, true],
    ['!x,y', { y: '' }, true],
    ['x notin (),!y', { y: '' }, false],
    ['x in ()', { y: 'baz' }, false],
    ['x in ()', { x: '' }, true],
    ['x=', { x: '' }, true],
    ['toString', {}, false],
  ])('%j on %j → %s', (selector, labels, expected) => {
    expect(parseLabelSelector(selector).matches(labels)).toBe(expected);
  });
});

describe('LabelSelectorQuery.requiresExactMatch', () => {
  it.each<[string, string, string | undefined]>([
    ['key in (value)', 'key', 'value'],
    ['key in (value,value2)', 'key', undefined],
    ['key in (value,value1),key2 in (value2)', 'key2', 'value2'],
    ['key=value', 'key', 'value'],
    ['key==value', 'key', 'value'],
    ['key!=value', 'key', undefined],
    ['key in (value),key2 in (value2)', 'key', 'value'],
    ['key', 'key', undefined],
    ['other=value', 'key', undefined],
  ])('%j requires %j = %j', (selector, key, expected) => {
    expect(parseLabelSelector(selector).requiresExactMatch(key)).toBe(expected);
  });
});

describe('labelSelectorFromStructured', () => {
  const expressions: LabelSelector['matchExpressions'] = [{ key: 'baz', operator: 'In', values: ['qux', 'norf'] }];
  it.each<[string, LabelSelector | undefined, string]>([
    ['matchLabels', { matchLabels: { foo: 'bar' } }, 'foo=bar'],
    ['matchExpressions', { matchExpressions: expressions }, 'baz in (norf,qux)'],
    ['both, sorted by key', { matchLabels: { foo: 'bar' }, matchExpressions: expressions }, 'baz in (norf,qux),foo=bar'],
    [
      'every operator',
      {
        matchLabels: { tier: 'fe', app: 'web' },
        matchExpressions: [
          { key: 'env', operator: 'NotIn', values: ['dev'] },
          { key: 'canary', operator: 'DoesNotExist' },
          { key: 'team', operator: 'Exists', values: [] },
        ],
      },
      'app=web,!canary,env notin (dev),team,tier=fe',
    ],
  ])('%s', (_, selector, canonical) => {
    const query = labelSelectorFromStructured(selector);
    expect(query.toString()).toBe(canonical);
    expect(parseLabelSelector(canonical).requirements).toEqual(parseLabelSelector(query.toString()).requirements);
  });

  it('treats an absent selector as nothing and {} as everything', () => {
    for (const absent of [undefined, null]) {
      const nothing = labelSelectorFromStructured(absent);
      expect(nothing).toBe(LabelSelectorQuery.nothing);
      expect(nothing.matches({})).toBe(false);
      expect(nothing.isNothing()).toBe(true);
      expect(nothing.isEverything()).toBe(false);
      expect(nothing.toString()).toBe('');
    }
    for (const empty of [{}, { matchLabels: {} }, { matchExpressions: [] }]) {
      const everything = labelSelectorFromStructured(empty);
      expect(everything.isEverything()).toBe(true);
      expect(everything.matches(undefined)).toBe(true);
    }
  });

  it('does not mutate its input', () => {
    const selector: LabelSelector = { matchLabels: { b: '1', a: '2' }, matchExpressions: [{ key: 'z', operator: 'In', values: ['y', 'x'] }] };
    const copy = structuredClone(selector);
    labelSelectorFromStructured(selector);
    expect(selector).toEqual(copy);
  });

  it.each<[string, LabelSelector, string]>([
    [
      'In without values',
      { matchExpressions: [{ key: 'a', operator: 'In' }] },
      "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
    ],
    [
      'NotIn with []',
      { matchExpressions: [{ key: 'a', operator: 'NotIn', values: [] }] },
      "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
    ],
    [
      'Exists with values',
      { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x', 'y'] }] },
      'values: Invalid value: ["x","y"]: values set must be empty for exists and does not exist',
    ],
    ['unknown operator', { matchExpressions: [{ key: 'a', operator: 'Foo' as 'In' }] }, '"Foo" is not a valid label selector operator'],
    ['bad key', { matchLabels: { 'a b': 'x' } }, `key: Invalid value: "a b": name part ${NAME_RULE}`],
    ['bad value', { matchLabels: { app: 'a b' } }, `values[0][app]: Invalid value: "a b": ${LABEL_VALUE_RULE}`],
  ])('rejects %s', (_, selector, message) => {
    expect(() => labelSelectorFromStructured(selector)).toThrow(SelectorParseError);
    expect(() => labelSelectorFromStructured(selector)).toThrow(message);
  });
});

describe('formatLabelSelector', () => {
  it.each<[LabelSelector | undefined, string]>([
    [undefined, '<none>'],
    [{}, '<none>'],
    [{ matchLabels: {} }, '<none>'],
    [{ matchLabels: { app: 'web' } }, 'app=web'],
    [{ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] }, 'app=web,tier in (a,b)'],
    [{ matchExpressions: [{ key: 'a', operator: 'In' }] }, '<error>'],
  ])('%j → %j', (selector, expected) => {
    expect(formatLabelSelector(selector)).toBe(expected);
  });
});

describe('matchesSelector', () => {
  it.each<[LabelSelector | undefined, Record<string, string> | undefined, boolean]>([
    [undefined, { app: 'web' }, false],
    [{}, { app: 'web' }, true],
    [{}, undefined, true],
    [{ matchLabels: { app: 'web' } }, { app: 'web', 'pod-template-hash': 'abc' }, true],
    [{ matchLabels: { app: 'web' } }, { app: 'db' }, false],
    [{ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['fe'] }] }, {}, true],
  ])('%j selects %j: %s', (selector, labels, expected) => {
    expect(matchesSelector(selector, labels)).toBe(expected);
  });
});

describe('createLabelRequirement', () => {
  it.each<[string, Parameters<typeof createLabelRequirement>, string | undefined]>([
    ['in without values', ['x1', 'in', []], "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"],
    ['in', ['x3', 'in', ['foo']], undefined],
    ['= with two values', ['x5', '=', ['bar', 'foo']], 'values: Invalid value: ["bar","foo"]: exact-match compatibility requires one single value'],
    ['exists', ['x6', 'exists', []], undefined],
    ['gt without value', ['x13', 'gt', []], "values: Invalid value: null: for 'Gt', 'Lt' operators, exactly one value is required"],
    ['lt non-integer', ['x15', 'lt', ['bar']], `values[0]: Invalid value: "bar": ${INTEGER_RULE}`],
    ['key too long', ['a'.repeat(254), 'exists', []], `key: Invalid value: "${'a'.repeat(254)}": name part must be no more than 63 characters`],
    ['value with space', ['x17', '=', ['a b']], `values[0][x17]: Invalid value: "a b": ${LABEL_VALUE_RULE}`],
    [
      'unsupported operator',
      ['x18', 'op' as 'in', []],
      'operator: Unsupported value: "op": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"',
    ],
  ])('%s', (_, args, message) => {
    if (message === undefined) expect(createLabelRequirement(...args).key).toBe(args[0]);
    else expect(() => createLabelRequirement(...args)).toThrow(message);
  });

  it('composes with fromRequirements, sorted by key', () => {
    const query = LabelSelectorQuery.fromRequirements([createLabelRequirement('b', '=', ['1']), createLabelRequirement('a', 'exists', [])]);
    expect(query.toString()).toBe('a,b=1');
    expect(Object.isFrozen(query.requirements)).toBe(true);
  });
});

describe('label key and value validation', () => {
  it.each<[string, number]>([
    ['app', 0],
    ['app.kubernetes.io/name', 0],
    ['MyName', 0],
    ['my.name', 0],
    ['123-abc', 0],
    ['a_b', 0],
    ['-a', 1],
    ['a-', 1],
    ['', 2],
    ['/a', 1],
    ['a/', 2],
    ['a/b/c', 1],
    [`${'a'.repeat(253)}/b`, 0],
    [`${'a'.repeat(254)}/b`, 1],
  ])('key %j has %i problems', (key, count) => {
    expect(validateLabelKey(key)).toHaveLength(count);
  });

  it.each<[string, number]>([
    ['', 0],
    ['web', 0],
    ['MyValue', 0],
    ['my_value', 0],
    ['12345', 0],
    ['-a', 1],
    ['a b', 1],
    ['v'.repeat(63), 0],
    ['v'.repeat(64), 1],
  ])('value %j has %i problems', (value, count) => {
    expect(validateLabelValue(value)).toHaveLength(count);
  });
});
