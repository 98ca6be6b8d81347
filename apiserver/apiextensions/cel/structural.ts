/**
 * The minimal view of a CRD structural schema (JSONSchemaProps as plain objects) that CEL
 * validation needs, so this package does not depend on the schema engine's own types (any
 * JSONSchemaProps is a StructuralLike).
 */

/** ValidationRuleLike is one `x-kubernetes-validations` entry. */
export interface ValidationRuleLike {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** StructuralLike is a schema node. */
export interface StructuralLike {
  type?: string;
  format?: string;
  nullable?: boolean;
  properties?: Record<string, StructuralLike>;
  items?: StructuralLike | StructuralLike[];
  additionalProperties?: StructuralLike | boolean;
  'x-kubernetes-validations'?: ValidationRuleLike[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
}

/** itemsOf is the single items schema of an array node. */
export function itemsOf(s: StructuralLike | undefined): StructuralLike | undefined {
  const items = s?.items;
  return items && !Array.isArray(items) ? items : undefined;
}

/** additionalOf is the additionalProperties schema of a map node. */
export function additionalOf(s: StructuralLike | undefined): StructuralLike | undefined {
  const additional = s?.additionalProperties;
  return typeof additional === 'object' ? additional : undefined;
}

/** isPlainObject: a decoded JSON object. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

const STRING: StructuralLike = { type: 'string' };

/** withTypeAndObjectMeta makes apiVersion, kind, metadata.name and metadata.generateName visible
 * at a resource root (the CR root or an embedded resource), replacing any other metadata schema,
 * as Kubernetes' WithTypeAndObjectMeta does. */
export function withTypeAndObjectMeta(s: StructuralLike): StructuralLike {
  const meta = s.properties?.['metadata'];
  const complete =
    s.properties?.['kind']?.type === 'string' &&
    s.properties['apiVersion']?.type === 'string' &&
    meta?.type === 'object' &&
    meta.properties?.['name']?.type === 'string' &&
    meta.properties['generateName']?.type === 'string';
  if (complete) return s;
  return {
    ...s,
    properties: {
      ...s.properties,
      kind: STRING,
      apiVersion: STRING,
      metadata: { type: 'object', properties: { name: STRING, generateName: STRING } },
    },
  };
}
