/**
 * JSONSchemaPropsSchema: the zod schema the CustomResourceDefinition kind embeds for
 * `openAPIV3Schema`. It checks the JSON types of every known keyword and recurses through
 * every place a schema can nest; whether the schema is structural and well-formed is
 * validateSchemaDefinition's job (it words errors as kube-apiserver does). Unknown keywords
 * are dropped, as decoding into Go's JSONSchemaProps drops them.
 */
import { z } from 'zod';
import type { JSONSchemaProps } from './types.js';

const ValidationRuleSchema = z.object({
  rule: z.string(),
  message: z.string().optional(),
  messageExpression: z.string().optional(),
  reason: z.string().optional(),
  fieldPath: z.string().optional(),
  optionalOldSelf: z.boolean().optional(),
});

const count = () => z.number().int().optional();

export const JSONSchemaPropsSchema: z.ZodType<JSONSchemaProps> = z.lazy(() =>
  z
    .object({
      id: z.string().optional(),
      $schema: z.string().optional(),
      $ref: z.string().optional(),
      description: z.string().optional(),
      type: z.string().optional(),
      format: z.string().optional(),
      title: z.string().optional(),
      default: z.unknown().optional(),
      maximum: z.number().optional(),
      exclusiveMaximum: z.boolean().optional(),
      minimum: z.number().optional(),
      exclusiveMinimum: z.boolean().optional(),
      maxLength: count(),
      minLength: count(),
      pattern: z.string().optional(),
      maxItems: count(),
      minItems: count(),
      uniqueItems: z.boolean().optional(),
      multipleOf: z.number().optional(),
      enum: z.array(z.unknown()).optional(),
      maxProperties: count(),
      minProperties: count(),
      required: z.array(z.string()).optional(),
      items: z.union([JSONSchemaPropsSchema, z.array(JSONSchemaPropsSchema)]).optional(),
      allOf: z.array(JSONSchemaPropsSchema).optional(),
      oneOf: z.array(JSONSchemaPropsSchema).optional(),
      anyOf: z.array(JSONSchemaPropsSchema).optional(),
      not: JSONSchemaPropsSchema.optional(),
      properties: z.record(z.string(), JSONSchemaPropsSchema).optional(),
      additionalProperties: z.union([z.boolean(), JSONSchemaPropsSchema]).optional(),
      patternProperties: z.record(z.string(), JSONSchemaPropsSchema).optional(),
      dependencies: z.record(z.string(), z.union([JSONSchemaPropsSchema, z.array(z.string())])).optional(),
      additionalItems: z.union([z.boolean(), JSONSchemaPropsSchema]).optional(),
      definitions: z.record(z.string(), JSONSchemaPropsSchema).optional(),
      externalDocs: z.object({ description: z.string().optional(), url: z.string().optional() }).optional(),
      example: z.unknown().optional(),
      nullable: z.boolean().optional(),
      'x-kubernetes-preserve-unknown-fields': z.boolean().optional(),
      'x-kubernetes-embedded-resource': z.boolean().optional(),
      'x-kubernetes-int-or-string': z.boolean().optional(),
      'x-kubernetes-list-map-keys': z.array(z.string()).optional(),
      'x-kubernetes-list-type': z.string().optional(),
      'x-kubernetes-map-type': z.string().optional(),
      'x-kubernetes-validations': z.array(ValidationRuleSchema).optional(),
    })
    .meta({
      id: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps',
      description: 'JSONSchemaProps is a JSON-Schema following Specification Draft 4 (http://json-schema.org/).',
    }),
);
