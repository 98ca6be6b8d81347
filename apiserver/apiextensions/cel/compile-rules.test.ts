import { describe, expect, it } from 'vitest';
import { compileRules, type StructuralLike } from './index.js';

const PATH = 'spec.versions[0].schema.openAPIV3Schema';
const int: StructuralLike = { type: 'integer' };

const withRules = (rules: StructuralLike['x-kubernetes-validations'], extra: Partial<StructuralLike> = {}): StructuralLike => ({
  type: 'object',
  properties: { spec: { type: 'object', properties: { a: int, s: { type: 'string' } }, 'x-kubernetes-validations': rules, ...extra } },
});

const RULE_PATH = `${PATH}.properties[spec].x-kubernetes-validations[0]`;

describe('compileRules', () => {
  it('accepts rules that compile to bool', () => {
    const schema = withRules([
      { rule: 'self.a > 0' },
      { rule: "has(self.s) && self.s.matches('^[a-z]+$')", messageExpression: "'bad: ' + self.s" },
      { rule: 'self.a == oldSelf.a' },
      { rule: 'oldSelf.hasValue()', optionalOldSelf: true },
      { rule: "self.metadata.name == 'x'", fieldPath: '.a' },
      { rule: '' },
    ]);
    schema['x-kubernetes-validations'] = [{ rule: "self.metadata.name.size() < 10 && self.kind != ''" }];
    expect(compileRules(schema, PATH).map((e) => e.detail)).toEqual([
      `compilation failed: ERROR: <input>:1:5: undefined field 'metadata'\n | self.metadata.name == 'x'\n | ....^`,
    ]);
  });

  it.each<[string, StructuralLike['x-kubernetes-validations'], string, string]>([
    ['a syntax error', [{ rule: 'self.a >' }], 'rule', "compilation failed: ERROR: <input>:1:9: Syntax error: mismatched input '<EOF>' expecting"],
    ['an unknown field', [{ rule: 'self.b == 1' }], 'rule', "compilation failed: ERROR: <input>:1:5: undefined field 'b'"],
    ['an undeclared name', [{ rule: 'other == 1' }], 'rule', "compilation failed: ERROR: <input>:1:1: undeclared reference to 'other' (in container '')"],
    [
      'a type mismatch',
      [{ rule: "self.a == 'x'" }],
      'rule',
      "compilation failed: ERROR: <input>:1:8: found no matching overload for '_==_' applied to '(int, string)'",
    ],
    ['a non-bool rule', [{ rule: 'self.a + 1' }], 'rule', 'cel expression must evaluate to a bool'],
    ['a bad duration literal', [{ rule: "duration('1d') > duration('1h')" }], 'rule', 'compilation failed: ERROR: <input>:1:10: invalid duration argument'],
    ['a non-string messageExpression', [{ rule: 'true', messageExpression: 'self.a' }], 'messageExpression', 'messageExpression must evaluate to a string'],
    [
      'a broken messageExpression',
      [{ rule: 'true', messageExpression: 'self.zz' }],
      'messageExpression',
      "messageExpression compilation failed: ERROR: <input>:1:5: undefined field 'zz'",
    ],
    ['optionalOldSelf without oldSelf', [{ rule: 'true', optionalOldSelf: false }], 'optionalOldSelf', 'may not be set if oldSelf is not used in rule'],
  ])('reports %s', (_, rules, field, detail) => {
    const errors = compileRules(withRules(rules), PATH);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ type: 'FieldValueInvalid', field: `${RULE_PATH}.${field}` });
    expect(errors[0]?.detail).toContain(detail);
  });

  it('shows the rule as the invalid value', () => {
    const [error] = compileRules(withRules([{ rule: 'self.a + 1', message: 'm' }]), PATH);
    expect(error?.value).toEqual({ rule: 'self.a + 1', message: 'm' });
  });

  it('forbids oldSelf below items of lists that do not correlate', () => {
    const item: StructuralLike = { type: 'object', properties: { v: int }, 'x-kubernetes-validations': [{ rule: 'self.v >= oldSelf.v' }] };
    const schema: StructuralLike = {
      type: 'object',
      properties: {
        atomic: { type: 'array', items: item },
        set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { n: { type: 'array', items: item } } } },
        map: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['v'], items: item },
      },
    };
    expect(compileRules(schema, PATH)).toEqual([
      {
        type: 'FieldValueInvalid',
        field: `${PATH}.properties[atomic].items.x-kubernetes-validations[0].rule`,
        value: 'self.v >= oldSelf.v',
        detail: `oldSelf cannot be used on the uncorrelatable portion of the schema within ${PATH}.properties[atomic]`,
      },
      {
        type: 'FieldValueInvalid',
        field: `${PATH}.properties[set].items.properties[n].items.x-kubernetes-validations[0].rule`,
        value: 'self.v >= oldSelf.v',
        detail: `oldSelf cannot be used on the uncorrelatable portion of the schema within ${PATH}.properties[set]`,
      },
    ]);
  });

  it('types maps, embedded resources and the resource root', () => {
    const schema: StructuralLike = {
      type: 'object',
      'x-kubernetes-validations': [{ rule: "self.metadata.name != '' && self.apiVersion != ''" }],
      properties: {
        labels: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-validations': [{ rule: "self.all(k, k != '' && self[k] != '')" }] },
        pod: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
          'x-kubernetes-validations': [{ rule: "self.kind == 'Pod'" }],
        },
        plain: { type: 'object', properties: { x: int }, 'x-kubernetes-validations': [{ rule: 'has(self.metadata)' }] },
      },
    };
    expect(compileRules(schema, PATH).map((e) => e.field)).toEqual([`${PATH}.properties[plain].x-kubernetes-validations[0].rule`]);
  });

  it('rejects rules on nodes CEL cannot see', () => {
    const schema: StructuralLike = {
      type: 'object',
      properties: { any: { 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': [{ rule: 'true' }] } },
    };
    expect(compileRules(schema, PATH)).toMatchObject([
      { field: `${PATH}.properties[any].x-kubernetes-validations`, detail: 'failed to convert to declType for CEL validation rules' },
    ]);
  });
});
