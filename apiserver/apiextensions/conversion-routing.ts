/**
 * CRD conversion webhooks (strategy Webhook) on the paths addressed to a non-storage version.
 * Writes (create, update, patch, apply) and watches convert in place through an
 * AsyncConversion (webhookConversion); reads, deletes and /scale are run against the storage
 * version and their answer — an object or a list — converted back (handleWithConversion).
 */
import type { KubeObject, ResourceDefinition } from '../api/resource-definition.js';
import type { ApiRequest, ApiResponse, HandlerContext } from '../handlers/types.js';
import type { RegistryContext } from '../registry/context.js';
import type { AsyncConversion } from '../registry/write-options.js';
import { convertObjects, usesConversionWebhook } from './conversion-webhook.js';
import { readCrd } from './crd-writes.js';

type AsyncHandler = (ctx: HandlerContext, request: ApiRequest) => Promise<ApiResponse>;

const CONVERTED_IN_PLACE = new Set(['POST', 'PUT', 'PATCH']);

/** mayConvertThroughWebhook: only a CRD's non-storage versions carry toStorage, so every other
 * request skips handleWithConversion (and stays synchronous). */
export function mayConvertThroughWebhook(request: ApiRequest): boolean {
  const { def, subresource } = request.path;
  if (def.unstructured !== true || def.storage.toStorage === undefined) return false;
  return !CONVERTED_IN_PLACE.has(request.method) || subresource === 'scale';
}

export async function handleWithConversion(ctx: HandlerContext, request: ApiRequest, next: AsyncHandler): Promise<ApiResponse> {
  const { def } = request.path;
  const crd = readCrd(ctx, def.storage.resource);
  const storageDef = ctx.registry.storageDefinition(def.storage.resource);
  if (!usesConversionWebhook(crd) || !storageDef) return next(ctx, request);
  const response = await next(ctx, { ...request, path: { ...request.path, def: storageDef } });
  // A list may come pre-serialized (listAsText): parse it to convert its items.
  if (typeof response.body === 'string' && response.contentType === 'application/json') {
    response.body = JSON.parse(response.body);
    response.contentType = undefined;
  }
  response.body = await convertBack(ctx, crd, response.body, def, storageDef);
  return response;
}

/** webhookConversion converts between `def` and the storage version through the CRD's
 * conversion webhook, when `def` is a non-storage version of a CRD with one; undefined
 * otherwise (objects convert synchronously, as strategy None). Used by the paths that await a
 * conversion in place (creates, updates, patches, server-side apply, watch events); the CRD
 * is read once per request. */
export function webhookConversion(ctx: RegistryContext, def: ResourceDefinition): AsyncConversion | undefined {
  if (def.unstructured !== true || def.storage.toStorage === undefined) return undefined;
  const crd = readCrd(ctx, def.storage.resource);
  const storageDef = ctx.registry.storageDefinition(def.storage.resource);
  if (!usesConversionWebhook(crd) || !storageDef) return undefined;
  const convert = async (object: KubeObject, from: ResourceDefinition, to: ResourceDefinition) => {
    const typed = { ...object, apiVersion: object.apiVersion ?? apiVersionOf(from), kind: object.kind ?? def.kind };
    return (await convertObjects(ctx, crd, [typed], apiVersionOf(to)))[0] as KubeObject;
  };
  return { toServed: (stored) => convert(stored, storageDef, def), toStored: (served) => convert(served, def, storageDef) };
}

function apiVersionOf(def: ResourceDefinition): string {
  return `${def.group}/${def.version}`;
}

/** convertBack converts an answered object or list of the storage version to the requested
 * version; anything else (a Status, a Table, a Scale) is returned as is. */
async function convertBack(
  ctx: HandlerContext,
  crd: Parameters<typeof convertObjects>[1],
  body: unknown,
  def: ResourceDefinition,
  storageDef: ResourceDefinition,
): Promise<unknown> {
  const object = body as (KubeObject & { items?: KubeObject[] }) | undefined;
  if (object?.apiVersion !== apiVersionOf(storageDef)) return body;
  if (object.kind === def.kind) return (await convertObjects(ctx, crd, [object], apiVersionOf(def)))[0];
  if (object.kind === `${def.kind}List` && Array.isArray(object.items)) {
    const items = object.items.map((item) => ({ ...item, apiVersion: item.apiVersion ?? apiVersionOf(storageDef), kind: item.kind ?? def.kind }));
    return { ...object, apiVersion: apiVersionOf(def), items: await convertObjects(ctx, crd, items, apiVersionOf(def)) };
  }
  return body;
}
