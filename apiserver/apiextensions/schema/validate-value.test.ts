import { describe, expect, it } from 'vitest';
import { invalid } from '../../api/api-error.js';
import { objectWith, render } from './testing/render.js';
import type { JSONSchemaProps } from './types.js';
import { validateStatusValue, validateValue } from './validate-value.js';

interface Case {
  name: string;
  schema: JSONSchemaProps;
  valid?: unknown[];
  invalid?: Array<[object: unknown, errors: string[]]>;
}

const field = (schema: JSONSchemaProps) => objectWith({ field: schema });

// Expected texts are kube-apiserver's (apiextensions-apiserver pkg/apiserver/validation tests
// and kube-openapi's messages); "Too many" reads "Invalid value" until FieldError has TooMany.
const cases: Case[] = [
  {
    name: 'type: wrong types name the value type',
    schema: field({ type: 'object' }),
    valid: [{}, { field: {} }],
    invalid: [
      [{ field: 'foo' }, ['field: Invalid value: "string": field in body must be of type object: "string"']],
      [{ field: 42 }, ['field: Invalid value: "integer": field in body must be of type object: "integer"']],
      [{ field: true }, ['field: Invalid value: "boolean": field in body must be of type object: "boolean"']],
      [{ field: 1.2 }, ['field: Invalid value: "number": field in body must be of type object: "number"']],
      [{ field: [] }, ['field: Invalid value: "array": field in body must be of type object: "array"']],
      [{ field: null }, ['field: Invalid value: "null": field in body must be of type object: "null"']],
    ],
  },
  {
    name: 'nullable allows null only',
    schema: field({ type: 'object', nullable: true }),
    valid: [{}, { field: {} }, { field: null }],
    invalid: [[{ field: 'foo' }, ['field: Invalid value: "string": field in body must be of type object: "string"']]],
  },
  {
    name: 'nullable without type accepts anything',
    schema: field({ nullable: true }),
    valid: [{ field: null }, { field: 'foo' }, { field: 42 }, { field: true }, { field: 1.2 }, { field: [] }, { field: {} }],
  },
  {
    name: 'x-kubernetes-int-or-string',
    schema: field({ 'x-kubernetes-int-or-string': true }),
    valid: [{}, { field: 42 }, { field: 'foo' }],
    invalid: [
      [{ field: null }, ['field: Invalid value: "null": field in body must be of type integer,string: "null"']],
      [{ field: true }, ['field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"']],
      [{ field: 1.2 }, ['field: Invalid value: "number": field in body must be of type integer,string: "number"']],
      [{ field: {} }, ['field: Invalid value: "object": field in body must be of type integer,string: "object"']],
    ],
  },
  {
    name: 'int-or-string with its anyOf spelled out',
    schema: field({ nullable: true, 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }),
    valid: [{ field: null }, { field: 42 }, { field: 'foo' }],
    invalid: [
      [
        { field: true },
        [
          'field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"',
          '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
          'field: Invalid value: "boolean": field in body must be of type integer: "boolean"',
        ],
      ],
      [
        { field: 1.2 },
        [
          'field: Invalid value: "number": field in body must be of type integer,string: "number"',
          '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
          'field: Invalid value: "number": field in body must be of type integer: "number"',
          '<nil>: Invalid value: "": Checked value must be of type integer (default format) in field',
        ],
      ],
    ],
  },
  {
    name: 'int-or-string with allOf',
    schema: field({ nullable: true, 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }] }),
    valid: [{ field: 42 }, { field: 'foo' }],
    invalid: [
      [
        { field: [] },
        [
          'field: Invalid value: "array": field in body must be of type integer,string: "array"',
          '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
          'field: Invalid value: "array": field in body must be of type integer: "array"',
          '<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated',
        ],
      ],
    ],
  },
  {
    name: 'oneOf and not',
    schema: field({ type: 'integer', oneOf: [{ minimum: 0 }, { maximum: 10 }], not: { enum: [5] } }),
    valid: [{ field: 20 }, { field: -3 }],
    invalid: [
      [
        { field: 5 },
        [
          '<nil>: Invalid value: "": "field" must validate one and only one schema (oneOf). Found 2 valid alternatives',
          '<nil>: Invalid value: "": "field" must not validate the schema (not)',
        ],
      ],
    ],
  },
  {
    name: 'required',
    schema: objectWith({ field: { type: 'object', required: ['nested'], properties: { nested: { type: 'string' } } } }, { required: ['field'] }),
    invalid: [
      [{ test: 'a' }, ['field: Required value']],
      [{ field: {} }, ['field.nested: Required value']],
    ],
  },
  {
    name: 'enum',
    schema: field({
      type: 'object',
      required: ['nestedint', 'nestedstring'],
      properties: { nestedint: { type: 'integer', enum: [1, 2] }, nestedstring: { type: 'string', enum: ['a', 'b'] } },
    }),
    valid: [{ field: { nestedint: 2, nestedstring: 'a' } }],
    invalid: [
      [{ field: {} }, ['field.nestedint: Required value', 'field.nestedstring: Required value']],
      [
        { field: { nestedint: 'x', nestedstring: true } },
        [
          'field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string"',
          'field.nestedint: Unsupported value: "x": supported values: "1", "2"',
          'field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean"',
          'field.nestedstring: Unsupported value: true: supported values: "a", "b"',
        ],
      ],
    ],
  },
  {
    name: 'maximum, minimum, exclusive bounds',
    schema: objectWith({
      count: { type: 'integer', minimum: 1, maximum: 10 },
      ratio: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true },
    }),
    valid: [{ count: 1, ratio: 0.5 }, { count: 10 }],
    invalid: [
      [{ count: 11 }, ['count: Invalid value: 11: count in body should be less than or equal to 10']],
      [{ count: 0 }, ['count: Invalid value: 0: count in body should be greater than or equal to 1']],
      [{ ratio: 1 }, ['ratio: Invalid value: 1: ratio in body should be less than 1']],
      [{ ratio: 0 }, ['ratio: Invalid value: 0: ratio in body should be greater than 0']],
    ],
  },
  {
    name: 'float bounds print as Go does',
    schema: objectWith({ big: { type: 'number', maximum: 1000000 }, small: { type: 'number', minimum: 0.5 } }),
    invalid: [
      [{ big: 1000000.5 }, ['big: Invalid value: 1000000.5: big in body should be less than or equal to 1e+06']],
      [{ small: 0.25 }, ['small: Invalid value: 0.25: small in body should be greater than or equal to 0.5']],
    ],
  },
  {
    name: 'multipleOf',
    schema: objectWith({ n: { type: 'integer', multipleOf: 5 }, f: { type: 'number', multipleOf: 0.1 } }),
    valid: [{ n: 15, f: 0.3 }, { f: 2 }],
    invalid: [
      [{ n: 7 }, ['n: Invalid value: 7: n in body should be a multiple of 5']],
      [{ f: 0.25 }, ['f: Invalid value: 0.25: f in body should be a multiple of 0.1']],
    ],
  },
  {
    name: 'numeric formats',
    schema: objectWith({
      i32: { type: 'integer', format: 'int32' },
      i64: { type: 'integer', format: 'int64' },
      f32: { type: 'number', format: 'float' },
      f64: { type: 'number', format: 'double' },
    }),
    valid: [{ i32: -(2 ** 31), i64: 2 ** 62, f32: -3.4e38, f64: 1.7e308 }, { i32: 2 ** 31 - 1 }],
    invalid: [
      [{ i32: 2 ** 31 }, ['<nil>: Invalid value: "": Checked value must be of type integer with format int32 in i32']],
      [{ i32: -(2 ** 31) - 1 }, ['<nil>: Invalid value: "": Checked value must be of type integer with format int32 in i32']],
      [
        { i64: 2 ** 63 * 1.1 },
        [
          'i64: Invalid value: "float64": i64 in body must be of type int64: "float64"',
          '<nil>: Invalid value: "": Checked value must be of type integer with format int64 in i64',
        ],
      ],
      [{ f32: 3.5e38 }, ['<nil>: Invalid value: "": Checked value must be of type number with format float in f32']],
      [
        { i32: 1.5 },
        [
          'i32: Invalid value: "float64": i32 in body must be of type int32: "float64"',
          '<nil>: Invalid value: "": Checked value must be of type integer with format int32 in i32',
        ],
      ],
    ],
  },
  {
    name: 'integer given a fraction',
    schema: objectWith({ replicas: { type: 'integer' } }),
    invalid: [
      [{ replicas: 'string' }, ['replicas: Invalid value: "string": replicas in body must be of type integer: "string"']],
      [
        { replicas: 1.5 },
        [
          'replicas: Invalid value: "number": replicas in body must be of type integer: "number"',
          '<nil>: Invalid value: "": Checked value must be of type integer (default format) in replicas',
        ],
      ],
    ],
  },
  {
    name: 'string length and pattern (first failure only)',
    schema: objectWith({ name: { type: 'string', minLength: 3, maxLength: 5, pattern: '^[a-z]+$' } }),
    valid: [{ name: 'abc' }, { name: 'abcde' }],
    invalid: [
      [{ name: 'abcdef' }, ['name: Too long: may not be more than 5 bytes']],
      [{ name: 'ab' }, ['name: Invalid value: "ab": name in body should be at least 3 chars long']],
      [{ name: 'ABC' }, ['name: Invalid value: "ABC": name in body should match \'^[a-z]+$\'']],
      [{ name: 'ABCDEFG' }, ['name: Too long: may not be more than 5 bytes']],
    ],
  },
  {
    name: 'maxLength counts characters, says byte when singular',
    schema: objectWith({ c: { type: 'string', maxLength: 1 } }),
    valid: [{ c: 'é' }],
    invalid: [[{ c: 'ab' }, ['c: Too long: may not be more than 1 byte']]],
  },
  {
    name: 'invalid pattern is reported on each value',
    schema: objectWith({ field: { type: 'string', pattern: '+' } }),
    invalid: [
      [
        { field: 'foo' },
        [
          'field: Invalid value: "foo": field in body should match \'+, but pattern is invalid: error parsing regexp: missing argument to repetition operator: `+`\'',
        ],
      ],
    ],
  },
  {
    name: 'items: minItems, maxItems, nested item errors',
    schema: objectWith({ list: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string' } } }),
    valid: [{ list: ['a'] }, { list: ['a', 'b'] }],
    invalid: [
      [{ list: [] }, ['list: Invalid value: 0: list in body should have at least 1 items']],
      [{ list: ['a', 'b', 'c'] }, ['list: Too many: 3: must have at most 2 items']],
      [{ list: ['a', 1] }, ['list[1]: Invalid value: "integer": list[1] in body must be of type string: "integer"']],
    ],
  },
  {
    name: 'properties counts and additionalProperties',
    schema: objectWith({
      labels: { type: 'object', minProperties: 1, maxProperties: 2, additionalProperties: { type: 'string', maxLength: 3 } },
      closed: { type: 'object', additionalProperties: false },
    }),
    valid: [{ labels: { a: 'x' } }, { closed: {} }],
    invalid: [
      [{ labels: {} }, ['labels: Invalid value: 0: labels in body should have at least 1 properties']],
      [{ labels: { a: 'x', b: 'y', c: 'z' } }, ['labels: Too many: 3: must have at most 2 items']],
      [{ labels: { a: 'long' } }, ['labels.a: Too long: may not be more than 3 bytes']],
      [{ closed: { x: 1 } }, ['closed: Invalid value: "x": closed.x in body is a forbidden property']],
    ],
  },
  {
    name: 'formats as the kube-openapi registry checks them',
    schema: objectWith({
      when: { type: 'string', format: 'date-time' },
      day: { type: 'string', format: 'date' },
      id: { type: 'string', format: 'uuid' },
      host: { type: 'string', format: 'hostname' },
      short: { type: 'string', format: 'k8s-short-name' },
      unknown: { type: 'string', format: 'not-a-format' },
    }),
    valid: [
      { when: '2024-02-29T10:00:00Z', day: '2024-02-29', id: 'F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6', host: 'example.com', short: 'a-b', unknown: 'anything' },
    ],
    invalid: [
      [{ when: 'yesterday' }, ['when: Invalid value: "yesterday": when in body must be of type date-time: "yesterday"']],
      [{ day: '2023-02-29' }, ['day: Invalid value: "2023-02-29": day in body must be of type date: "2023-02-29"']],
      [{ short: 'a-' }, ['short: Invalid value: "a-": short in body must be of type k8s-short-name: "a-"']],
      [{ when: 5 }, ['when: Invalid value: "int64": when in body must be of type date-time: "int64"']],
    ],
  },
  {
    name: 'nested paths through lists and maps',
    schema: objectWith({
      spec: objectWith({
        containers: { type: 'array', items: objectWith({ port: { type: 'integer' } }, { required: ['name'] }) },
        env: { type: 'object', additionalProperties: { type: 'integer' } },
      }),
    }),
    invalid: [
      [
        { spec: { containers: [{ name: 'a', port: 'x' }, {}], env: { A: 'b' } } },
        [
          'spec.containers[0].port: Invalid value: "string": spec.containers[0].port in body must be of type integer: "string"',
          'spec.containers[1].name: Required value',
          'spec.env.A: Invalid value: "string": spec.env.A in body must be of type integer: "string"',
        ],
      ],
    ],
  },
];

describe('validateValue: kube-openapi keywords and wording', () => {
  for (const c of cases) {
    it(c.name, () => {
      for (const value of c.valid ?? []) expect(render(validateValue(c.schema, value)), JSON.stringify(value)).toEqual([]);
      for (const [value, errors] of c.invalid ?? []) expect(new Set(render(validateValue(c.schema, value))), JSON.stringify(value)).toEqual(new Set(errors));
    });
  }

  it('reads as kube-apiserver in the 422 message', () => {
    const schema = objectWith({
      spec: objectWith({ replicas: { type: 'integer', maximum: 10 }, size: { type: 'string', enum: ['s', 'm'] } }, { required: ['name'] }),
    });
    const errors = validateValue(schema, { spec: { replicas: 11, size: 'xl' } });
    expect(invalid({ group: 'stable.example.com', resource: 'crontabs', kind: 'CronTab', name: 'x' }, errors).message).toBe(
      'CronTab.stable.example.com "x" is invalid: [spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10, spec.size: Unsupported value: "xl": supported values: "s", "m", spec.name: Required value]',
    );
  });
});

describe('validateValue: list types', () => {
  const schema = objectWith({
    tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
    ports: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['port', 'protocol'],
      items: objectWith({ port: { type: 'integer' }, protocol: { type: 'string' } }),
    },
    nested: objectWith({
      owners: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: objectWith({ name: { type: 'string' } }) },
    }),
  });

  it.each([
    [{ tags: ['a', 'b', 'a', 'a', 'b'] }, ['tags[2]: Duplicate value: "a"', 'tags[4]: Duplicate value: "b"']],
    [
      {
        ports: [
          { port: 80, protocol: 'TCP' },
          { port: 80, protocol: 'UDP' },
          { port: 80, protocol: 'TCP' },
        ],
      },
      ['ports[2]: Duplicate value: {"port":80,"protocol":"TCP"}'],
    ],
    [
      { ports: [{ port: 1 }, 'x'] },
      [
        'ports[1]: Invalid value: "x": must be an object for an array of list-type map',
        'ports[1]: Invalid value: "string": ports[1] in body must be of type object: "string"',
      ],
    ],
  ])('%j', (value, errors) => {
    expect(new Set(render(validateValue(schema, value)))).toEqual(new Set(errors));
  });

  it('reports map keys of items without them as an empty key', () => {
    // kube-apiserver prints `Duplicate value: {}` (JSON); the value carried is that key.
    expect(validateValue(schema, { nested: { owners: [{ name: 'x' }, {}, {}] } })).toEqual([
      { type: 'FieldValueDuplicate', field: 'nested.owners[2]', value: {} },
    ]);
  });

  it('accepts unique sets and maps', () => {
    expect(
      validateValue(schema, {
        tags: ['a', 'b'],
        ports: [
          { port: 80, protocol: 'TCP' },
          { port: 81, protocol: 'TCP' },
        ],
      }),
    ).toEqual([]);
  });
});

describe('validateValue: embedded resources', () => {
  const schema = objectWith({
    template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
    many: { type: 'array', items: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } },
  });

  it.each([
    [{ template: {} }, ['template.apiVersion: Required value', 'template.kind: Required value']],
    [{ template: { apiVersion: 'a/b/c', kind: 'Pod' } }, ['template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c']],
    [{ template: { apiVersion: 'v1', kind: '' } }, ['template.kind: Invalid value: "": must not be empty']],
    [{ template: { apiVersion: 5, kind: 'Pod' } }, ['template.apiVersion: Invalid value: 5: must be a string']],
    [
      { template: { apiVersion: 'v1', kind: 'Pod_x' } },
      [
        "template.kind: Invalid value: \"Pod_x\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    [{ many: [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a/b' } }] }, ['many[0].metadata.name: Invalid value: "a/b": may not contain \'/\'']],
    [
      { template: { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'Bad_NS' } } },
      [expect.stringMatching(/^template\.metadata\.namespace: Invalid value: "Bad_NS": a lowercase RFC 1123 label/)],
    ],
    [
      { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 5 } } },
      ['template.metadata: Invalid value: {"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string'],
    ],
  ])('%j', (value, errors) => {
    expect(render(validateValue(schema, value))).toEqual(errors);
  });

  it('accepts a valid embedded object without a name', () => {
    expect(validateValue(schema, { template: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { labels: { app: 'x' } }, spec: {} } })).toEqual([]);
  });
});

describe('validateStatusValue', () => {
  it('validates status with paths relative to it, as the status strategy does', () => {
    const schema = objectWith({ spec: objectWith({ n: { type: 'integer' } }), status: objectWith({ num: { type: 'integer', maximum: 10 } }) });
    expect(render(validateStatusValue(schema, { spec: { n: 'ignored' }, status: { num: 15 } }))).toEqual([
      'status.num: Invalid value: 15: num in body should be less than or equal to 10',
    ]);
  });
});
