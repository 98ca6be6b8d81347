/**
 * SchemaNode is the JSON-schema view of a kind's zod schema (produced once per kind by
 * `z.toJSONSchema`), walked by strategic merge patch, unknown-field detection and the
 * OpenAPI generator. Only the subset those walkers need is typed.
 */
import { z } from 'zod';

export interface SchemaNode {
  type?: string | string[];
  description?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
  $ref?: string;
  anyOf?: SchemaNode[];
  allOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  enum?: unknown[];
  default?: unknown;
  format?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  [extension: string]: unknown;
}

/** SchemaDocument is a root schema plus the named definitions its `$ref`s point to
 * (`#/definitions/<id>`, the ids given with `.meta({ id })`). */
export interface SchemaDocument {
  root: SchemaNode;
  definitions: Record<string, SchemaNode>;
}

const REF_PREFIX = '#/definitions/';

/** toSchemaDocument converts a zod schema into its JSON-schema document (input shape,
 * OpenAPI 3.0 flavour). Unrepresentable parts (transforms) become `{}`. */
export function toSchemaDocument(schema: z.ZodType): SchemaDocument {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as SchemaNode & {
    definitions?: Record<string, SchemaNode>;
  };
  const { definitions = {}, ...root } = json;
  return { root, definitions };
}

/** deref follows `$ref` (and a lone `allOf: [{$ref}]`) until it reaches a concrete node. */
export function deref(node: SchemaNode | undefined, doc: SchemaDocument): SchemaNode | undefined {
  let current = node;
  for (let hops = 0; current && hops < 32; hops++) {
    if (current.$ref?.startsWith(REF_PREFIX)) {
      current = doc.definitions[current.$ref.slice(REF_PREFIX.length)];
    } else if (current.allOf?.length === 1 && !current.properties) {
      current = current.allOf[0];
    } else {
      return current;
    }
  }
  return current;
}

/** childSchema returns the schema of property `key` of an object node: a declared
 * property, else a map's value schema (`additionalProperties`). */
export function childSchema(node: SchemaNode | undefined, key: string, doc: SchemaDocument): SchemaNode | undefined {
  const resolved = deref(node, doc);
  if (!resolved) return undefined;
  const declared = resolved.properties?.[key];
  if (declared) return deref(declared, doc) ?? declared;
  if (typeof resolved.additionalProperties === 'object') return deref(resolved.additionalProperties, doc);
  return undefined;
}

/** itemSchema returns the schema of a list node's items. */
export function itemSchema(node: SchemaNode | undefined, doc: SchemaDocument): SchemaNode | undefined {
  const resolved = deref(node, doc);
  return resolved?.items ? deref(resolved.items, doc) : undefined;
}

const documentCache = new WeakMap<z.ZodType, SchemaDocument>();

/** schemaDocumentOf converts a zod schema once and caches the result (schemas are immutable). */
export function schemaDocumentOf(schema: z.ZodType): SchemaDocument {
  let doc = documentCache.get(schema);
  if (!doc) documentCache.set(schema, (doc = toSchemaDocument(schema)));
  return doc;
}

/** schemaDocumentFor is the JSON-schema document of a served kind: its `openApiSchema`
 * (custom resources, from their CRD) or the document derived from its zod schema. Every
 * walker (patches, apply, unknown fields, OpenAPI) reads a kind's shape through this. */
export function schemaDocumentFor(def: { schema: z.ZodType<any>; openApiSchema?: SchemaDocument }): SchemaDocument {
  return def.openApiSchema ?? schemaDocumentOf(def.schema);
}
