/**
 * kubesim's own API for the cluster as a whole, under /apis/kubesim.io/v1alpha1 (not a
 * Kubernetes API group: it is not in discovery and serves no objects):
 *   PUT  /activity/{component}   a component process reports its loops' activity
 *   GET  /activity               every component's activity (the live view, `kubesim status`)
 *   POST /settle                 wait until the cluster is quiescent; 504 names what was busy
 *   POST /reset                  back to the just-started state
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { ApiError, badRequest } from '../api/api-error.js';
import type { ComponentActivity } from '../api/machinery/activity.js';
import { decodeJsonBody } from '../request/body.js';
import type { ClusterControl } from './cluster-control.js';
import { SettleTimeoutError } from './settle.js';

export const KUBESIM_API = '/apis/kubesim.io/v1alpha1';
const API_VERSION = 'kubesim.io/v1alpha1';

const count = z.number().int().nonnegative();
const LoopActivitySchema = z.object({
  name: z.string(),
  queued: count,
  active: count,
  delayed: count,
  delayedIsWork: z.boolean().optional(),
  reconciles: z.record(z.string(), count).optional(),
  lastReconcile: z.record(z.string(), z.unknown()).optional(),
});
const ActivityReportSchema = z.object({ loops: z.array(LoopActivitySchema) });
const SettleRequestSchema = z.object({ timeoutMs: z.number().positive().optional(), quietMs: z.number().nonnegative().optional() });

export function registerClusterRoutes(app: FastifyInstance, control: ClusterControl): void {
  app.put<{ Params: { component: string } }>(`${KUBESIM_API}/activity/:component`, async (request, reply) => {
    const report = parseBody(ActivityReportSchema, request);
    control.board.report({ component: request.params.component, loops: report.loops } as ComponentActivity);
    return send(reply, 200, { apiVersion: API_VERSION, kind: 'Status', status: 'Success' });
  });
  app.get(`${KUBESIM_API}/activity`, async (_request, reply) =>
    send(reply, 200, { apiVersion: API_VERSION, kind: 'ComponentActivityList', busy: control.busy(), items: control.board.current() }),
  );
  app.post(`${KUBESIM_API}/settle`, async (request, reply) => {
    const options = parseBody(SettleRequestSchema, request, {});
    try {
      const result = await control.settle(options);
      return send(reply, 200, { apiVersion: API_VERSION, kind: 'SettleResult', ...result });
    } catch (err) {
      if (!(err instanceof SettleTimeoutError)) throw err;
      return send(reply, 504, new ApiError('Timeout', 504, err.message).toStatus());
    }
  });
  app.post(`${KUBESIM_API}/reset`, async (_request, reply) => {
    if (!control.reset) throw new ApiError('ServiceUnavailable', 503, 'the cluster has not captured its just-started state yet; retry once it has started');
    const result = await control.reset();
    return send(reply, 200, { apiVersion: API_VERSION, kind: 'ResetResult', ...result });
  });
}

/** parseBody decodes a request's JSON body (raw Buffer: the server parses no bodies itself)
 * with `schema`; `empty` stands for an absent body where one is optional. A body needs a JSON
 * Content-Type, which no web page can send across origins without a preflight. */
export function parseBody<T>(schema: z.ZodType<T>, request: { body: unknown; headers: IncomingHttpHeaders }, empty?: T): T {
  const raw = Buffer.isBuffer(request.body) ? request.body : undefined;
  if ((raw === undefined || raw.toString('utf8').trim() === '') && empty !== undefined) return empty;
  const result = schema.safeParse(decodeJsonBody(request.headers['content-type'], raw));
  if (!result.success) {
    const issue = result.error.issues[0];
    throw badRequest(`invalid request body: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  return result.data;
}

function send(reply: FastifyReply, code: number, body: unknown): FastifyReply {
  return reply.code(code).type('application/json').send(JSON.stringify(body));
}
