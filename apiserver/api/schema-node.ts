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

const MAX_HOPS = 32;

/** ResolveOptions widen what resolveSchema sees through, and let a caller watch the way. */
export interface ResolveOptions {
  /** Also step into the one non-null branch of an `anyOf`/`oneOf` (a nullable field). */
  readonly nullable?: boolean;
  /** Called with every node on the way, the concrete one last (to collect extensions that
   * may sit on the use site or on the definition). */
  readonly visit?: (node: SchemaNode) => void;
}

/**
 * resolveSchema follows `$ref`s (into the document's definitions) and lone `allOf`s — and, with
 * `nullable`, nullable `anyOf`/`oneOf` wrappers — until it reaches a concrete node; undefined
 * for a `$ref` to a definition the document lacks. The one walker of our schema references.
 */
export function resolveSchema(node: SchemaNode | undefined, doc: SchemaDocument, options: ResolveOptions = {}): SchemaNode | undefined {
  let current = node;
  for (let hops = 0; current && hops < MAX_HOPS; hops++) {
    options.visit?.(current);
    if (current.$ref?.startsWith(REF_PREFIX)) {
      current = doc.definitions[current.$ref.slice(REF_PREFIX.length)];
      continue;
    }
    const next = wrapped(current, options.nullable ?? false);
    if (!next) return current;
    current = next;
  }
  return current;
}

/** refName is the definition id a `$ref` node points at (`io.k8s.api.core.v1.Pod`). */
export function refName(node: SchemaNode): string | undefined {
  return node.$ref?.startsWith(REF_PREFIX) ? node.$ref.slice(REF_PREFIX.length) : undefined;
}

/** wrapped is the node a wrapper without properties stands for: a lone `allOf`'s only member,
 * or (with `nullable`) the only non-null branch of an `anyOf`/`oneOf`. */
function wrapped(node: SchemaNode, nullable: boolean): SchemaNode | undefined {
  if (node.properties) return undefined;
  if (node.allOf?.length === 1) return node.allOf[0];
  if (!nullable) return undefined;
  const branches = (node.anyOf ?? node.oneOf)?.filter((branch) => branch.type !== 'null');
  return branches?.length === 1 ? branches[0] : undefined;
}

/** deref is resolveSchema without options: `$ref`s and lone `allOf`s only. */
export function deref(node: SchemaNode | undefined, doc: SchemaDocument): SchemaNode | undefined {
  return resolveSchema(node, doc);
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
export function schemaDocumentFor(def: { schema: z.ZodType<unknown>; openApiSchema?: SchemaDocument }): SchemaDocument {
  return def.openApiSchema ?? schemaDocumentOf(def.schema);
}
