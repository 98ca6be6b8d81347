/** POST (create), PUT (update, /status, /finalize) and PATCH (all four patch types). */

import { andThen } from '../admission/chain.js';
import { badRequest, isNotFound } from '../api/api-error.js';
import type { KubeObject, ResourceDefinition } from '../api/resource-definition.js';
import { schemaDocumentFor } from '../api/schema-node.js';
import { webhookConversion } from '../apiextensions/conversion-routing.js';
import type { WriteSubresource } from '../fieldmanager/index.js';
import { applyJsonPatch } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { applyStrategicMergePatch } from '../patch/strategic-merge-patch.js';
import { servedKind } from '../protobuf/decode.js';
import { readStored } from '../registry/context.js';
import { createObject } from '../registry/create.js';
import { decodeObject } from '../registry/object-codec.js';
import { type UpdateScope, updateObject } from '../registry/update.js';
import { decodeObjectBody, decodePatchBody, describeJsonType, isPlainObject, type PatchType, patchTypeOf } from '../request/body.js';
import { fieldValidation, isDryRun } from '../request/query.js';
import { applyTracker, checkWriteOptions, updateTracker } from './field-managers.js';
import { answerReview, isReview } from './review-create.js';
import { type ApiRequest, type HandlerContext, type MaybeAsyncResponse, targetOf } from './types.js';

/** createHandler answers POST on a collection: 201 with the created object. */
export function createHandler(ctx: HandlerContext, request: ApiRequest): MaybeAsyncResponse {
  const warnings: string[] = [];
  checkWriteOptions(request);
  const body = decodeObjectBody(request.contentType, request.body, { expected: servedKind(request.path.def), warnings, method: request.method });
  ctx.audit?.requestObject(body);
  const object = decodeObject(request.path.def, body, { fieldValidation: fieldValidation(request.query), warnings, wholeObjectBody: true });
  if (isReview(request.path.def)) return answerReview(ctx, request.path.def, object, request.path.namespace, warnings);
  const fieldTracker = updateTracker(ctx, request, request.path.def, '');
  const conversion = webhookConversion(ctx, request.path.def);
  const created = createObject(ctx, request.path, object, { dryRun: isDryRun(request.query), fieldTracker, conversion, admission: ctx.admission, warnings });
  return andThen(created, (body) => ({ status: 201, body, warnings }));
}

const SUBRESOURCE_SCOPES: Partial<Record<string, UpdateScope>> = {
  status: 'status',
  finalize: 'finalize',
  approval: 'approval',
  ephemeralcontainers: 'ephemeralcontainers',
};

function scopeOf(subresource: string | undefined): UpdateScope {
  return (subresource && SUBRESOURCE_SCOPES[subresource]) || 'main';
}

/** subresourceOf names the endpoint a write is recorded against in managedFields. */
function subresourceOf(scope: UpdateScope): WriteSubresource {
  return scope === 'main' || scope === 'server' ? '' : scope;
}

/** updateHandler answers PUT on an object, its /status, /finalize or /approval. */
export function updateHandler(ctx: HandlerContext, request: ApiRequest): MaybeAsyncResponse {
  const warnings: string[] = [];
  const target = targetOf(request.path);
  const body = decodeObjectBody(request.contentType, request.body, { expected: servedKind(target.def), warnings, method: request.method });
  ctx.audit?.requestObject(body);
  checkWriteOptions(request);
  let decoded: KubeObject | undefined = decodeObject(target.def, body, { fieldValidation: fieldValidation(request.query), warnings, wholeObjectBody: true });
  const scope = scopeOf(request.path.subresource);
  const updated = updateObject(ctx, target, {
    scope,
    dryRun: isDryRun(request.query),
    fieldTracker: updateTracker(ctx, request, target.def, subresourceOf(scope)),
    conversion: webhookConversion(ctx, target.def),
    // The update consumes the body; a retry after an asynchronous admission step decodes it
    // again (its warnings were already given).
    computeNext: () => {
      const next = decoded ?? decodeObject(target.def, body, { fieldValidation: fieldValidation(request.query), warnings: [], wholeObjectBody: true });
      decoded = undefined;
      return next;
    },
    admission: ctx.admission,
    warnings,
  });
  return andThen(updated, (result) => ({ status: 200, body: result, warnings }));
}

/** patchHandler answers PATCH on an object or its /status. Server-side apply creates the
 * object when it does not exist (201). */
export function patchHandler(ctx: HandlerContext, request: ApiRequest): MaybeAsyncResponse {
  const type = patchTypeOf(request.contentType, acceptedPatchTypes(request.path.def));
  checkWriteOptions(request, type);
  const patch = decodePatchBody(type, request.body);
  ctx.audit?.requestObject(patch);
  if (type === 'apply') return applyHandler(ctx, request, patch as Record<string, unknown>);
  const warnings: string[] = [];
  const target = targetOf(request.path);
  const options = { fieldValidation: fieldValidation(request.query), warnings };
  const scope = scopeOf(request.path.subresource);
  const updated = updateObject(ctx, target, {
    scope,
    dryRun: isDryRun(request.query),
    fieldTracker: updateTracker(ctx, request, target.def, subresourceOf(scope)),
    computeNext: (current) => decodeObject(target.def, applyPatch(type, current, patch, target.def), options),
    unconditional: !patchSetsResourceVersion(type, patch),
    conversion: webhookConversion(ctx, target.def),
    admission: ctx.admission,
    warnings,
  });
  return andThen(updated, (result) => ({ status: 200, body: result, warnings }));
}

/** patchSetsResourceVersion: does the patch carry a resourceVersion precondition (a merge
 * patch's metadata.resourceVersion, a JSON patch operation on it)? */
function patchSetsResourceVersion(type: PatchType, patch: unknown): boolean {
  if (type === 'json') return Array.isArray(patch) && patch.some((op) => isPlainObject(op) && op['path'] === '/metadata/resourceVersion');
  const metadata = isPlainObject(patch) ? patch['metadata'] : undefined;
  return isPlainObject(metadata) && metadata['resourceVersion'] !== undefined && metadata['resourceVersion'] !== null;
}

/** UNSTRUCTURED_PATCH_TYPES are what kube-apiserver takes for custom resources: strategic
 * merge patch needs Go struct tags, which they do not have. */
const UNSTRUCTURED_PATCH_TYPES: readonly PatchType[] = ['json', 'merge', 'apply'];

/** acceptedPatchTypes lists the patch types a kind takes (undefined: all four). */
export function acceptedPatchTypes(def: ResourceDefinition): readonly PatchType[] | undefined {
  return def.unstructured ? UNSTRUCTURED_PATCH_TYPES : undefined;
}

/** applyHandler runs a server-side apply of `config`: merged into the live object with
 * field ownership (apiserver/fieldmanager), or creating it when absent. */
function applyHandler(ctx: HandlerContext, request: ApiRequest, config: Record<string, unknown>): MaybeAsyncResponse {
  const warnings: string[] = [];
  const target = targetOf(request.path);
  const options = { fieldValidation: fieldValidation(request.query), warnings };
  const dryRun = isDryRun(request.query);
  const scope = scopeOf(request.path.subresource);
  const fieldTracker = applyTracker(ctx, request, target.def, subresourceOf(scope));
  // A CRD version served through a conversion webhook merges in that version, stored in another.
  const conversion = webhookConversion(ctx, target.def);
  if (!request.path.subresource && !exists(ctx, request)) {
    const object = decodeObject(target.def, fieldTracker.merge(undefined, config), options);
    if (object.metadata.name !== undefined && object.metadata.name !== target.name) {
      throw badRequest(`the name of the object (${object.metadata.name}) does not match the name on the URL (${target.name})`);
    }
    object.metadata.name = target.name;
    const created = createObject(ctx, target, object, { dryRun, fieldTracker, conversion, admission: ctx.admission, warnings });
    return andThen(created, (body) => ({ status: 201, body, warnings }));
  }
  const updated = updateObject(ctx, target, {
    scope,
    dryRun,
    fieldTracker,
    computeNext: (current) => decodeObject(target.def, fieldTracker.merge(current, config), options),
    unconditional: !patchSetsResourceVersion('apply', config),
    conversion,
    admission: ctx.admission,
    warnings,
  });
  return andThen(updated, (result) => ({ status: 200, body: result, warnings }));
}

function exists(ctx: HandlerContext, request: ApiRequest): boolean {
  try {
    readStored(ctx, targetOf(request.path));
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

/** applyPatch applies a decoded patch of the given type to a JSON document. For 'apply'
 * (only the /scale view uses it here: real server-side apply goes through applyHandler and
 * its field ownership) it merges as a strategic merge patch would. */
export function applyPatch(type: PatchType, document: KubeObject | object, patch: unknown, shape: KindShape): Record<string, unknown> {
  const patched = patchDocument(type, document, patch, shape);
  // A JSON patch on the path "" replaces the whole document, with anything at all.
  if (!isPlainObject(patched)) throw badRequest(`the patched object must be a JSON object, got ${describeJsonType(patched)}`);
  return patched;
}

function patchDocument(type: PatchType, document: KubeObject | object, patch: unknown, shape: KindShape): unknown {
  switch (type) {
    case 'json':
      return applyJsonPatch(document, patch);
    case 'merge':
      return applyMergePatch(document, patch);
    case 'strategic':
    case 'apply': {
      const doc = schemaDocumentFor(shape);
      return applyStrategicMergePatch(document, patch, { node: doc.root, doc });
    }
    default: {
      const unreachable: never = type;
      throw new Error(`unknown patch type ${String(unreachable)}`);
    }
  }
}

/** KindShape is what a patch needs to know of a kind: its schema document's sources. */
type KindShape = Parameters<typeof schemaDocumentFor>[0];
