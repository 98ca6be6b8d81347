/** DELETE of one object and of a collection (deletecollection), with DeleteOptions from the
 * body (kubectl: `{"propagationPolicy":"Background"}`) or the query string. */

import { andThen } from '../admission/chain.js';
import { badRequest } from '../api/api-error.js';
import { apiVersionOf, type DeleteRequest, type KubeObject } from '../api/resource-definition.js';
import type { Target } from '../registry/context.js';
import { strategyOf } from '../registry/context.js';
import { type DeleteOutcome, deleteAdmitted, deleteObject } from '../registry/delete.js';
import { decodeOptionalJson } from '../request/body.js';
import { isDryRun, queryBool, queryInt, queryString } from '../request/query.js';
import { readListPage } from './read-handlers.js';
import { type ApiRequest, type ApiResponse, type HandlerContext, listKind, type MaybeAsyncResponse, targetOf } from './types.js';

const POLICIES = ['Foreground', 'Background', 'Orphan'] as const;

/** parseDeleteRequest merges DeleteOptions from the body and the query (the body wins). */
export function parseDeleteRequest(request: ApiRequest): DeleteRequest {
  const body = decodeOptionalJson(request.contentType, request.body) ?? {};
  const policy = body['propagationPolicy'] ?? queryString(request.query, 'propagationPolicy') ?? orphanPolicy(body, request);
  if (policy !== undefined && !POLICIES.includes(policy as (typeof POLICIES)[number])) {
    throw badRequest(`propagationPolicy: Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan"`);
  }
  const grace = body['gracePeriodSeconds'] ?? queryInt(request.query, 'gracePeriodSeconds');
  if (grace !== undefined && (typeof grace !== 'number' || !Number.isInteger(grace))) throw badRequest('gracePeriodSeconds must be an integer');
  const dryRunBody = Array.isArray(body['dryRun']) && (body['dryRun'] as unknown[]).includes('All');
  return {
    propagationPolicy: policy as DeleteRequest['propagationPolicy'],
    gracePeriodSeconds: grace as number | undefined,
    preconditions: body['preconditions'] as DeleteRequest['preconditions'],
    dryRun: dryRunBody || isDryRun(request.query),
  };
}

/** orphanPolicy maps the deprecated orphanDependents flag onto a propagation policy. */
function orphanPolicy(body: Record<string, unknown>, request: ApiRequest): string | undefined {
  const orphan = typeof body['orphanDependents'] === 'boolean' ? (body['orphanDependents'] as boolean) : queryBool(request.query, 'orphanDependents');
  if (orphan === undefined) return undefined;
  return orphan ? 'Orphan' : 'Background';
}

/** deleteHandler answers DELETE on an object: the object while it waits on finalizers or a
 * grace period, else a Success Status (or the deleted object for Pods and Namespaces). */
export function deleteHandler(ctx: HandlerContext, request: ApiRequest): MaybeAsyncResponse {
  const target = targetOf(request.path);
  strategyOf(ctx, target.def).beforeDelete?.(target.name);
  const warnings: string[] = [];
  const outcome = deleteAdmitted(ctx, target, parseDeleteRequest(request), { admission: ctx.admission, warnings });
  return andThen(outcome, (done) => ({ ...deleteResponse(ctx, target, done), warnings }));
}

function deleteResponse(ctx: HandlerContext, target: Target, outcome: DeleteOutcome): ApiResponse {
  if (!outcome.removed || strategyOf(ctx, target.def).returnDeletedObject) return { status: 200, body: outcome.object };
  return {
    status: 200,
    body: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: target.name, group: target.def.group, kind: target.def.plural, uid: outcome.object.metadata.uid },
    },
  };
}

/** deleteCollectionHandler deletes every object the selectors select, returning them as a list. */
export function deleteCollectionHandler(ctx: HandlerContext, request: ApiRequest): MaybeAsyncResponse {
  const { def } = request.path;
  const options = parseDeleteRequest(request);
  const page = readListPage(ctx, { ...request, query: { ...request.query, limit: undefined, continue: undefined } });
  const warnings: string[] = [];
  const targets = page.entries.map(({ served }) => ({ def, namespace: served.metadata.namespace ?? '', name: served.metadata.name ?? '' }));
  const answer = (items: KubeObject[]): ApiResponse => ({
    status: 200,
    body: { kind: listKind(def), apiVersion: apiVersionOf(def), metadata: { resourceVersion: String(ctx.store.currentRevision) }, items },
    warnings,
  });
  if (ctx.admission === undefined || !ctx.admission.handles('DELETE', def, ''))
    return answer(targets.map((target) => deleteObject(ctx, target, options).object));
  return deleteEach(ctx, targets, options, warnings).then(answer);
}

/** deleteEach deletes one object after the other, each through the admission chain. */
async function deleteEach(ctx: HandlerContext, targets: Target[], options: DeleteRequest, warnings: string[]): Promise<KubeObject[]> {
  const items: KubeObject[] = [];
  for (const target of targets) items.push((await deleteAdmitted(ctx, target, options, { admission: ctx.admission, warnings })).object);
  return items;
}
