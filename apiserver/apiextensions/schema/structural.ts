/**
 * Structural schema rules (kube-apiserver's ValidateStructural): every specified field has a
 * type (except under x-kubernetes-preserve-unknown-fields or int-or-string), value
 * validations (allOf/anyOf/oneOf/not) carry no types, defaults or extensions, metadata at the
 * root restricts at most name and generateName, and every field a value validation mentions
 * at the root is also specified structurally. Errors are sorted by their text, as there.
 */
import { describeFieldError } from '../../api/api-error.js';
import type { FieldError } from '../../api/resource-definition.js';
import { forbidden, invalid, required } from '../../api/validation.js';
import { child, index, key } from './field-errors.js';
import { compileGoRegexp } from './pattern.js';
import { isEmbeddedResource, isIntOrString, itemsSchema, type JSONSchemaProps, preservesUnknownFields } from './types.js';

type Level = 'root' | 'item' | 'field';

const MISSING_TYPE: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

/** validateStructural checks the structural invariants and completeness of a root schema. */
export function validateStructural(schema: JSONSchemaProps, path: string): FieldError[] {
  const errors = [...invariants(schema, 'root', path), ...completeness(schema, schema, path, path)];
  const text = (e: FieldError) => `${e.field}: ${describeFieldError(e)}`;
  return errors.sort((a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0));
}

function invariants(s: JSONSchemaProps, level: Level, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const items = itemsSchema(s);
  if (s.type === 'array' && !items) errors.push({ ...required(child(path, 'items')), detail: 'must be specified' });
  if (items) errors.push(...invariants(items, 'item', child(path, 'items')));
  for (const [k, property] of Object.entries(s.properties ?? {})) errors.push(...invariants(property, 'field', key(child(path, 'properties'), k)));
  if (s.additionalProperties !== undefined) {
    if (level === 'root') errors.push(forbidden(child(path, 'additionalProperties'), 'must not be used at the root'));
    if (typeof s.additionalProperties === 'object') errors.push(...invariants(s.additionalProperties, 'field', child(path, 'additionalProperties')));
  }
  errors.push(...extensionErrors(s, path));
  errors.push(...valueValidation(s, isIntOrStringAnyOf(s), isIntOrStringAllOf(s), path));
  errors.push(...typeErrors(s, level, path));
  errors.push(...metaErrors(s, level, path));
  if (isEmbeddedResource(s) && !preservesUnknownFields(s) && Object.keys(s.properties ?? {}).length === 0) {
    errors.push({
      ...required(child(path, 'properties')),
      detail: 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
    });
  }
  return errors;
}

function extensionErrors(s: JSONSchemaProps, path: string): FieldError[] {
  if (!isIntOrString(s)) return [];
  const errors: FieldError[] = [];
  const why = 'must be false if x-kubernetes-int-or-string is true';
  if (preservesUnknownFields(s)) errors.push(invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), true, why));
  if (isEmbeddedResource(s)) errors.push(invalid(child(path, 'x-kubernetes-embedded-resource'), true, why));
  return errors;
}

function typeErrors(s: JSONSchemaProps, level: Level, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const type = s.type ?? '';
  if (isEmbeddedResource(s) && type !== 'object') {
    const why = 'must be object if x-kubernetes-embedded-resource is true';
    errors.push(type ? invalid(child(path, 'type'), type, why) : { ...required(child(path, 'type')), detail: why });
  } else if (!type && !isIntOrString(s) && !preservesUnknownFields(s)) {
    errors.push({ ...required(child(path, 'type')), detail: MISSING_TYPE[level] });
  }
  if (isEmbeddedResource(s) && s.additionalProperties !== undefined) {
    errors.push(forbidden(child(path, 'additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (level === 'root' && type && type !== 'object') errors.push(invalid(child(path, 'type'), type, 'must be object at the root'));
  return errors;
}

/** metaErrors: apiVersion and kind are strings and metadata an object at the root and in
 * embedded resources; at the root metadata may restrict name and generateName only. */
function metaErrors(s: JSONSchemaProps, level: Level, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const checkMetadata = level === 'root' || isEmbeddedResource(s);
  const properties = child(path, 'properties');
  for (const field of ['kind', 'apiVersion']) {
    const property = s.properties?.[field];
    if (property && checkMetadata && property.type !== 'string')
      errors.push(invalid(child(key(properties, field), 'type'), property.type ?? '', 'must be string'));
  }
  const metadata = s.properties?.['metadata'];
  if (!metadata) return errors;
  const at = key(properties, 'metadata');
  if (checkMetadata && metadata.type !== 'object') errors.push(invalid(child(at, 'type'), metadata.type ?? '', 'must be object'));
  if (level === 'root' && !restrictsOnlyNames(metadata)) {
    errors.push(forbidden(at, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
  return errors;
}

function restrictsOnlyNames(metadata: JSONSchemaProps): boolean {
  const { type: _type, default: _default, properties = {}, ...rest } = metadata;
  const names = Object.keys(properties);
  if (names.some((n) => n !== 'name' && n !== 'generateName')) return false;
  return Object.values(rest).every(isZero);
}

function isZero(value: unknown): boolean {
  if (value === undefined || value === false || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

const isOnlyType = (s: JSONSchemaProps | undefined, type: string) =>
  s !== undefined && s.type === type && Object.entries(s).every(([k, v]) => k === 'type' || v === undefined);

/** The two int-or-string shapes whose anyOf may carry types: anyOf [integer, string], or
 * allOf whose first entry is that anyOf. */
const isIntOrStringAnyOf = (s: JSONSchemaProps): boolean => s.anyOf?.length === 2 && isOnlyType(s.anyOf[0], 'integer') && isOnlyType(s.anyOf[1], 'string');
const isIntOrStringAllOf = (s: JSONSchemaProps): boolean => s.allOf?.[0] !== undefined && isIntOrStringAnyOf(s.allOf[0]);

function valueValidation(s: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!skipAnyOf) s.anyOf?.forEach((v, i) => errors.push(...nested(v, false, false, index(child(path, 'anyOf'), i))));
  s.allOf?.forEach((v, i) => errors.push(...nested(v, skipFirstAllOfAnyOf && i === 0, false, index(child(path, 'allOf'), i))));
  s.oneOf?.forEach((v, i) => errors.push(...nested(v, false, false, index(child(path, 'oneOf'), i))));
  if (s.not) errors.push(...nested(s.not, false, false, child(path, 'not')));
  if (s.pattern) {
    const compiled = compileGoRegexp(s.pattern);
    if (typeof compiled === 'string') errors.push(invalid(child(path, 'pattern'), s.pattern, `must be a valid regular expression, but isn't: ${compiled}`));
  }
  return errors;
}

/** FORBIDDEN_NESTED lists what a value validation under allOf/anyOf/oneOf/not may not set. */
const FORBIDDEN_NESTED: Array<[keyof JSONSchemaProps, (v: unknown) => boolean, string]> = [
  ['type', (v) => typeof v === 'string' && v !== '', 'must be empty to be structural'],
  ['default', (v) => v !== undefined && v !== null, 'must be undefined to be structural'],
  ['title', (v) => typeof v === 'string' && v !== '', 'must be empty to be structural'],
  ['description', (v) => typeof v === 'string' && v !== '', 'must be empty to be structural'],
  ['nullable', (v) => v === true, 'must be false to be structural'],
  ['x-kubernetes-preserve-unknown-fields', (v) => v === true, 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', (v) => v === true, 'must be false to be structural'],
  ['x-kubernetes-int-or-string', (v) => v === true, 'must be false to be structural'],
  ['x-kubernetes-list-map-keys', (v) => Array.isArray(v) && v.length > 0, 'must be empty to be structural'],
  ['x-kubernetes-list-type', (v) => v !== undefined, 'must be undefined to be structural'],
  ['x-kubernetes-map-type', (v) => v !== undefined, 'must be undefined to be structural'],
  ['x-kubernetes-validations', (v) => Array.isArray(v) && v.length > 0, 'must be empty to be structural'],
];

function nested(v: JSONSchemaProps, skipAnyOf: boolean, skipAllOfAnyOf: boolean, path: string): FieldError[] {
  const errors = valueValidation(v, skipAnyOf, skipAllOfAnyOf, path);
  const items = itemsSchema(v);
  if (items) errors.push(...nested(items, false, false, child(path, 'items')));
  for (const [k, property] of Object.entries(v.properties ?? {})) errors.push(...nested(property, false, false, key(child(path, 'properties'), k)));
  if (v.additionalProperties !== undefined && v.additionalProperties !== false) {
    errors.push(forbidden(child(path, 'additionalProperties'), 'must be undefined to be structural'));
  }
  for (const [field, isSet, why] of FORBIDDEN_NESTED) {
    if (isSet(v[field])) errors.push(forbidden(child(path, field), why));
  }
  if (v.properties?.['metadata']) errors.push(forbidden(key(child(path, 'properties'), 'metadata'), 'must not be specified in a nested context'));
  return errors;
}

/** completeness: properties and items that the root's value validations mention must exist
 * in the structural part of the schema. */
function completeness(v: JSONSchemaProps, s: JSONSchemaProps, sPath: string, vPath: string): FieldError[] {
  const errors: FieldError[] = [];
  if (v.not) errors.push(...nestedCompleteness(v.not, s, sPath, child(vPath, 'not')));
  v.allOf?.forEach((x, i) => errors.push(...nestedCompleteness(x, s, sPath, index(child(vPath, 'allOf'), i))));
  v.anyOf?.forEach((x, i) => errors.push(...nestedCompleteness(x, s, sPath, index(child(vPath, 'anyOf'), i))));
  v.oneOf?.forEach((x, i) => errors.push(...nestedCompleteness(x, s, sPath, index(child(vPath, 'oneOf'), i))));
  return errors;
}

function nestedCompleteness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string): FieldError[] {
  if (!s) return [{ ...required(sPath), detail: `because it is defined in ${vPath}` }];
  const errors = completeness(v, s, sPath, vPath);
  const items = itemsSchema(v);
  if (items) errors.push(...nestedCompleteness(items, itemsSchema(s), child(sPath, 'items'), child(vPath, 'items')));
  for (const [k, property] of Object.entries(v.properties ?? {})) {
    const sField = key(child(sPath, 'properties'), k);
    const vField = key(child(vPath, 'properties'), k);
    const structural = s.properties?.[k];
    errors.push(
      ...(structural ? nestedCompleteness(property, structural, sField, vField) : [{ ...required(sField), detail: `because it is defined in ${vField}` }]),
    );
  }
  return errors;
}
