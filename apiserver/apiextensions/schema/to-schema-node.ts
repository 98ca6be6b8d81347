/**
 * The published view of a CRD version's schema, as kube-apiserver's OpenAPI builder makes it:
 * the structural schema with its x-kubernetes-* extensions (server-side apply and patch
 * walkers read list types, map keys and map types from them), int-or-string unfolded into
 * `anyOf: [integer, string]`, TypeMeta and an ObjectMeta `$ref` added at the root and in every
 * embedded resource, and the kind's definition named like Kubernetes' model names
 * (`com.example.stable.v1.CronTab`).
 */
import { ObjectMetaSchema } from '../../api/meta.js';
import { type SchemaDocument, type SchemaNode, schemaDocumentOf } from '../../api/schema-node.js';
import type { JSONSchemaProps } from './types.js';

const CONVENTIONS = 'https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md';
const METADATA_DESCRIPTION = `Standard object's metadata. More info: ${CONVENTIONS}#metadata`;
const ROOT_TYPE_META: Record<'apiVersion' | 'kind', string> = {
  apiVersion: `APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: ${CONVENTIONS}#resources`,
  kind: `Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: ${CONVENTIONS}#types-kinds`,
};
const EMBEDDED_TYPE_META: Record<'apiVersion' | 'kind', string> = {
  apiVersion: `apiVersion defines the versioned schema of this representation of an object. More info: ${CONVENTIONS}#resources`,
  kind: `kind is a string value representing the type of this object. In CamelCase. More info: ${CONVENTIONS}#types-kinds`,
};

/** SCHEMA_LISTS and SCHEMA_FIELDS are the keywords whose values are schemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
const SCHEMA_FIELDS = ['not', 'additionalProperties'] as const;

/** toSchemaDocument converts a CRD version's schema into the SchemaDocument the server's
 * OpenAPI, unknown-field, apply and patch code walk. */
export function toSchemaDocument(schema: JSONSchemaProps, gvk: { group: string; version: string; kind: string }): SchemaDocument {
  const meta = schemaDocumentOf(ObjectMetaSchema);
  const objectMetaRef = meta.root.$ref ?? '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
  const root = toSchemaNode(schema, objectMetaRef);
  root.properties = {
    ...root.properties,
    apiVersion: { description: ROOT_TYPE_META.apiVersion, type: 'string' },
    kind: { description: ROOT_TYPE_META.kind, type: 'string' },
    metadata: { $ref: objectMetaRef, description: METADATA_DESCRIPTION },
  };
  root['x-kubernetes-group-version-kind'] = [{ group: gvk.group, kind: gvk.kind, version: gvk.version }];
  const id = modelName(gvk);
  return { root: { $ref: `#/definitions/${id}` }, definitions: { ...meta.definitions, [id]: root } };
}

/** modelName is Kubernetes' definition name of a CRD kind: the group reversed, version, kind. */
export function modelName(gvk: { group: string; version: string; kind: string }): string {
  return `${gvk.group.split('.').reverse().join('.')}.${gvk.version}.${gvk.kind}`;
}

/** toSchemaNode converts one schema node (recursively). */
function toSchemaNode(schema: JSONSchemaProps, objectMetaRef: string): SchemaNode {
  const node: SchemaNode = {};
  for (const [k, value] of Object.entries(schema)) {
    if (value === undefined || (k === 'default' && value === null)) continue;
    node[k] = value;
  }
  if (schema.properties) {
    node.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, toSchemaNode(v, objectMetaRef)]));
  }
  if (schema.items && !Array.isArray(schema.items)) node.items = toSchemaNode(schema.items, objectMetaRef);
  for (const field of SCHEMA_LISTS) {
    if (schema[field]) node[field] = schema[field].map((v) => toSchemaNode(v, objectMetaRef));
  }
  for (const field of SCHEMA_FIELDS) {
    const value = schema[field];
    if (typeof value === 'object') node[field] = toSchemaNode(value, objectMetaRef);
  }
  unfoldIntOrString(node);
  if (schema['x-kubernetes-embedded-resource']) addEmbeddedProperties(node, objectMetaRef);
  return node;
}

const INT_OR_STRING: SchemaNode[] = [{ type: 'integer' }, { type: 'string' }];

const isIntOrStringPattern = (branches: SchemaNode[] | undefined) =>
  branches?.length === 2 && branches[0]?.type === 'integer' && branches[1]?.type === 'string' && branches.every((b) => Object.keys(b).length === 1);

/** unfoldIntOrString spells out x-kubernetes-int-or-string as the anyOf it stands for. */
function unfoldIntOrString(node: SchemaNode): void {
  if (node['x-kubernetes-int-or-string'] !== true) return;
  if (isIntOrStringPattern(node.anyOf) || isIntOrStringPattern(node.allOf?.[0]?.anyOf)) return;
  if (!node.anyOf) node.anyOf = INT_OR_STRING.map((b) => ({ ...b }));
  else node.allOf = [{ anyOf: INT_OR_STRING.map((b) => ({ ...b })) }, ...(node.allOf ?? [])];
}

/** addEmbeddedProperties gives an embedded resource its TypeMeta and ObjectMeta, both required but metadata. */
function addEmbeddedProperties(node: SchemaNode, objectMetaRef: string): void {
  node.properties = {
    ...node.properties,
    apiVersion: { description: EMBEDDED_TYPE_META.apiVersion, type: 'string' },
    kind: { description: EMBEDDED_TYPE_META.kind, type: 'string' },
    metadata: { $ref: objectMetaRef, description: METADATA_DESCRIPTION },
  };
  const requiredFields = [...(node.required ?? [])];
  for (const field of ['kind', 'apiVersion']) if (!requiredFields.includes(field)) requiredFields.push(field);
  node.required = requiredFields;
}
