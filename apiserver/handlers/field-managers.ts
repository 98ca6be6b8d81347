/**
 * Who a write is recorded against in managedFields, and the PatchOptions checks
 * kube-apiserver makes: the `fieldManager` query parameter, else the product part of the
 * User-Agent (`kubectl/v1.32.4 (linux/amd64) …` → `kubectl`,
 * `kubesim-hpa-controller/0.1` → `kubesim-hpa-controller`).
 */
import { invalid } from '../api/api-error.js';
import type { FieldError, ResourceDefinition } from '../api/resource-definition.js';
import {
  type ApplyTracker,
  createApplyTracker,
  createUpdateTracker,
  createVersionConverter,
  type FieldTracker,
  type WriteSubresource,
} from '../fieldmanager/index.js';
import type { PatchType } from '../request/body.js';
import { queryBool, queryString } from '../request/query.js';
import type { ApiRequest, HandlerContext } from './types.js';

/** FIELD_MANAGER_MAX_LENGTH is Kubernetes' limit on manager names (bytes). */
const FIELD_MANAGER_MAX_LENGTH = 128;

/** managerName is the manager a write is recorded against (see the file comment). Like
 * kube-apiserver, a User-Agent prefix drops unprintable characters and is cut at 128 bytes. */
export function managerName(request: ApiRequest): string {
  const given = queryString(request.query, 'fieldManager');
  if (given) return given;
  const product = (request.userAgent ?? '').split('/')[0] ?? '';
  let out = '';
  for (const char of product.replace(/[\p{Cc}\p{Cf}]/gu, '')) {
    if (Buffer.byteLength(out + char) > FIELD_MANAGER_MAX_LENGTH) break;
    out += char;
  }
  return out;
}

/** checkWriteOptions validates fieldManager (and, for a PATCH, force) as
 * ValidatePatchOptions / ValidateFieldManager do: 422 on PatchOptions (or CreateOptions,
 * UpdateOptions) naming each problem. */
export function checkWriteOptions(request: ApiRequest, patchType?: PatchType): void {
  const errors: FieldError[] = [];
  const manager = queryString(request.query, 'fieldManager') ?? '';
  if (patchType === 'apply' && manager === '') {
    // kubectl defaults it to "kubectl"; other clients (controllers) must set it.
    errors.push({ type: 'FieldValueRequired', field: 'fieldManager', detail: 'is required for apply patch' });
  }
  if (patchType !== undefined && patchType !== 'apply' && request.query['force'] !== undefined) {
    errors.push({ type: 'FieldValueForbidden', field: 'force', detail: 'may not be specified for non-apply patch' });
  }
  if (Buffer.byteLength(manager) > FIELD_MANAGER_MAX_LENGTH) {
    errors.push({ type: 'FieldValueTooLong', field: 'fieldManager', detail: `must have at most ${FIELD_MANAGER_MAX_LENGTH} bytes` });
  }
  if (errors.length === 0) return;
  const kind = patchType !== undefined ? 'PatchOptions' : request.method === 'POST' ? 'CreateOptions' : 'UpdateOptions';
  throw invalid({ group: 'meta.k8s.io', resource: '', kind, name: '' }, errors);
}

/** updateTracker records an Update by the request's manager against `def`'s objects. */
export function updateTracker(ctx: HandlerContext, request: ApiRequest, def: ResourceDefinition, subresource: WriteSubresource): FieldTracker {
  return createUpdateTracker({ def, manager: managerName(request), subresource, now: ctx.now, versions: createVersionConverter(ctx, def) });
}

/** applyTracker runs a server-side apply by the request's manager (`force=true` takes
 * fields other managers own). */
export function applyTracker(ctx: HandlerContext, request: ApiRequest, def: ResourceDefinition, subresource: WriteSubresource): ApplyTracker {
  const force = queryBool(request.query, 'force') === true;
  return createApplyTracker({ def, manager: managerName(request), subresource, force, now: ctx.now, versions: createVersionConverter(ctx, def) });
}
