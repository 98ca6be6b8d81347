import { describe, expect, it } from 'vitest';
import { negotiate, OPENAPI_V2_PROTOBUF, toSwagger } from './openapi-v2.js';

describe('toSwagger', () => {
  it('turns an allOf wrapper into the $ref beside its description, as Kubernetes v2 documents spell references', () => {
    expect(toSwagger({ description: 'the spec', allOf: [{ $ref: '#/definitions/x.Spec' }] })).toEqual({
      description: 'the spec',
      $ref: '#/definitions/x.Spec',
    });
  });

  it('says int-or-string without anyOf, and drops the keywords Swagger 2.0 lacks', () => {
    expect(toSwagger({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] })).toEqual({
      'x-kubernetes-int-or-string': true,
      type: 'string',
      format: 'int-or-string',
    });
    expect(toSwagger({ type: 'string', nullable: true, oneOf: [], not: {} })).toEqual({ type: 'string' });
  });

  it('walks nested schemas but leaves defaults, enums and extensions as data', () => {
    const node = {
      type: 'object',
      properties: { a: { type: 'array', items: { nullable: true, type: 'string' } }, anyOf: { type: 'string' } },
      additionalProperties: { anyOf: [], type: 'integer' },
      default: { nullable: true, anyOf: 1 },
      'x-kubernetes-validations': [{ rule: 'self.not', not: true }],
    };
    expect(toSwagger(node)).toEqual({
      type: 'object',
      // A property named like a keyword is still a property.
      properties: { a: { type: 'array', items: { type: 'string' } }, anyOf: { type: 'string' } },
      additionalProperties: { type: 'integer' },
      default: { nullable: true, anyOf: 1 },
      'x-kubernetes-validations': [{ rule: 'self.not', not: true }],
    });
  });
});

describe('negotiate', () => {
  it.each<[string | undefined, ReturnType<typeof negotiate>]>([
    [undefined, 'json'],
    ['application/json', 'json'],
    ['*/*', 'json'],
    [OPENAPI_V2_PROTOBUF, 'protobuf'],
    [`application/json;q=0.5, ${OPENAPI_V2_PROTOBUF}`, 'protobuf'],
    [`${OPENAPI_V2_PROTOBUF};q=0, application/json`, 'json'],
    ['text/html', undefined],
  ])('%s → %s', (accept, expected) => {
    expect(negotiate(accept)).toBe(expected);
  });
});
