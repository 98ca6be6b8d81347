/** targetOf names the object a request addresses; throws if the path has no name. */
export function targetOf(path) {
    if (path.name === undefined)
        throw new Error('targetOf needs a path with a name');
    return { def: path.def, namespace: path.namespace, name: path.name };
}
/** listKind is the kind of a collection of `def` objects. */
export function listKind(def) {
    return `${def.kind}List`;
}
//# sourceMappingURL=types.js.map