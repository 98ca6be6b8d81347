import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JSONSchemaPropsSchema } from './zod-schema.js';

describe('JSONSchemaPropsSchema', () => {
  it('accepts any valid schema, recursively, and keeps every keyword', () => {
    const schema = {
      type: 'object',
      description: 'd',
      required: ['spec'],
      properties: {
        spec: {
          type: 'object',
          properties: {
            n: { type: 'integer', minimum: 0, maximum: 10, exclusiveMaximum: true, multipleOf: 2, default: 2, enum: [2, 4], nullable: true },
            s: { type: 'string', minLength: 1, maxLength: 5, pattern: '^a', format: 'date', example: 'a', externalDocs: { url: 'https://x' } },
            l: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3, 'x-kubernetes-list-type': 'set' },
            m: { type: 'object', additionalProperties: { type: 'string' }, minProperties: 1, maxProperties: 3, 'x-kubernetes-map-type': 'granular' },
            any: { 'x-kubernetes-preserve-unknown-fields': true },
            e: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
            ios: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], allOf: [{ not: { enum: [0] } }], oneOf: [{}] },
            ports: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['name'],
              items: { type: 'object', properties: { name: { type: 'string' } } },
            },
          },
          'x-kubernetes-validations': [
            { rule: 'self.n > 0', message: 'm', messageExpression: "'x'", reason: 'FieldValueInvalid', fieldPath: '.n', optionalOldSelf: true },
          ],
        },
        free: { type: 'object', additionalProperties: true },
      },
    };
    expect(JSONSchemaPropsSchema.parse(schema)).toEqual(schema);
  });

  it('accepts the keywords CRDs reject, so their validation can name them', () => {
    const schema = {
      $ref: '#/x',
      id: 'i',
      $schema: 's',
      patternProperties: { '^a': {} },
      dependencies: { a: ['b'] },
      additionalItems: false,
      definitions: { d: {} },
      items: [{}],
    };
    expect(JSONSchemaPropsSchema.parse(schema)).toEqual(schema);
  });

  it('drops unknown keywords', () => {
    expect(JSONSchemaPropsSchema.parse({ type: 'string', bogus: 1 })).toEqual({ type: 'string' });
  });

  it.each([
    [{ type: 5 }, ['type']],
    [{ properties: { a: { maxLength: 'x' } } }, ['properties', 'a', 'maxLength']],
    [{ items: { required: 'a' } }, ['items']],
    [{ additionalProperties: 'yes' }, ['additionalProperties']],
    [{ 'x-kubernetes-validations': [{ message: 'no rule' }] }, ['x-kubernetes-validations', 0, 'rule']],
    [{ minItems: 1.5 }, ['minItems']],
  ])('rejects %j', (schema, path) => {
    const result = JSONSchemaPropsSchema.safeParse(schema);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(path);
  });

  it('converts to a JSON schema with a named recursive definition', () => {
    const json = z.toJSONSchema(z.object({ openAPIV3Schema: JSONSchemaPropsSchema }), { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as {
      definitions?: Record<string, unknown>;
    };
    expect(Object.keys(json.definitions ?? {})).toContain('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps');
  });
});
