/**
 * A port of kube-openapi's SchemaValidator, which kube-apiserver runs over every custom
 * resource: per schema node the type, allOf/anyOf/oneOf/not, string, format, number, list,
 * enum and object validators run in that order, each only for the values it applies to, and
 * every error is kept (a wrong type does not stop the other checks). Paths are kube-openapi's
 * (`spec.items[0].name`); openapi-errors.ts turns the result into field errors.
 */
import { deepEqual } from '../../api/deep-equal.js';
import type { FieldError } from '../../api/resource-definition.js';
import { effectiveFormat } from './formats.js';
import { isGoInt } from './go-format.js';
import { composite, failure, openapi, Result, toFieldErrors } from './openapi-errors.js';
import { formatApplies, validateFormat, validateNumber, validateString } from './scalar-validators.js';
import { additionalPropertiesSchema, itemsSchema, type JSONSchemaProps, type JsonObject } from './types.js';

/** validateAgainstSchema validates a value against a schema as kube-apiserver's
 * ValidateCustomResource does; `base` is the field path the value sits at (undefined for a
 * whole object, whose non-field errors then read `<nil>: Invalid value: ""`). */
export function validateAgainstSchema(schema: JSONSchemaProps, value: unknown, base?: string): FieldError[] {
  return toFieldErrors(validateNode(schema, value, '').errors, base);
}

type Kind = 'string' | 'boolean' | 'int' | 'float' | 'slice' | 'map';

function kindOf(value: unknown): Kind {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return isGoInt(value) ? 'int' : 'float';
  return Array.isArray(value) ? 'slice' : 'map';
}

/** JSON_TYPE names a kind as kube-openapi's type errors do, with its implied format. */
const JSON_TYPE: Record<Kind, [type: string, format: string]> = {
  string: ['string', ''],
  boolean: ['boolean', ''],
  int: ['integer', 'int64'],
  float: ['number', 'float64'],
  slice: ['array', ''],
  map: ['object', ''],
};

/** schemaTypes: int-or-string means integer or string. */
function schemaTypes(schema: JSONSchemaProps): string[] {
  if (schema['x-kubernetes-int-or-string']) return ['integer', 'string'];
  return schema.type ? [schema.type] : [];
}

/** validateNode runs every applicable validator of one schema node over one value. */
export function validateNode(schema: JSONSchemaProps, data: unknown, path: string): Result {
  const result = new Result();
  if (data === null || data === undefined) {
    result.merge(validateType(schema, null, path), validateEnum(schema, null, path));
    return result;
  }
  const kind = kindOf(data);
  const run = (applies: boolean, validate: () => Result | undefined) => {
    if (!applies) return;
    result.merge(validate());
    result.matchCount++;
  };
  run(schemaTypes(schema).length > 0 || effectiveFormat(schema) !== '', () => validateType(schema, data, path));
  run(true, () => validateSchemaProps(schema, data, path));
  run(kind === 'string', () => validateString(schema, data as string, path));
  run(kind === 'string' && formatApplies(schema), () => validateFormat(schema, data as string, path));
  run(kind === 'int' || kind === 'float', () => validateNumber(schema, data as number, path));
  run(kind === 'slice', () => validateSlice(schema, data as unknown[], path));
  run(true, () => validateEnum(schema, data, path));
  run(kind === 'map', () => validateObject(schema, data as JsonObject, path));
  result.matchCount++;
  return result;
}

/** validateType is kube-openapi's typeValidator, quirks included: a format mismatch on a
 * non-string value is reported against the format name (`must be of type int32: "float64"`). */
function validateType(schema: JSONSchemaProps, data: unknown, path: string): Result {
  const types = schemaTypes(schema);
  if (data === null) {
    if (types.length > 0 && !schema.nullable) return failure(openapi.invalidType(path, types.join(','), 'null'));
    return Object.assign(new Result(), { matchCount: 1 });
  }
  const kind = kindOf(data);
  const [type, format] = JSON_TYPE[kind];
  const schemaFormat = effectiveFormat(schema);
  const isIntFloat = type === 'integer' && types.includes('number');
  const textual = kind === 'string' || kind === 'slice';
  if (!textual && schemaFormat && !(types.includes(type) || format === schemaFormat || isIntFloat)) {
    return failure(openapi.invalidType(path, schemaFormat, format));
  }
  if (!(types.includes('number') || types.includes('integer')) && schemaFormat && textual) return new Result();
  if (!(types.includes(type) || isIntFloat)) return failure(openapi.invalidType(path, types.join(','), type));
  return Object.assign(new Result(), { matchCount: 1 });
}

/** validateSchemaProps evaluates anyOf, oneOf, allOf and not. On failure it reports the
 * composite message plus the errors of the alternative that matched best. */
function validateSchemaProps(schema: JSONSchemaProps, data: unknown, path: string): Result {
  const main = new Result();
  if (schema.anyOf?.length) {
    const results = schema.anyOf.map((alternative) => validateNode(alternative, data, path));
    const success = results.find((r) => r.valid);
    if (!success) main.add(composite.anyOf(path));
    main.merge(success ?? best(results));
  }
  if (schema.oneOf?.length) {
    const results = schema.oneOf.map((alternative) => validateNode(alternative, data, path));
    const valid = results.filter((r) => r.valid);
    if (valid.length !== 1) {
      main.add(composite.oneOf(path, valid.length === 0 ? 'Found none valid' : `Found ${valid.length} valid alternatives`));
      if (valid.length === 0) main.merge(best(results));
    } else {
      main.merge(valid[0]);
    }
  }
  if (schema.allOf?.length) {
    const results = schema.allOf.map((part) => validateNode(part, data, path));
    const validated = results.filter((r) => r.valid).length;
    main.merge(...results);
    if (validated !== results.length) main.add(composite.allOf(path, validated === 0 ? '. None validated' : ''));
  }
  if (schema.not && validateNode(schema.not, data, path).valid) main.add(composite.not(path));
  main.matchCount++;
  return main;
}

/** best is the failed alternative with the most passing checks (the first on a tie). */
function best(results: Result[]): Result | undefined {
  return results.reduce<Result | undefined>((top, r) => (!top || r.matchCount > top.matchCount ? r : top), undefined);
}

function validateSlice(schema: JSONSchemaProps, data: unknown[], path: string): Result {
  const result = new Result();
  const items = itemsSchema(schema);
  if (items) data.forEach((item, i) => result.merge(validateNode(items, item, `${path}[${i}]`)));
  if (schema.minItems !== undefined && data.length < schema.minItems) result.add(openapi.minItems(path, schema.minItems, data.length));
  if (schema.maxItems !== undefined && data.length > schema.maxItems) result.add(openapi.maxItems(path, schema.maxItems, data.length));
  if (schema.uniqueItems && data.some((item, i) => data.findIndex((other) => deepEqual(other, item)) !== i)) result.add(openapi.unique(path));
  result.matchCount++;
  return result;
}

function validateEnum(schema: JSONSchemaProps, data: unknown, path: string): Result | undefined {
  if (!schema.enum?.length) return undefined;
  if (schema.enum.some((allowed) => deepEqual(allowed, data))) return undefined;
  return failure(openapi.enum(path, data, schema.enum));
}

/** validateObject checks property counts, unknown keys (additionalProperties), each property
 * and the required ones. Properties are visited in schema order, extra keys in value order. */
function validateObject(schema: JSONSchemaProps, data: JsonObject, path: string): Result {
  const result = new Result();
  const keys = Object.keys(data).filter((k) => data[k] !== undefined);
  const properties = schema.properties ?? {};
  if (schema.minProperties !== undefined && keys.length < schema.minProperties) result.add(openapi.tooFewProperties(path, schema.minProperties, keys.length));
  if (schema.maxProperties !== undefined && keys.length > schema.maxProperties) result.add(openapi.tooManyProperties(path, schema.maxProperties, keys.length));
  const extra = keys.filter((k) => !Object.hasOwn(properties, k));
  const additional = additionalPropertiesSchema(schema);
  if (schema.additionalProperties === false) {
    for (const k of extra) result.add(openapi.unallowedProperty(path, k));
  } else if (additional) {
    for (const k of extra) result.merge(validateNode(additional, data[k], `${path}.${k}`));
  }
  for (const [name, property] of Object.entries(properties)) {
    if (data[name] !== undefined) result.merge(validateNode(property, data[name], path ? `${path}.${name}` : name));
  }
  for (const name of schema.required ?? []) {
    if (!keys.includes(name)) result.add(openapi.required(`${path}.${name}`));
  }
  return result;
}
