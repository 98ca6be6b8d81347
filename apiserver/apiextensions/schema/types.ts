/**
 * JSONSchemaProps: the OpenAPI v3 schema of one CustomResourceDefinition version
 * (apiextensions.k8s.io/v1 JSONSchemaProps, as written in `openAPIV3Schema`), plus the small
 * JSON helpers every part of the schema engine shares.
 *
 * The fields CRDs reject (`id`, `$schema`, `$ref`, `patternProperties`, `dependencies`,
 * `additionalItems`, `definitions`, and `items` as an array) are typed too, so that
 * validateSchemaDefinition can name them in its errors as kube-apiserver does.
 */

/** ValidationRule is one `x-kubernetes-validations` entry (a CEL rule, evaluated elsewhere). */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  /** FieldValueInvalid (default), FieldValueForbidden, FieldValueRequired or FieldValueDuplicate. */
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface ExternalDocumentation {
  description?: string;
  url?: string;
}

export interface JSONSchemaProps {
  id?: string;
  $schema?: string;
  $ref?: string;
  description?: string;
  type?: string;
  format?: string;
  title?: string;
  /** A default value; `null` counts as no default, as in Kubernetes. */
  default?: unknown;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: unknown[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  items?: JSONSchemaProps | JSONSchemaProps[];
  allOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  patternProperties?: Record<string, JSONSchemaProps>;
  dependencies?: Record<string, JSONSchemaProps | string[]>;
  additionalItems?: JSONSchemaProps | boolean;
  definitions?: Record<string, JSONSchemaProps>;
  externalDocs?: ExternalDocumentation;
  example?: unknown;
  nullable?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
}

/** JsonObject is a decoded JSON object. */
export type JsonObject = Record<string, unknown>;

/** isObject: a JSON object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** hasDefault: the schema sets a non-null default (Kubernetes treats `default: null` as unset). */
export function hasDefault(schema: JSONSchemaProps | undefined): boolean {
  return schema?.default !== undefined && schema.default !== null;
}

/** itemsSchema is the single `items` schema (an array of schemas is not structural). */
export function itemsSchema(schema: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  const items = schema?.items;
  return items && !Array.isArray(items) ? items : undefined;
}

/** additionalPropertiesSchema is `additionalProperties` when it is a schema. */
export function additionalPropertiesSchema(schema: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  const additional = schema?.additionalProperties;
  return typeof additional === 'object' ? additional : undefined;
}

/** preservesUnknownFields: `x-kubernetes-preserve-unknown-fields: true`. */
export const preservesUnknownFields = (schema: JSONSchemaProps | undefined): boolean => schema?.['x-kubernetes-preserve-unknown-fields'] === true;

/** isEmbeddedResource: `x-kubernetes-embedded-resource: true`. */
export const isEmbeddedResource = (schema: JSONSchemaProps | undefined): boolean => schema?.['x-kubernetes-embedded-resource'] === true;

/** isIntOrString: `x-kubernetes-int-or-string: true`. */
export const isIntOrString = (schema: JSONSchemaProps | undefined): boolean => schema?.['x-kubernetes-int-or-string'] === true;

/** deepCopyJson copies a JSON value (defaults are copied before they are inserted). */
export function deepCopyJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** META_FIELDS are the TypeMeta/ObjectMeta fields of a resource (root or embedded). */
export const META_FIELDS: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata']);
