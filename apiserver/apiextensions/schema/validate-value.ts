/**
 * Validation of a custom resource against its version's schema, in the order kube-apiserver's
 * custom resource strategy runs the checks: the OpenAPI schema (kube-openapi), embedded
 * resources' TypeMeta/ObjectMeta, then list-type set/map uniqueness. CEL rules
 * (x-kubernetes-validations) are evaluated elsewhere.
 */
import type { FieldError } from '../../api/resource-definition.js';
import { validateEmbeddedResources } from './embedded-resource.js';
import { validateListSetsAndMaps } from './list-type.js';
import { validateAgainstSchema } from './openapi-validator.js';
import { isObject, type JSONSchemaProps } from './types.js';

/** validateValue checks a whole custom object against the root schema. */
export function validateValue(schema: JSONSchemaProps, value: unknown): FieldError[] {
  return [...validateAgainstSchema(schema, value), ...validateEmbeddedResources(schema, value), ...validateListSetsAndMaps(schema, value)];
}

/** validateStatusValue is the /status update's check: only `status` against its schema, with
 * messages relative to it (`status.phase: Invalid value: ...: phase in body must be ...`),
 * then embedded resources and list sets/maps of the whole object. */
export function validateStatusValue(schema: JSONSchemaProps, value: unknown): FieldError[] {
  const statusSchema = schema.properties?.['status'];
  const status = isObject(value) ? value['status'] : undefined;
  const statusErrors = statusSchema && status !== undefined ? validateAgainstSchema(statusSchema, status, 'status') : [];
  return [...statusErrors, ...validateEmbeddedResources(schema, value), ...validateListSetsAndMaps(schema, value)];
}
