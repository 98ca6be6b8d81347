/**
 * validateSchemaDefinition: kube-apiserver's validation of one CRD version's openAPIV3Schema,
 * in its order: the structural rules (then, only if they hold, the defaults), then the
 * per-node keyword and extension checks. When the schema cannot even be read as structural
 * (an unsupported keyword), the structural and default checks are skipped and the reason is
 * reported only if nothing else was. The root's `nullable` and the status-subresource
 * restrictions belong to the CRD's own validation.
 */
import type { FieldError } from '../../api/resource-definition.js';
import { checkSchema, ROOT_CONTEXT } from './openapi-checks.js';
import { validateStructural } from './structural.js';
import { itemsSchema, type JSONSchemaProps } from './types.js';
import { validateDefaults } from './validate-defaults.js';

/** validateSchemaDefinition checks a CRD schema; `path` is where it sits in the CRD
 * (`spec.versions[0].schema.openAPIV3Schema`). */
export function validateSchemaDefinition(schema: JSONSchemaProps, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const unreadable = structuralConversionError(schema);
  if (!unreadable) {
    const structural = validateStructural(schema, path);
    errors.push(...(structural.length > 0 ? structural : validateDefaults(schema, path)));
  }
  errors.push(...checkSchema(schema, path, ROOT_CONTEXT, true));
  if (errors.length === 0 && unreadable) errors.push({ type: 'FieldValueInvalid', field: path, value: '', detail: unreadable });
  return errors;
}

/** structuralConversionError is why a schema cannot be converted to a structural one
 * (NewStructural's error), or undefined. */
function structuralConversionError(s: JSONSchemaProps | undefined): string | undefined {
  if (!s) return undefined;
  const unsupported: Array<[boolean, string]> = [
    [!!s.id, 'id'],
    [!!s.$schema, 'schema'],
    [!!s.$ref, '$ref'],
    [Object.keys(s.patternProperties ?? {}).length > 0, 'patternProperties'],
    [Object.keys(s.dependencies ?? {}).length > 0, 'dependencies'],
    [s.additionalItems !== undefined, 'additionalItems'],
    [Object.keys(s.definitions ?? {}).length > 0, 'definitions'],
  ];
  const found = unsupported.find(([set]) => set);
  if (found) return `OpenAPIV3Schema '${found[1]}' is not supported`;
  if (s['x-kubernetes-preserve-unknown-fields'] === false) return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  if (Array.isArray(s.items) && s.items.length > 0) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  const children = [
    s.not,
    ...(s.allOf ?? []),
    ...(s.anyOf ?? []),
    ...(s.oneOf ?? []),
    itemsSchema(s),
    ...Object.values(s.properties ?? {}),
    typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined,
  ];
  for (const nested of children) {
    const error = structuralConversionError(nested);
    if (error) return error;
  }
  return undefined;
}
