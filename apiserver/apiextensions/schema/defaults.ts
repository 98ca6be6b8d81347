/**
 * Defaulting, as kube-apiserver's structural defaulting: top-down, a property's default is
 * copied in when the property is missing, or null without `nullable: true`; then defaulting
 * descends into every present value, so defaults of nested fields apply inside an object that
 * was itself just defaulted, but never create a parent that is absent. List items and map
 * values that are null take their schema's default.
 */
import { additionalPropertiesSchema, deepCopyJson, hasDefault, isObject, itemsSchema, type JSONSchemaProps } from './types.js';

/** applyDefaults fills defaults into `value` in place. */
export function applyDefaults(schema: JSONSchemaProps | undefined, value: unknown): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    const items = itemsSchema(schema);
    value.forEach((item, i) => {
      if (isNonNullableNull(item, items) && hasDefault(items)) value[i] = deepCopyJson(items!.default);
      applyDefaults(items, value[i]);
    });
    return;
  }
  if (!isObject(value)) return;
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!hasDefault(property)) continue;
    if (value[name] === undefined || isNonNullableNull(value[name], property)) value[name] = deepCopyJson(property.default);
  }
  const additional = additionalPropertiesSchema(schema);
  for (const k of Object.keys(value)) {
    const property = schema.properties?.[k];
    if (property) {
      applyDefaults(property, value[k]);
    } else if (additional) {
      if (isNonNullableNull(value[k], additional) && hasDefault(additional)) value[k] = deepCopyJson(additional.default);
      applyDefaults(additional, value[k]);
    }
  }
}

/** isNonNullableNull: a null the schema does not allow (defaulting replaces it). */
function isNonNullableNull(value: unknown, schema: JSONSchemaProps | undefined): boolean {
  return value === null && schema !== undefined && !schema.nullable;
}
