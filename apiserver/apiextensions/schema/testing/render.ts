/**
 * Shared by the schema engine's tests: renders field errors as kube-apiserver prints them
 * (`spec.replicas: Invalid value: "string": ...`).
 */
import { describeFieldError } from '../../../api/api-error.js';
import type { FieldError } from '../../../api/resource-definition.js';
import type { JSONSchemaProps } from '../types.js';

/** render prints each error as `field: body`. */
export function render(errors: readonly FieldError[]): string[] {
  return errors.map((e) => `${e.field}: ${describeFieldError(e)}`);
}

/** objectWith wraps property schemas into an object schema. */
export function objectWith(properties: Record<string, JSONSchemaProps>, extra: JSONSchemaProps = {}): JSONSchemaProps {
  return { type: 'object', properties, ...extra };
}
