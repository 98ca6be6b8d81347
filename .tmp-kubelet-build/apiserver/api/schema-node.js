/**
 * SchemaNode is the JSON-schema view of a kind's zod schema (produced once per kind by
 * `z.toJSONSchema`), walked by strategic merge patch, unknown-field detection and the
 * OpenAPI generator. Only the subset those walkers need is typed.
 */
import { z } from 'zod';
const REF_PREFIX = '#/definitions/';
/** toSchemaDocument converts a zod schema into its JSON-schema document (input shape,
 * OpenAPI 3.0 flavour). Unrepresentable parts (transforms) become `{}`. */
export function toSchemaDocument(schema) {
    const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' });
    const { definitions = {}, ...root } = json;
    return { root, definitions };
}
/** deref follows `$ref` (and a lone `allOf: [{$ref}]`) until it reaches a concrete node. */
export function deref(node, doc) {
    let current = node;
    for (let hops = 0; current && hops < 32; hops++) {
        if (current.$ref?.startsWith(REF_PREFIX)) {
            current = doc.definitions[current.$ref.slice(REF_PREFIX.length)];
        }
        else if (current.allOf?.length === 1 && !current.properties) {
            current = current.allOf[0];
        }
        else {
            return current;
        }
    }
    return current;
}
/** childSchema returns the schema of property `key` of an object node: a declared
 * property, else a map's value schema (`additionalProperties`). */
export function childSchema(node, key, doc) {
    const resolved = deref(node, doc);
    if (!resolved)
        return undefined;
    const declared = resolved.properties?.[key];
    if (declared)
        return deref(declared, doc) ?? declared;
    if (typeof resolved.additionalProperties === 'object')
        return deref(resolved.additionalProperties, doc);
    return undefined;
}
/** itemSchema returns the schema of a list node's items. */
export function itemSchema(node, doc) {
    const resolved = deref(node, doc);
    return resolved?.items ? deref(resolved.items, doc) : undefined;
}
const documentCache = new WeakMap();
/** schemaDocumentOf converts a zod schema once and caches the result (schemas are immutable). */
export function schemaDocumentOf(schema) {
    let doc = documentCache.get(schema);
    if (!doc)
        documentCache.set(schema, (doc = toSchemaDocument(schema)));
    return doc;
}
//# sourceMappingURL=schema-node.js.map