/**
 * The /scale subresource: an autoscaling/v1 Scale view of any kind that declares a
 * ScaleSubresource (Deployments, ReplicaSets, later custom resources). Writes change only
 * the replica count, through the normal update path.
 */
import { invalid } from '../api/api-error.js';
import { ScaleSchema } from '../api/autoscaling/scale.js';
import { labelSelectorFromStructured } from '../api/labels.js';
import type { KubeObject, ScaleSubresource } from '../api/resource-definition.js';
import { readStored, resourceName } from '../registry/context.js';
import { toServed } from '../registry/object-codec.js';
import { updateObject } from '../registry/update.js';
import { decodeObjectBody, decodePatchBody, isPlainObject, patchTypeOf } from '../request/body.js';
import { isDryRun } from '../request/query.js';
import { updateTracker } from './field-managers.js';
import { type ApiRequest, type ApiResponse, type HandlerContext, targetOf } from './types.js';
import { acceptedPatchTypes, applyPatch } from './write-handlers.js';

function getPath(object: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (isPlainObject(value) ? value[key] : undefined), object);
}

function setPath(object: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let cursor = object;
  for (const key of keys.slice(0, -1)) {
    if (!isPlainObject(cursor[key])) cursor[key] = {};
    cursor = cursor[key] as Record<string, unknown>;
  }
  cursor[keys[keys.length - 1]!] = value;
}

/** scaleOf builds the Scale view of an object. */
export function scaleOf(object: KubeObject, scale: ScaleSubresource): Record<string, unknown> {
  const { name, namespace, uid, resourceVersion, creationTimestamp } = object.metadata;
  const path = scale.labelSelectorPath ? getPath(object, scale.labelSelectorPath) : undefined;
  const selector = scale.labelSelectorIsMap ? { matchLabels: path } : path;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas: getPath(object, scale.specReplicasPath) ?? 0 },
    status: {
      replicas: getPath(object, scale.statusReplicasPath) ?? 0,
      selector: typeof selector === 'string' ? selector : labelSelectorFromStructured(selector as never).toString(),
    },
  };
}

/** SCALE_KIND is what a PUT …/scale carries (typed clients may send it as protobuf). */
const SCALE_KIND = { apiVersion: 'autoscaling/v1', kind: 'Scale' };

/** scaleHandler answers GET, PUT and PATCH on {resource}/{name}/scale. */
export function scaleHandler(ctx: HandlerContext, request: ApiRequest): ApiResponse {
  const target = targetOf(request.path);
  const scale = target.def.subresources.scale!;
  const current = toServed(target.def, readStored(ctx, target));
  if (request.method === 'GET') return { status: 200, body: scaleOf(current, scale) };
  const proposed =
    request.method === 'PUT'
      ? decodeObjectBody(request.contentType, request.body, { expected: SCALE_KIND, method: request.method })
      : patchedScale(request, scaleOf(current, scale));
  const parsed = ScaleSchema.safeParse(proposed);
  const replicas = parsed.success ? parsed.data.spec?.replicas : undefined;
  if (replicas === undefined || !Number.isInteger(replicas) || replicas < 0) {
    throw invalid({ ...resourceName(target), kind: 'Scale', group: 'autoscaling' }, [
      {
        type: 'FieldValueInvalid',
        field: 'spec.replicas',
        value: (proposed as { spec?: { replicas?: unknown } }).spec?.replicas,
        detail: 'must be greater than or equal to 0',
      },
    ]);
  }
  const updated = updateObject(ctx, target, {
    scope: 'main',
    admissionSubresource: 'scale',
    dryRun: isDryRun(request.query),
    // Recorded on the scaled object with subresource "scale", owning only the replicas field.
    fieldTracker: updateTracker(ctx, request, target.def, 'scale'),
    computeNext: (object) => {
      setPath(object, scale.specReplicasPath, replicas);
      object.metadata.resourceVersion = parsed.data?.metadata?.resourceVersion || undefined;
      return object;
    },
  });
  return { status: 200, body: scaleOf(updated, scale) };
}

function patchedScale(request: ApiRequest, scale: Record<string, unknown>): unknown {
  const type = patchTypeOf(request.contentType, acceptedPatchTypes(request.path.def));
  return applyPatch(type === 'apply' ? 'merge' : type, scale, decodePatchBody(type, request.body), { schema: ScaleSchema });
}
