import { invalid } from './errors.js';
const REF_PREFIX = '#/definitions/';
const MAX_HOPS = 32;
/** rootField returns the FieldSchema of a whole object whose schema is `node`. */
export function rootField(node, doc) {
    return resolveField(node, doc);
}
/** unknownField returns a FieldSchema with no schema: JSON merge semantics below it. */
export function unknownField(doc) {
    return { node: undefined, doc, typeName: 'Object', strategies: [], mergeKey: undefined };
}
/**
 * lookupProperty returns the FieldSchema of member `key` of an object at `parent`: a
 * declared property, else the map value schema (`additionalProperties`). Returns
 * undefined only when `parent` is a closed struct that does not declare `key`; an
 * unknown or open parent yields an unknown field.
 */
export function lookupProperty(parent, key) {
    const node = parent.node;
    if (!node || node['x-kubernetes-preserve-unknown-fields'] === true)
        return unknownField(parent.doc);
    const declared = node.properties?.[key];
    if (declared)
        return resolveField(declared, parent.doc);
    if (typeof node.additionalProperties === 'object')
        return resolveField(node.additionalProperties, parent.doc);
    return isClosedStruct(node) ? undefined : unknownField(parent.doc);
}
/** itemField returns the FieldSchema of the items of a list at `list`. A merge list
 * declared on an object schema (Go: a pointer-to-struct field) uses that schema for its
 * elements, as Kubernetes does. */
export function itemField(list) {
    const node = list.node;
    if (node?.items)
        return resolveField(node.items, list.doc);
    if (node?.properties && isMergeList(list))
        return { ...list, strategies: [], mergeKey: undefined };
    return unknownField(list.doc);
}
/** isMergeList reports whether a list at `field` merges (by key, or as a set of scalars)
 * instead of being replaced. */
export function isMergeList(field) {
    return field.strategies.includes('merge');
}
/** isReplaceMap reports whether a map at `field` is replaced wholesale (`replace`). */
export function isReplaceMap(field) {
    return field.strategies.includes('replace');
}
/** unknownFieldError is the error for patching an undeclared member of a struct. */
export function unknownFieldError(parent, key) {
    return invalid(`unable to find api field in struct ${parent.typeName} for the json field "${key}"`);
}
/** isClosedStruct: an object with declared properties that admits no others. */
function isClosedStruct(node) {
    const { properties, additionalProperties } = node;
    return properties !== undefined && (additionalProperties === undefined || additionalProperties === false);
}
/**
 * resolveField follows `$ref`s, lone `allOf`s and nullable `anyOf`/`oneOf` wrappers from
 * `raw` to a concrete node, collecting the patch metadata wherever along the way it is
 * declared (the use site wins over the definition).
 */
function resolveField(raw, doc) {
    let strategy;
    let mergeKey;
    let typeName;
    let current = raw;
    for (let hops = 0; current && hops < MAX_HOPS; hops++) {
        strategy ??= current['x-kubernetes-patch-strategy'];
        mergeKey ??= current['x-kubernetes-patch-merge-key'];
        if (current.$ref?.startsWith(REF_PREFIX))
            typeName ??= current.$ref.slice(REF_PREFIX.length).split('.').pop();
        const next = nextHop(current, doc);
        if (!next)
            break;
        current = next;
    }
    return {
        node: current,
        doc,
        typeName: typeName ?? 'Object',
        strategies: strategy ? strategy.split(',').map((part) => part.trim()) : [],
        mergeKey,
    };
}
/** nextHop returns the node `node` stands for, or undefined when it is concrete. */
function nextHop(node, doc) {
    if (node.$ref?.startsWith(REF_PREFIX))
        return doc.definitions[node.$ref.slice(REF_PREFIX.length)];
    if (node.properties)
        return undefined;
    if (node.allOf?.length === 1)
        return node.allOf[0];
    const branches = (node.anyOf ?? node.oneOf)?.filter((branch) => branch.type !== 'null');
    return branches?.length === 1 ? branches[0] : undefined;
}
//# sourceMappingURL=patch-schema.js.map