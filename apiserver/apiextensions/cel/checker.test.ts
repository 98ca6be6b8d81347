import { describe, expect, it } from 'vitest';
import { compile } from './program.js';
import { schemaType } from './schema-types.js';
import type { StructuralLike } from './structural.js';
import { T, typeName } from './types.js';

const schema: StructuralLike = {
  type: 'object',
  properties: {
    a: {
      type: 'object',
      properties: { b: { type: 'integer' }, c: { type: 'string', nullable: true } },
    },
    list: { type: 'array', items: { type: 'string' } },
    m: { type: 'object', additionalProperties: { type: 'number' } },
    ios: { 'x-kubernetes-int-or-string': true },
    untyped: { 'x-kubernetes-preserve-unknown-fields': true },
    opaque: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    'dash-ed': { type: 'boolean' },
    if: { type: 'string' },
    '1bad': { type: 'string' },
    ts: { type: 'string', format: 'date-time' },
  },
};

const vars = new Map([['self', schemaType(schema)!]]);
const typeOf = (expression: string): string => typeName(compile(expression, vars).type);

describe('checker', () => {
  it.each<[string, string]>([
    ['self.a.b', 'int'],
    ['self.a.c', 'string'],
    ['self.list', 'list(string)'],
    ['self.list[0]', 'string'],
    ['self.m', 'map(string, double)'],
    ["self.m['k']", 'double'],
    ['self.m.k', 'double'],
    ['self.ios', 'dyn'],
    ['self.dash__dash__ed', 'bool'],
    ['self.__if__', 'string'],
    ['self.ts', 'google.protobuf.Timestamp'],
    ['self.ts - self.ts', 'google.protobuf.Duration'],
    ['has(self.a.b)', 'bool'],
    ['self.list.map(x, x.size())', 'list(int)'],
    ['self.list.filter(x, x != "")', 'list(string)'],
    ['self.m.map(k, self.m[k])', 'list(double)'],
    ['self.m.transformMap(k, v, v > 1.0)', 'map(string, bool)'],
    ['self.?a.?b', 'optional_type(int)'],
    ['self.list[?0]', 'optional_type(string)'],
    ['[1, 2].sum()', 'int'],
    ['self.list.join(",")', 'string'],
    ["quantity('1').add(1)", 'kubernetes.Quantity'],
    ['type(self.a.b)', 'type(int)'],
    ['int', 'type(int)'],
    ['true ? self.a.b : 2', 'int'],
    ['{"x": self.a}', 'map(string, object)'],
    ['dyn(self.a).anything', 'dyn'],
  ])('%s has type %s', (expression, type) => expect(typeOf(expression)).toBe(type));

  it.each<[string, string]>([
    ['self.nope', "undefined field 'nope'"],
    ['has(self.a.z)', "undefined field 'z'"],
    ['self.untyped', "undefined field 'untyped'"],
    ['self.opaque.x', "undefined field 'x'"],
    ["self['a']", "found no matching overload for '_[_]' applied to '(object, string)'"],
    ['self.list["x"]', "found no matching overload for '_[_]' applied to '(list(string), string)'"],
    ['self.a.b.c', "type 'int' does not support field selection"],
    ['self.a.b + self.a.c', "found no matching overload for '_+_' applied to '(int, string)'"],
    ['self.a.b && true', "found no matching overload for '_&&_' applied to '(int, bool)'"],
    ['true ? 1 : "a"', "found no matching overload for '_?_:_' applied to '(bool, int, string)'"],
    ['self.list.all(x, x)', "found no matching overload for '_&&_' applied to '(bool, string)'"],
    ['self.a.all(k, true)', "expression of type 'object' cannot be range of a comprehension"],
    ["'a' in self.a", "found no matching overload for '@in' applied to '(string, object)'"],
    ['self.a.b.size()', "found no matching overload for 'size' applied to 'int.()'"],
    ['self.list.unknownFn()', "undeclared reference to 'unknownFn' (in container '')"],
  ])('%s is rejected: %s', (expression, message) => expect(() => compile(expression, vars)).toThrow(message));

  it('accepts comparisons with null and across numeric types', () => {
    expect(typeOf('self.a.c == null')).toBe('bool');
    expect(typeOf('self.a.b == 1.0 && self.m.k == 1')).toBe('bool');
  });

  it('gives untyped nodes no type, and int-or-string dyn', () => {
    expect(schemaType({ 'x-kubernetes-preserve-unknown-fields': true })).toBeUndefined();
    expect(schemaType({ type: 'array' })).toBeUndefined();
    expect(schemaType({ 'x-kubernetes-int-or-string': true })).toEqual(T.dyn);
  });
});
