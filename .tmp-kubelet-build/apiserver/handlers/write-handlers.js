import { schemaDocumentOf } from '../api/schema-node.js';
import { applyJsonPatch } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { applyStrategicMergePatch } from '../patch/strategic-merge-patch.js';
import { createObject } from '../registry/create.js';
import { readStored } from '../registry/context.js';
import { decodeObject } from '../registry/object-codec.js';
import { updateObject } from '../registry/update.js';
import { decodeObjectBody, decodePatchBody, patchTypeOf } from '../request/body.js';
import { fieldValidation, isDryRun } from '../request/query.js';
import { isNotFound } from '../api/api-error.js';
import { targetOf } from './types.js';
/** createHandler answers POST on a collection: 201 with the created object. */
export function createHandler(ctx, request) {
    const warnings = [];
    const body = decodeObjectBody(request.contentType, request.body);
    const object = decodeObject(request.path.def, body, { fieldValidation: fieldValidation(request.query), warnings });
    const created = createObject(ctx, request.path, object, { dryRun: isDryRun(request.query) });
    return { status: 201, body: created, warnings };
}
function scopeOf(subresource) {
    return subresource === 'status' ? 'status' : subresource === 'finalize' ? 'finalize' : 'main';
}
/** updateHandler answers PUT on an object, its /status or /finalize. */
export function updateHandler(ctx, request) {
    const warnings = [];
    const target = targetOf(request.path);
    const body = decodeObjectBody(request.contentType, request.body);
    const decoded = decodeObject(target.def, body, { fieldValidation: fieldValidation(request.query), warnings });
    const updated = updateObject(ctx, target, {
        scope: scopeOf(request.path.subresource),
        dryRun: isDryRun(request.query),
        computeNext: () => decoded,
    });
    return { status: 200, body: updated, warnings };
}
/** patchHandler answers PATCH on an object or its /status. Server-side apply creates the
 * object when it does not exist (201). */
export function patchHandler(ctx, request) {
    const warnings = [];
    const target = targetOf(request.path);
    const type = patchTypeOf(request.contentType);
    const patch = decodePatchBody(type, request.body);
    const options = { fieldValidation: fieldValidation(request.query), warnings };
    const dryRun = isDryRun(request.query);
    if (type === 'apply' && !request.path.subresource && !exists(ctx, request)) {
        const object = decodeObject(target.def, patch, options);
        object.metadata.name ??= target.name;
        return { status: 201, body: createObject(ctx, target, object, { dryRun }), warnings };
    }
    const updated = updateObject(ctx, target, {
        scope: scopeOf(request.path.subresource),
        dryRun,
        computeNext: (current) => decodeObject(target.def, applyPatch(type, current, patch, target.def.schema), options),
    });
    return { status: 200, body: updated, warnings };
}
function exists(ctx, request) {
    try {
        readStored(ctx, targetOf(request.path));
        return true;
    }
    catch (err) {
        if (isNotFound(err))
            return false;
        throw err;
    }
}
/** applyPatch applies a decoded patch of the given type to a JSON document. Server-side apply
 * merges the applied configuration as a strategic merge patch would; field ownership
 * (managedFields, conflicts) is not tracked yet. */
export function applyPatch(type, document, patch, schema) {
    switch (type) {
        case 'json':
            return applyJsonPatch(document, patch);
        case 'merge':
            return applyMergePatch(document, patch);
        case 'strategic':
        case 'apply': {
            const doc = schemaDocumentOf(schema);
            return applyStrategicMergePatch(document, patch, { node: doc.root, doc });
        }
        default: {
            const unreachable = type;
            throw new Error(`unknown patch type ${String(unreachable)}`);
        }
    }
}
//# sourceMappingURL=write-handlers.js.map