/**
 * Unknown-field detection for `fieldValidation=Strict|Warn`. Kubernetes drops fields its
 * types do not declare; with Strict it rejects the request instead, naming each field.
 */
import { childSchema, deref, itemSchema } from '../api/schema-node.js';
import { isPlainObject } from '../request/body.js';
/** findUnknownFields lists the paths (`spec.template.spec.containers[0].foo`) of fields in
 * `value` that the schema does not declare. Maps and preserve-unknown-fields subtrees accept anything. */
export function findUnknownFields(value, node, doc, path = '') {
    const schema = deref(node, doc);
    if (!schema || schema['x-kubernetes-preserve-unknown-fields'])
        return [];
    if (Array.isArray(value)) {
        const items = itemSchema(schema, doc);
        return value.flatMap((item, i) => findUnknownFields(item, items, doc, `${path}[${i}]`));
    }
    if (!isPlainObject(value))
        return [];
    const closed = schema.properties !== undefined && typeof schema.additionalProperties !== 'object' && schema.additionalProperties !== true;
    const unknown = [];
    for (const [key, child] of Object.entries(value)) {
        const childPath = path ? `${path}.${key}` : key;
        const childNode = childSchema(schema, key, doc);
        if (!childNode) {
            if (closed)
                unknown.push(childPath);
            continue;
        }
        unknown.push(...findUnknownFields(child, childNode, doc, childPath));
    }
    return unknown;
}
//# sourceMappingURL=unknown-fields.js.map