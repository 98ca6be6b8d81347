import { describe, expect, it } from 'vitest';
import { type StructuralLike, validateCelRules } from './index.js';

const int: StructuralLike = { type: 'integer' };
const str: StructuralLike = { type: 'string' };

/** A CR root schema whose spec holds `spec`. */
const root = (spec: StructuralLike): StructuralLike => ({ type: 'object', properties: { spec } });

const replicasSpec = (rule: Record<string, unknown>): StructuralLike =>
  root({ type: 'object', properties: { replicas: int, max: int }, 'x-kubernetes-validations': [{ rule: 'self.replicas <= self.max', ...rule }] });

describe('validateCelRules: failed rules', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['the default message', {}, { type: 'FieldValueInvalid', field: 'spec', detail: 'failed rule: self.replicas <= self.max' }],
    ['the message', { message: ' replicas must not exceed max ' }, { type: 'FieldValueInvalid', field: 'spec', detail: 'replicas must not exceed max' }],
    [
      'the messageExpression',
      { message: 'unused', messageExpression: "'replicas ' + string(self.replicas) + ' exceeds ' + string(self.max)" },
      { type: 'FieldValueInvalid', field: 'spec', detail: 'replicas 5 exceeds 3' },
    ],
    [
      'the message when messageExpression fails',
      { message: 'fallback', messageExpression: "self.nope + 'x'" },
      { type: 'FieldValueInvalid', field: 'spec', detail: 'fallback' },
    ],
    [
      'the message when messageExpression is blank',
      { message: 'fallback', messageExpression: "'  '" },
      { type: 'FieldValueInvalid', field: 'spec', detail: 'fallback' },
    ],
    [
      'the message when messageExpression has a line break',
      { message: 'fallback', messageExpression: "'a\\nb'" },
      { type: 'FieldValueInvalid', field: 'spec', detail: 'fallback' },
    ],
    [
      'the default when messageExpression fails and there is no message',
      { messageExpression: "['a'][4]" },
      { type: 'FieldValueInvalid', field: 'spec', detail: 'failed rule: self.replicas <= self.max' },
    ],
    ['reason FieldValueForbidden', { message: 'no', reason: 'FieldValueForbidden' }, { type: 'FieldValueForbidden', field: 'spec', detail: 'no' }],
    ['reason FieldValueRequired', { message: 'need', reason: 'FieldValueRequired' }, { type: 'FieldValueRequired', field: 'spec', detail: 'need' }],
    ['reason FieldValueDuplicate', { reason: 'FieldValueDuplicate' }, { type: 'FieldValueDuplicate', field: 'spec' }],
    ['the fieldPath', { fieldPath: '.replicas', message: 'too many' }, { type: 'FieldValueInvalid', field: 'spec.replicas', detail: 'too many' }],
  ])('reports %s', (_, rule, expected) => {
    expect(validateCelRules(replicasSpec(rule), { spec: { replicas: 5, max: 3 } }, undefined)).toEqual([expected]);
  });

  it('passes a satisfied rule', () => {
    expect(validateCelRules(replicasSpec({}), { spec: { replicas: 2, max: 3 } }, undefined)).toEqual([]);
  });

  it('includes scalar values and omits objects and lists', () => {
    const schema = root({
      type: 'object',
      properties: {
        name: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.startsWith('a')" }] },
        count: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 10', reason: 'FieldValueDuplicate' }] },
        list: { type: 'array', items: int, 'x-kubernetes-validations': [{ rule: 'self.size() > 5' }] },
      },
    });
    expect(validateCelRules(schema, { spec: { name: 'bob', count: 3, list: [1] } }, undefined)).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.name', value: 'bob', detail: "failed rule: self.startsWith('a')" },
      { type: 'FieldValueDuplicate', field: 'spec.count', value: 3 },
      { type: 'FieldValueInvalid', field: 'spec.list', detail: 'failed rule: self.size() > 5' },
    ]);
  });

  it('names rules at the root with basePath, and the nil root by default', () => {
    const schema: StructuralLike = { type: 'object', properties: { a: int }, 'x-kubernetes-validations': [{ rule: 'self.a == 1' }] };
    expect(validateCelRules(schema, { a: 2 }, undefined)).toEqual([{ type: 'FieldValueInvalid', field: '', detail: 'failed rule: self.a == 1' }]);
    expect(validateCelRules(schema, { a: 2 }, undefined, 'root')[0]?.field).toBe('root');
  });

  it('walks items, map values and quoted field paths into the right paths', () => {
    const schema = root({
      type: 'object',
      properties: {
        ports: { type: 'array', items: { type: 'object', properties: { port: int }, 'x-kubernetes-validations': [{ rule: 'self.port > 0' }] } },
        labels: { type: 'object', additionalProperties: { type: 'string', 'x-kubernetes-validations': [{ rule: "self != ''" }] } },
        'a-b': { type: 'object', properties: { 'x.y': int }, 'x-kubernetes-validations': [{ rule: 'self.x__dot__y == 1', fieldPath: "['x.y']" }] },
      },
    });
    const errors = validateCelRules(schema, { spec: { ports: [{ port: 1 }, { port: 0 }], labels: { ok: 'v', empty: '' }, 'a-b': { 'x.y': 2 } } }, undefined);
    expect(errors.map((e) => e.field)).toEqual(['spec.ports[1]', 'spec.labels[empty]', 'spec.a-b.x.y']);
  });

  it('does not evaluate rules on absent or null values', () => {
    const schema = root({
      type: 'object',
      properties: { opt: { type: 'string', nullable: true, 'x-kubernetes-validations': [{ rule: 'false' }] } },
    });
    expect(validateCelRules(schema, { spec: {} }, undefined)).toEqual([]);
    expect(validateCelRules(schema, { spec: { opt: null } }, undefined)).toEqual([]);
    expect(validateCelRules(schema, {}, undefined)).toEqual([]);
    expect(validateCelRules(schema, { spec: { opt: 'x' } }, undefined)).toHaveLength(1);
  });
});

describe('validateCelRules: runtime errors', () => {
  it('reports evaluation errors with the schema type as value', () => {
    const schema = root({ type: 'object', properties: { a: int, b: int }, 'x-kubernetes-validations': [{ rule: 'self.b > 0' }] });
    expect(validateCelRules(schema, { spec: { a: 1 } }, undefined)).toEqual([
      { type: 'FieldValueInvalid', field: 'spec', value: 'object', detail: 'no such key: b evaluating rule: self.b > 0' },
    ]);
  });

  it('reports runtime overload errors on int-or-string values as Kubernetes does', () => {
    const schema = root({
      type: 'object',
      properties: { x: { 'x-kubernetes-int-or-string': true } },
      'x-kubernetes-validations': [{ rule: 'self.x + 1 > 0', message: 'm' }],
    });
    expect(validateCelRules(schema, { spec: { x: '25%' } }, undefined)).toEqual([
      {
        type: 'FieldValueInvalid',
        field: 'spec',
        value: 'object',
        detail: "'no such overload': call arguments did not match a supported operator, function or macro signature for rule: m",
      },
    ]);
    expect(validateCelRules(schema, { spec: { x: 3 } }, undefined)).toEqual([]);
  });

  it('reports rules that do not compile', () => {
    const schema = root({ type: 'object', properties: { a: int }, 'x-kubernetes-validations': [{ rule: 'self.nope == 1' }] });
    const [error] = validateCelRules(schema, { spec: { a: 1 } }, undefined);
    expect(error).toMatchObject({ type: 'FieldValueInvalid', field: 'spec', value: 'object' });
    expect(error?.detail).toMatch(/^rule compile error: compilation failed: ERROR: <input>:1:5: undefined field 'nope'/);
  });

  it('stops at the per-call cost limit and runs no further rules', () => {
    const items = { type: 'array', items: int } satisfies StructuralLike;
    const schema = root({
      type: 'object',
      properties: { l: items },
      'x-kubernetes-validations': [{ rule: 'self.l.all(a, self.l.all(b, self.l.all(c, a + b + c >= 0)))' }, { rule: 'false', message: 'never reached' }],
    });
    const errors = validateCelRules(schema, { spec: { l: Array.from({ length: 120 }, (_, i) => i) } }, undefined);
    expect(errors).toEqual([
      {
        type: 'FieldValueInvalid',
        field: 'spec',
        value: 'object',
        detail:
          "'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.l.all(a, self.l.all(b, self.l.all(c, a + b + c >= 0)))",
      },
    ]);
  });

  it('stops when the total budget runs out', () => {
    const heavy = {
      type: 'object',
      properties: { l: { type: 'array', items: int } },
      'x-kubernetes-validations': [{ rule: 'self.l.all(a, self.l.all(b, a + b >= 0))' }],
    };
    const schema = root({ type: 'array', items: heavy });
    const one = { l: Array.from({ length: 300 }, (_, i) => i) };
    const errors = validateCelRules(schema, { spec: Array.from({ length: 40 }, () => one) }, undefined);
    expect(errors.at(-1)?.detail).toBe('validation failed due to running out of cost budget, no further validation rules will be run');
    expect(errors).toHaveLength(1);
  });
});

describe('validateCelRules: transition rules', () => {
  const immutable = root({ type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'Value is immutable' }] });

  it('skips transition rules on create and checks them on update', () => {
    expect(validateCelRules(immutable, { spec: 'a' }, undefined)).toEqual([]);
    expect(validateCelRules(immutable, { spec: 'a' }, { spec: 'a' })).toEqual([]);
    expect(validateCelRules(immutable, { spec: 'b' }, { spec: 'a' })).toEqual([
      { type: 'FieldValueInvalid', field: 'spec', value: 'b', detail: 'Value is immutable' },
    ]);
  });

  it('skips transition rules when the old object lacks the field', () => {
    expect(validateCelRules(immutable, { spec: 'b' }, {})).toEqual([]);
    expect(validateCelRules(immutable, { spec: 'b' }, { spec: null })).toEqual([]);
  });

  it('binds oldSelf as an optional with optionalOldSelf', () => {
    const schema = root({
      type: 'integer',
      'x-kubernetes-validations': [{ rule: 'oldSelf.hasValue() ? self >= oldSelf.value() : self < 10', optionalOldSelf: true, message: 'bad' }],
    });
    expect(validateCelRules(schema, { spec: 5 }, undefined)).toEqual([]);
    expect(validateCelRules(schema, { spec: 50 }, undefined)).toHaveLength(1);
    expect(validateCelRules(schema, { spec: 50 }, { spec: 40 })).toEqual([]);
    expect(validateCelRules(schema, { spec: 30 }, { spec: 40 })).toHaveLength(1);
  });

  it('correlates list-type=map items by key, whatever their order', () => {
    const schema = root({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: {
        type: 'object',
        properties: { name: str, size: int },
        'x-kubernetes-validations': [{ rule: 'self.size >= oldSelf.size', message: 'cannot shrink' }],
      },
    });
    const old = {
      spec: [
        { name: 'a', size: 5 },
        { name: 'b', size: 5 },
      ],
    };
    expect(
      validateCelRules(
        schema,
        {
          spec: [
            { name: 'b', size: 6 },
            { name: 'a', size: 5 },
            { name: 'new', size: 1 },
          ],
        },
        old,
      ),
    ).toEqual([]);
    expect(
      validateCelRules(
        schema,
        {
          spec: [
            { name: 'b', size: 6 },
            { name: 'a', size: 4 },
          ],
        },
        old,
      ),
    ).toEqual([{ type: 'FieldValueInvalid', field: 'spec[1]', detail: 'cannot shrink' }]);
  });

  it('does not correlate items of atomic or set lists', () => {
    const items: StructuralLike = { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'changed' }] };
    for (const listType of [undefined, 'atomic', 'set']) {
      const schema = root({ type: 'array', items, ...(listType ? { 'x-kubernetes-list-type': listType } : {}) });
      expect(validateCelRules(schema, { spec: ['x'] }, { spec: ['y'] })).toEqual([]);
    }
  });

  it('correlates a list as a whole at the rule node', () => {
    const schema = root({ type: 'array', items: str, 'x-kubernetes-validations': [{ rule: 'self.size() >= oldSelf.size()', message: 'no removals' }] });
    expect(validateCelRules(schema, { spec: ['a'] }, { spec: ['a', 'b'] })).toEqual([{ type: 'FieldValueInvalid', field: 'spec', detail: 'no removals' }]);
  });

  it('correlates additionalProperties values by key', () => {
    const schema = root({
      type: 'object',
      additionalProperties: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'decreased' }] },
    });
    const errors = validateCelRules(schema, { spec: { a: 1, b: 5, c: 0 } }, { spec: { a: 2, b: 5 } });
    expect(errors).toEqual([{ type: 'FieldValueInvalid', field: 'spec[a]', value: 1, detail: 'decreased' }]);
  });
});

describe('validateCelRules: ratcheting', () => {
  const schema = root({
    type: 'object',
    properties: {
      name: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self.size() < 3', message: 'too long' }] },
      tags: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: "self != 'bad'", message: 'bad tag' }] } },
    },
  });

  it('tolerates an unchanged invalid value on update', () => {
    expect(validateCelRules(schema, { spec: { name: 'long' } }, { spec: { name: 'long' } })).toEqual([]);
  });

  it('rejects a changed invalid value', () => {
    expect(validateCelRules(schema, { spec: { name: 'longer' } }, { spec: { name: 'long' } })).toHaveLength(1);
    expect(validateCelRules(schema, { spec: { name: 'long' } }, undefined)).toHaveLength(1);
  });

  it('ratchets uncorrelated list items through their list', () => {
    expect(validateCelRules(schema, { spec: { tags: ['bad'] } }, { spec: { tags: ['bad'] } })).toEqual([]);
    expect(validateCelRules(schema, { spec: { tags: ['bad', 'x'] } }, { spec: { tags: ['bad'] } })).toHaveLength(1);
  });
});

describe('validateCelRules: values as Kubernetes types them', () => {
  it('exposes apiVersion, kind and metadata.name at the resource root', () => {
    const schema: StructuralLike = {
      type: 'object',
      properties: { metadata: { type: 'object' }, spec: { type: 'object', properties: { a: int } } },
      'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('x') && self.kind == 'Foo' && self.apiVersion == 'v1'" }],
    };
    const object = { apiVersion: 'v1', kind: 'Foo', metadata: { name: 'xyz', namespace: 'ns' }, spec: { a: 1 } };
    expect(validateCelRules(schema, object, undefined)).toEqual([]);
    expect(validateCelRules(schema, { ...object, metadata: { name: 'abc' } }, undefined)).toHaveLength(1);
  });

  it('exposes the type and object meta of embedded resources', () => {
    const schema = root({
      type: 'object',
      properties: { template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } },
      'x-kubernetes-validations': [{ rule: "self.template.kind == 'Pod' && self.template.metadata.name == 'p'" }],
    });
    expect(validateCelRules(schema, { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} } } }, undefined)).toEqual([]);
  });

  it('types formats, int-or-string, escaped names, sets and map lists', () => {
    const schema = root({
      type: 'object',
      properties: {
        at: { type: 'string', format: 'date-time' },
        timeout: { type: 'string', format: 'duration' },
        data: { type: 'string', format: 'byte' },
        ratio: { type: 'number' },
        port: { 'x-kubernetes-int-or-string': true },
        'foo-bar': int,
        namespace: str,
        tags: { type: 'array', items: str, 'x-kubernetes-list-type': 'set' },
        kv: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', properties: { k: str, v: str } } },
      },
      'x-kubernetes-validations': [
        { rule: "self.at < timestamp('2030-01-01T00:00:00Z') && self.at.getFullYear() == 2024" },
        { rule: "self.timeout == duration('90s') && self.data == b'AB' && type(self.ratio) == double" },
        { rule: "type(self.port) == string && self.port.endsWith('%')" },
        { rule: 'self.foo__dash__bar == 1 && self.__namespace__ == "ns"' },
        { rule: "self.tags == ['b', 'a'] && self.kv == [self.kv[1], self.kv[0]] && self.kv + [self.kv[0]] == self.kv" },
      ],
    });
    const spec = {
      at: '2024-05-01T10:00:00Z',
      timeout: '1m30s',
      data: 'QUI=',
      ratio: 1,
      port: '50%',
      'foo-bar': 1,
      namespace: 'ns',
      tags: ['a', 'b'],
      kv: [
        { k: 'x', v: '1' },
        { k: 'y', v: '2' },
      ],
    };
    expect(validateCelRules(schema, { spec }, undefined)).toEqual([]);
    expect(validateCelRules(schema, { spec: { ...spec, port: 8080 } }, undefined).map((e) => e.detail)).toEqual([
      "failed rule: type(self.port) == string && self.port.endsWith('%')",
    ]);
  });

  it('rejects comparing a schema object with a map literal, as the checker does', () => {
    const schema = root({ type: 'object', properties: { k: str }, 'x-kubernetes-validations': [{ rule: "self == {'k': 'v'}" }] });
    expect(validateCelRules(schema, { spec: { k: 'v' } }, undefined)[0]?.detail).toContain(
      "found no matching overload for '_==_' applied to '(object, map(string, string))'",
    );
  });

  it('treats null fields of objects as absent', () => {
    const schema = root({ type: 'object', properties: { a: { type: 'integer', nullable: true } }, 'x-kubernetes-validations': [{ rule: '!has(self.a)' }] });
    expect(validateCelRules(schema, { spec: { a: null } }, undefined)).toEqual([]);
    expect(validateCelRules(schema, { spec: { a: 1 } }, undefined)).toHaveLength(1);
  });
});
