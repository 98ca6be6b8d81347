import { describe, expect, it } from 'vitest';
import { objectWith, render } from './testing/render.js';
import type { JSONSchemaProps } from './types.js';
import { validateSchemaDefinition } from './validate-definition.js';

const P = 'spec.versions[0].schema.openAPIV3Schema';
const check = (schema: JSONSchemaProps) => render(validateSchemaDefinition(schema, P));
const embedded = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } as const;

describe('validateSchemaDefinition accepts', () => {
  it('a rich structural schema', () => {
    const schema: JSONSchemaProps = objectWith(
      {
        metadata: objectWith({ name: { type: 'string', maxLength: 20 } }),
        spec: objectWith(
          {
            replicas: { type: 'integer', format: 'int32', minimum: 0, default: 1 },
            port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], default: 'http' },
            size: { type: 'string', enum: ['s', 'm'], default: 's' },
            template: { ...embedded, default: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } } },
            labels: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' },
            ports: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['name', 'protocol'],
              items: objectWith({ name: { type: 'string' }, protocol: { type: 'string', default: 'TCP' } }, { required: ['name'] }),
            },
            tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
            config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            choice: { type: 'string', oneOf: [{ pattern: '^a' }, { pattern: '^b' }], not: { enum: ['x'] } },
          },
          { 'x-kubernetes-validations': [{ rule: 'self.replicas >= 0', message: 'no negatives', fieldPath: '.replicas', reason: 'FieldValueForbidden' }] },
        ),
        status: objectWith({ phase: { type: 'string' } }),
      },
      { allOf: [{ properties: { spec: { properties: { replicas: { maximum: 100 } } } } }] },
    );
    expect(check(schema)).toEqual([]);
  });

  it('a schema that preserves everything', () => {
    expect(check({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true })).toEqual([]);
  });
});

describe('validateSchemaDefinition rejects non-structural schemas', () => {
  it.each<[string, JSONSchemaProps, string[]]>([
    ['a root without type', { properties: { a: { type: 'string' } } }, [`${P}.type: Required value: must not be empty at the root`]],
    ['a root of another type', { type: 'string' }, [`${P}.type: Invalid value: "string": must be object at the root`]],
    ['a field without type', objectWith({ spec: {} }), [`${P}.properties[spec].type: Required value: must not be empty for specified object fields`]],
    [
      'items without type',
      objectWith({ l: { type: 'array', items: {} } }),
      [`${P}.properties[l].items.type: Required value: must not be empty for specified array items`],
    ],
    ['an array without items', objectWith({ l: { type: 'array' } }), [`${P}.properties[l].items: Required value: must be specified`]],
    [
      'errors sorted by their text',
      objectWith({ b: {}, a: {} }),
      [
        `${P}.properties[a].type: Required value: must not be empty for specified object fields`,
        `${P}.properties[b].type: Required value: must not be empty for specified object fields`,
      ],
    ],
    [
      'additionalProperties at the root',
      { type: 'object', additionalProperties: { type: 'string' } },
      [`${P}.additionalProperties: Forbidden: must not be used at the root`],
    ],
    [
      'types, defaults and descriptions in value validations',
      objectWith({ f: { type: 'string', anyOf: [{ type: 'string', description: 'd' }], allOf: [{ default: 'x', nullable: true }] } }),
      [
        `${P}.properties[f].allOf[0].default: Forbidden: must be undefined to be structural`,
        `${P}.properties[f].allOf[0].nullable: Forbidden: must be false to be structural`,
        `${P}.properties[f].anyOf[0].description: Forbidden: must be empty to be structural`,
        `${P}.properties[f].anyOf[0].type: Forbidden: must be empty to be structural`,
      ],
    ],
    [
      'extensions in value validations',
      objectWith({
        f: { type: 'array', items: { type: 'string' }, oneOf: [{ 'x-kubernetes-list-type': 'set', 'x-kubernetes-validations': [{ rule: 'true' }] }] },
      }),
      [
        `${P}.properties[f].oneOf[0].x-kubernetes-list-type: Forbidden: must be undefined to be structural`,
        `${P}.properties[f].oneOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural`,
        `${P}.properties[f].oneOf[0].type: Required value: must be array if x-kubernetes-list-type is specified`,
      ],
    ],
    [
      'value validations of fields that are not specified',
      {
        ...objectWith({ a: { type: 'string' }, metadata: { type: 'object' } }),
        allOf: [{ properties: { b: { maxLength: 1 }, metadata: { required: ['name'] } } }],
      },
      [
        `${P}.allOf[0].properties[metadata]: Forbidden: must not be specified in a nested context`,
        `${P}.properties[b]: Required value: because it is defined in ${P}.allOf[0].properties[b]`,
      ],
    ],
    [
      'metadata restricted beyond name and generateName',
      objectWith({ metadata: objectWith({ name: { type: 'string' }, labels: { type: 'object' } }) }),
      [`${P}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`],
    ],
    [
      'metadata that is not an object',
      objectWith({ metadata: { type: 'string' } }),
      [`${P}.properties[metadata].type: Invalid value: "string": must be object`],
    ],
    ['kind that is not a string', objectWith({ kind: { type: 'integer' } }), [`${P}.properties[kind].type: Invalid value: "integer": must be string`]],
    [
      'embedded resources that are not objects or specify nothing',
      objectWith({ e: { 'x-kubernetes-embedded-resource': true } }),
      [
        `${P}.properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
        `${P}.properties[e].type: Required value: must be object if x-kubernetes-embedded-resource is true`,
      ],
    ],
    [
      'int-or-string with preserve-unknown-fields',
      objectWith({ f: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true } }),
      [`${P}.properties[f].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`],
    ],
    [
      'an invalid pattern',
      objectWith({ f: { type: 'string', pattern: '+' } }),
      [
        `${P}.properties[f].pattern: Invalid value: "+": must be a valid regular expression, but isn't: error parsing regexp: missing argument to repetition operator: \`+\``,
      ],
    ],
  ])('%s', (_name, schema, errors) => {
    expect(check(schema)).toEqual(errors);
  });
});

describe('validateSchemaDefinition checks defaults', () => {
  it.each<[string, JSONSchemaProps, string[]]>([
    [
      'of the wrong type',
      objectWith({ replicas: { type: 'integer', default: 'one' } }),
      [`${P}.properties[replicas].default: Invalid value: "string":  in body must be of type integer: "string"`],
    ],
    [
      'out of range',
      objectWith({ n: { type: 'integer', maximum: 10, default: 20 } }),
      [`${P}.properties[n].default: Invalid value: 20:  in body should be less than or equal to 10`],
    ],
    [
      'with invalid nested values',
      objectWith({ spec: objectWith({ count: { type: 'integer' } }, { default: { count: 'x' } }) }),
      [`${P}.properties[spec].default.count: Invalid value: "string": count in body must be of type integer: "string"`],
    ],
    [
      'that are not pruned',
      objectWith({ spec: objectWith({ a: { type: 'integer' } }, { default: { a: 1, zzz: 2 } }) }),
      [`${P}.properties[spec].default: Invalid value: {"a":1,"zzz":2}: must not have unknown fields`],
    ],
    [
      'of embedded resources without TypeMeta',
      objectWith({ e: { ...embedded, default: { metadata: {} } } }),
      [`${P}.properties[e].default.apiVersion: Required value`, `${P}.properties[e].default.kind: Required value`],
    ],
    [
      'inside embedded metadata that make it invalid',
      objectWith({
        e: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { metadata: objectWith({ name: { type: 'string', default: 'a/b' } }) } },
      }),
      [
        `${P}.properties[e].properties[metadata].properties[name].default: Invalid value: "a/b": must result in valid metadata: metadata.name: Invalid value: "a/b": may not contain '/'`,
      ],
    ],
    [
      'in top-level metadata',
      objectWith({ metadata: { type: 'object', default: { name: 'x' } } }),
      [`${P}.properties[metadata].default: Forbidden: must not be set in top-level metadata`],
    ],
    [
      'in maps inside resource metadata',
      objectWith({
        e: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { metadata: objectWith({ labels: { type: 'object', additionalProperties: { type: 'string', default: 'v' } } }) },
        },
      }),
      [
        `${P}.properties[e].properties[metadata].properties[labels].additionalProperties.default: Forbidden: must not be set inside additionalProperties applying to object metadata`,
      ],
    ],
    [
      'only when the schema is structural',
      objectWith({ a: {}, n: { type: 'integer', default: 'x' } }),
      [`${P}.properties[a].type: Required value: must not be empty for specified object fields`],
    ],
  ])('%s', (_name, schema, errors) => {
    expect(check(schema)).toEqual(errors);
  });
});

describe('validateSchemaDefinition checks keywords and extensions', () => {
  const listMap = (extra: JSONSchemaProps) =>
    objectWith({ l: { type: 'array', items: objectWith({ name: { type: 'string' }, sub: { type: 'object' } }, { required: ['name'] }), ...extra } });
  it.each<[string, JSONSchemaProps, string[]]>([
    [
      'properties together with additionalProperties',
      objectWith({ m: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } } }),
      [`${P}.properties[m].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`],
    ],
    [
      'uniqueItems',
      objectWith({ l: { type: 'array', items: { type: 'string' }, uniqueItems: true } }),
      [`${P}.properties[l].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`],
    ],
    [
      'type null',
      objectWith({ n: { type: 'null' } }),
      [
        `${P}.properties[n].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
        `${P}.properties[n].type: Forbidden: type cannot be set to null, use nullable as an alternative`,
      ],
    ],
    ['$ref (and no structural checks)', objectWith({ a: { $ref: '#/definitions/x' } }), [`${P}.properties[a].$ref: Forbidden: $ref is not supported`]],
    [
      '$schema, reported only through the structural conversion',
      { ...objectWith({}), $schema: 'http://json-schema.org/draft-04/schema#' },
      [`${P}: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`],
    ],
    [
      'preserve-unknown-fields: false',
      objectWith({ a: { type: 'object', 'x-kubernetes-preserve-unknown-fields': false } }),
      [`${P}.properties[a].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`],
    ],
    [
      'items as an array',
      objectWith({ l: { type: 'array', items: [{ type: 'string' }] } }),
      [`${P}.properties[l].items: Forbidden: items must be a schema object and not an array`],
    ],
    [
      'list-type on a non-array',
      objectWith({ o: { type: 'object', 'x-kubernetes-list-type': 'set' } }),
      [`${P}.properties[o].type: Invalid value: "object": must be array if x-kubernetes-list-type is specified`],
    ],
    [
      'an unknown list-type',
      listMap({ 'x-kubernetes-list-type': 'bogus' }),
      [`${P}.properties[l].x-kubernetes-list-type: Unsupported value: "bogus": supported values: "atomic", "set", "map"`],
    ],
    [
      'list-map-keys without list-type map',
      listMap({ 'x-kubernetes-list-map-keys': ['name'] }),
      [`${P}.properties[l].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty`],
    ],
    [
      'list-map-keys with another list-type',
      listMap({ 'x-kubernetes-list-type': 'atomic', 'x-kubernetes-list-map-keys': ['name'] }),
      [`${P}.properties[l].x-kubernetes-list-type: Invalid value: "atomic": must be map if x-kubernetes-list-map-keys is non-empty`],
    ],
    [
      'list-type map without keys',
      listMap({ 'x-kubernetes-list-type': 'map' }),
      [`${P}.properties[l].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`],
    ],
    [
      'list-type map keyed by an object',
      listMap({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['sub'] }),
      [
        `${P}.properties[l].items.properties[sub].type: Invalid value: "object": must be a scalar type if parent array's x-kubernetes-list-type is map`,
        `${P}.properties[l].items.properties[sub].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
      ],
    ],
    [
      'list-type map of scalars',
      objectWith({ l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a'] } }),
      [`${P}.properties[l].items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`],
    ],
    [
      'sets of granular objects',
      objectWith({ l: { type: 'array', 'x-kubernetes-list-type': 'set', items: objectWith({ a: { type: 'string' } }) } }),
      [`${P}.properties[l].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set`],
    ],
    [
      'nullable set items',
      objectWith({ l: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', nullable: true } } }),
      [`${P}.properties[l].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set`],
    ],
    [
      'map-type on a non-object, or unknown',
      objectWith({ s: { type: 'string', 'x-kubernetes-map-type': 'deep' } }),
      [
        `${P}.properties[s].type: Invalid value: "string": must be object if x-kubernetes-map-type is specified`,
        `${P}.properties[s].x-kubernetes-map-type: Unsupported value: "deep": supported values: "atomic", "granular"`,
      ],
    ],
    [
      'validation rules',
      objectWith({
        spec: objectWith(
          { name: { type: 'string' } },
          {
            'x-kubernetes-validations': [
              { rule: ' ' },
              { rule: 'true', message: 'a\nb' },
              { rule: 'a ||\nb' },
              { rule: 'true', messageExpression: ' ', reason: 'Bogus' },
              { rule: 'true', fieldPath: '.nope' },
              { rule: 'true', fieldPath: '.name' },
              { rule: 'true', fieldPath: "['name']" },
            ],
          },
        ),
      }),
      [
        `${P}.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified`,
        `${P}.properties[spec].x-kubernetes-validations[1].message: Invalid value: "a\\nb": must not contain line breaks`,
        `${P}.properties[spec].x-kubernetes-validations[2].message: Required value: message must be specified if rule contains line breaks`,
        `${P}.properties[spec].x-kubernetes-validations[3].messageExpression: Required value: messageExpression must be non-empty if specified`,
        `${P}.properties[spec].x-kubernetes-validations[3].reason: Unsupported value: "Bogus": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
        `${P}.properties[spec].x-kubernetes-validations[4].fieldPath: Invalid value: ".nope": must be a valid path`,
      ],
    ],
    [
      'embedded resources inside metadata',
      objectWith({ e: { ...embedded, properties: { metadata: objectWith({ x: embedded }) } } }),
      [`${P}.properties[e].properties[metadata].properties[x].x-kubernetes-embedded-resource: Forbidden: must not be used inside of resource meta`],
    ],
  ])('%s', (_name, schema, errors) => {
    expect(check(schema)).toEqual(errors);
  });

  it('names map keys that are not item properties', () => {
    expect(validateSchemaDefinition(listMap({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'nope', 'name'] }), P)).toEqual([
      {
        type: 'FieldValueInvalid',
        field: `${P}.properties[l].x-kubernetes-list-map-keys`,
        value: ['name', 'nope', 'name'],
        detail: 'entries must all be names of item properties',
      },
      {
        type: 'FieldValueInvalid',
        field: `${P}.properties[l].x-kubernetes-list-map-keys`,
        value: ['name', 'nope', 'name'],
        detail: 'must not contain duplicate entries',
      },
    ]);
  });
});
