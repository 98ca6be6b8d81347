/**
 * The per-node checks kube-apiserver runs on every CRD schema node
 * (ValidateCustomResourceDefinitionOpenAPISchema with the rules new CRDs get): unsupported
 * keywords, defaults where they are not allowed (top-level metadata, maps inside metadata),
 * properties together with additionalProperties, and the x-kubernetes-* extensions'
 * consistency (list types, map keys, map types, preserve-unknown-fields, validations).
 */
import type { FieldError } from '../../api/resource-definition.js';
import { forbidden, invalid, notSupported, required } from '../../api/validation.js';
import { child, index, key } from './field-errors.js';
import { hasDefault, isEmbeddedResource, itemsSchema, type JSONSchemaProps, META_FIELDS } from './types.js';
import { validateRules } from './validation-rules.js';

const TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];

/** Context is the state kube-apiserver's specStandardValidator carries down the schema. */
export interface Context {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
}

export const ROOT_CONTEXT: Context = { allowDefaults: true, disallowDefaultsReason: '', insideResourceMeta: false };

const forbidDefaults = (ctx: Context, reason: string): Context => ({ ...ctx, allowDefaults: false, disallowDefaultsReason: reason });

/** checkSchema checks one node and, recursively, everything below it. */
export function checkSchema(s: JSONSchemaProps, path: string, ctx: Context, isRoot: boolean): FieldError[] {
  const errors = [...keywordErrors(s, path, ctx)];
  if (s.uniqueItems) errors.push(forbidden(child(path, 'uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  if (s.additionalProperties !== undefined) {
    if (Object.keys(s.properties ?? {}).length > 0 && s.additionalProperties !== true) {
      errors.push(forbidden(child(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    const sub = ctx.insideResourceMeta ? forbidDefaults(ctx, 'inside additionalProperties applying to object metadata') : ctx;
    if (typeof s.additionalProperties === 'object') errors.push(...checkSchema(s.additionalProperties, child(path, 'additionalProperties'), sub, false));
  }
  for (const [name, property] of Object.entries(s.properties ?? {})) {
    let sub = ctx;
    if ((isRoot || isEmbeddedResource(s)) && META_FIELDS.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = forbidDefaults(sub, `in top-level ${name}`);
    }
    errors.push(...checkSchema(property, key(child(path, 'properties'), name), sub, false));
  }
  if (s.not) errors.push(...checkSchema(s.not, child(path, 'not'), ctx, false));
  for (const junctor of ['allOf', 'oneOf', 'anyOf'] as const) {
    s[junctor]?.forEach((x, i) => errors.push(...checkSchema(x, index(child(path, junctor), i), ctx, false)));
  }
  for (const [name, definition] of Object.entries(s.definitions ?? {}))
    errors.push(...checkSchema(definition, key(child(path, 'definitions'), name), ctx, false));
  if (Array.isArray(s.items)) s.items.forEach((x, i) => errors.push(...checkSchema(x, index(child(path, 'items'), i), ctx, false)));
  else if (s.items) errors.push(...checkSchema(s.items, child(path, 'items'), ctx, false));
  for (const [name, dependency] of Object.entries(s.dependencies ?? {})) {
    if (!Array.isArray(dependency)) errors.push(...checkSchema(dependency, key(child(path, 'dependencies'), name), ctx, false));
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false)
    errors.push(invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  errors.push(...mapTypeErrors(s, path), ...listTypeErrors(s, path), ...listMapErrors(s, path), ...mapListKeyDefaults(s, path), ...validateRules(s, path));
  return errors;
}

/** keywordErrors: what a CRD schema node may not use at all. */
function keywordErrors(s: JSONSchemaProps, path: string, ctx: Context): FieldError[] {
  const errors: FieldError[] = [];
  if (s.type && !TYPES.includes(s.type)) errors.push(notSupported(child(path, 'type'), s.type, TYPES));
  if (hasDefault(s) && !ctx.allowDefaults) {
    errors.push(forbidden(child(path, 'default'), `must not be set${ctx.disallowDefaultsReason ? ` ${ctx.disallowDefaultsReason}` : ''}`));
  }
  if (s.id) errors.push(forbidden(child(path, 'id'), 'id is not supported'));
  if (s.additionalItems !== undefined) errors.push(forbidden(child(path, 'additionalItems'), 'additionalItems is not supported'));
  if (Object.keys(s.patternProperties ?? {}).length > 0) errors.push(forbidden(child(path, 'patternProperties'), 'patternProperties is not supported'));
  if (Object.keys(s.definitions ?? {}).length > 0) errors.push(forbidden(child(path, 'definitions'), 'definitions is not supported'));
  if (s.dependencies !== undefined) errors.push(forbidden(child(path, 'dependencies'), 'dependencies is not supported'));
  if (s.$ref !== undefined) errors.push(forbidden(child(path, '$ref'), '$ref is not supported'));
  if (s.type === 'null') errors.push(forbidden(child(path, 'type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length > 0) errors.push(forbidden(child(path, 'items'), 'items must be a schema object and not an array'));
  if (ctx.insideResourceMeta && isEmbeddedResource(s))
    errors.push(forbidden(child(path, 'x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  return errors;
}

/** typeMismatch is the Required (no type) or Invalid (other type) error for an extension that needs `type`. */
function typeMismatch(s: JSONSchemaProps, path: string, why: string): FieldError {
  return s.type ? invalid(child(path, 'type'), s.type, why) : { ...required(child(path, 'type')), detail: why };
}

function mapTypeErrors(s: JSONSchemaProps, path: string): FieldError[] {
  const mapType = s['x-kubernetes-map-type'];
  if (mapType === undefined) return [];
  const errors: FieldError[] = [];
  if (s.type !== 'object') errors.push(typeMismatch(s, path, 'must be object if x-kubernetes-map-type is specified'));
  if (mapType !== 'atomic' && mapType !== 'granular') errors.push(notSupported(child(path, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  return errors;
}

function listTypeErrors(s: JSONSchemaProps, path: string): FieldError[] {
  const listType = s['x-kubernetes-list-type'];
  if (listType === undefined) return [];
  const errors: FieldError[] = [];
  const items = itemsSchema(s);
  if (s.type !== 'array') {
    errors.push(typeMismatch(s, path, 'must be array if x-kubernetes-list-type is specified'));
  } else if (listType === 'set' && items) {
    const why = 'must be atomic as item of a list with x-kubernetes-list-type=set';
    const itemListType = items['x-kubernetes-list-type'];
    if (items.type === 'array' && itemListType !== undefined && itemListType !== 'atomic') {
      errors.push(invalid(child(child(path, 'items'), 'x-kubernetes-list-type'), itemListType, why));
    } else if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      // kube-apiserver reports the items' list type here (usually unset), not their map type.
      errors.push(invalid(child(child(path, 'items'), 'x-kubernetes-map-type'), itemListType ?? null, why));
    }
  }
  if (!['atomic', 'set', 'map'].includes(listType)) errors.push(notSupported(child(path, 'x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  return errors;
}

function listMapErrors(s: JSONSchemaProps, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const listType = s['x-kubernetes-list-type'];
  const keys = s['x-kubernetes-list-map-keys'] ?? [];
  const keysPath = child(path, 'x-kubernetes-list-map-keys');
  if (keys.length > 0) {
    const why = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (listType === undefined) errors.push({ ...required(child(path, 'x-kubernetes-list-type')), detail: why });
    else if (listType !== 'map') errors.push(invalid(child(path, 'x-kubernetes-list-type'), listType, why));
  }
  if (listType !== 'map') return errors;
  if (keys.length === 0) errors.push({ ...required(keysPath), detail: 'must not be empty if x-kubernetes-list-type is map' });
  if (s.items === undefined) errors.push({ ...required(child(path, 'items')), detail: 'must have a schema if x-kubernetes-list-type is map' });
  if (Array.isArray(s.items)) errors.push(invalid(child(path, 'items'), s.items, 'must only have a single schema if x-kubernetes-list-type is map'));
  const items = itemsSchema(s);
  if (!items) return errors;
  if (items.type !== 'object') {
    errors.push(invalid(child(child(path, 'items'), 'type'), items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
    return errors;
  }
  const seen = new Set<string>();
  for (const k of keys) {
    const property = items.properties?.[k];
    if (!property) errors.push(invalid(keysPath, keys, 'entries must all be names of item properties'));
    else if (property.type === 'array' || property.type === 'object') {
      // kube-apiserver reports the items' type as the value here.
      errors.push(
        invalid(
          child(key(child(child(path, 'items'), 'properties'), k), 'type'),
          items.type,
          "must be a scalar type if parent array's x-kubernetes-list-type is map",
        ),
      );
    }
    if (seen.has(k)) errors.push(invalid(keysPath, keys, 'must not contain duplicate entries'));
    seen.add(k);
  }
  return errors;
}

/** mapListKeyDefaults: items of sets and maps are not nullable, and map keys are required or defaulted. */
function mapListKeyDefaults(s: JSONSchemaProps, path: string): FieldError[] {
  const listType = s['x-kubernetes-list-type'];
  const items = itemsSchema(s);
  if (!items || (listType !== 'set' && listType !== 'map')) return [];
  const errors: FieldError[] = [];
  const itemsPath = child(path, 'items');
  if (items.nullable) errors.push(forbidden(child(itemsPath, 'nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType !== 'map') return errors;
  for (const k of s['x-kubernetes-list-map-keys'] ?? []) {
    const property = items.properties?.[k];
    if (!property) continue;
    const at = key(child(itemsPath, 'properties'), k);
    if (!(items.required ?? []).includes(k) && !hasDefault(property)) {
      errors.push({
        ...required(child(at, 'default')),
        detail: 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
      });
    }
    if (property.nullable) errors.push(forbidden(child(at, 'nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
  }
  return errors;
}
