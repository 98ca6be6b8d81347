/**
 * INTERIM WIRING — delete this file and its one call in routes/resource-routes.ts once the
 * admission chain (apiserver/admission/) runs `mutatingAdmissionWebhook.admit` and
 * `validatingAdmissionWebhook.validate` in the write path.
 *
 * Until then, writes to main resources and /status are admitted around the (synchronous)
 * handler: a dry run of the request gives the object as it would be written; the mutating
 * webhooks change it, the validating ones judge it, then the request runs for real — as a PUT
 * (or POST) of the mutated object when a webhook changed it. Costs nothing when no webhook
 * configuration exists or none has a rule for the request.
 */

import type { KubeObject } from '../../api/resource-definition.js';
import { ANONYMOUS_USER } from '../../authn/authenticator.js';
import type { ApiRequest, ApiResponse, HandlerContext } from '../../handlers/types.js';
import { readStored } from '../../registry/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionResult } from '../plugin.js';
import { webhooksOf } from './configurations.js';
import { matchesRules } from './matching.js';
import { mutatingAdmissionWebhook } from './mutating.js';
import { validatingAdmissionWebhook } from './validating.js';

type Handler = (ctx: HandlerContext, request: ApiRequest) => ApiResponse;

const OPERATIONS: Partial<Record<string, AdmissionOperation>> = { POST: 'CREATE', PUT: 'UPDATE', PATCH: 'UPDATE', DELETE: 'DELETE' };

/** handleWithWebhooks runs `handler` for `request` with the admission webhooks around it. */
export async function handleWithWebhooks(ctx: HandlerContext, request: ApiRequest, handler: Handler): Promise<ApiResponse> {
  const attributes = attributesOf(ctx, request);
  if (!attributes) return handler(ctx, request);
  const result: AdmissionResult = { warnings: [], auditAnnotations: {} };
  let real = request;
  if (attributes.operation === 'DELETE') {
    attributes.oldObject = readStored(ctx, { def: request.path.def, namespace: request.path.namespace, name: attributes.name });
  } else {
    const dry = handler(ctx, { ...request, query: { ...request.query, dryRun: 'All' } });
    if (dry.status === 201) attributes.operation = 'CREATE';
    attributes.object = structuredClone(dry.body as KubeObject);
    attributes.name = attributes.object.metadata.name ?? '';
    if (attributes.operation === 'UPDATE')
      attributes.oldObject = readStored(ctx, { def: request.path.def, namespace: request.path.namespace, name: attributes.name });
    const before = JSON.stringify(attributes.object);
    await mutatingAdmissionWebhook.admit?.(ctx, attributes, result);
    if (JSON.stringify(attributes.object) !== before) real = rewritten(request, attributes);
  }
  await validatingAdmissionWebhook.validate?.(ctx, attributes, result);
  const response = handler(ctx, real);
  response.warnings = [...result.warnings, ...(response.warnings ?? [])];
  return response;
}

/** attributesOf describes the request, or is undefined when no webhook has a rule for it. */
function attributesOf(ctx: HandlerContext, request: ApiRequest): AdmissionAttributes | undefined {
  const { def, namespace, name, subresource = '' } = request.path;
  const operation = OPERATIONS[request.method];
  if (!operation || (subresource !== '' && subresource !== 'status')) return undefined;
  if (operation !== 'CREATE' && name === undefined) return undefined;
  const mutating = webhooksOf(ctx.store, 'mutating');
  const validating = webhooksOf(ctx.store, 'validating');
  if (mutating.length === 0 && validating.length === 0) return undefined;
  const attributes: AdmissionAttributes = {
    operation,
    def,
    subresource,
    namespace: def.namespaced ? namespace : '',
    name: name ?? '',
    user: request.user ?? ANONYMOUS_USER,
    dryRun: request.query['dryRun'] !== undefined,
  };
  const concerned = [...mutating, ...validating].some(
    ({ webhook }) => matchesRules(webhook, attributes) || matchesRules(webhook, { ...attributes, operation: 'CREATE' }),
  );
  return concerned ? attributes : undefined;
}

/** rewritten is the request that writes the mutated object: a POST of it for a create, a PUT
 * of it (with its resourceVersion: no lost update) for an update. */
function rewritten(request: ApiRequest, attributes: AdmissionAttributes): ApiRequest {
  const object = structuredClone(attributes.object as KubeObject);
  const body = Buffer.from(JSON.stringify(object));
  const contentType = 'application/json';
  if (attributes.operation === 'CREATE') {
    const { metadata } = object;
    for (const field of ['resourceVersion', 'uid', 'creationTimestamp', 'generation', 'managedFields'] as const) delete metadata[field];
    const created = Buffer.from(JSON.stringify(object));
    if (request.method === 'POST') return { ...request, body: created, contentType };
    return { ...request, method: 'PATCH', body: created, contentType: 'application/apply-patch+yaml' };
  }
  return { ...request, method: 'PUT', body, contentType };
}
