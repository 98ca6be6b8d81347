/**
 * kubesim's own API for the cluster as a whole, under /apis/kubesim.io/v1alpha1 (not a
 * Kubernetes API group: it is not in discovery and serves no objects):
 *   PUT  /activity/{component}   a component process reports its loops' activity
 *   GET  /activity               every component's activity (the live view, `kubesim status`)
 *   POST /settle                 wait until the cluster is quiescent; 504 names what was busy
 *   POST /reset                  back to the just-started state
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { ComponentActivity } from '../../controllers/runtime/activity.js';
import { ApiError, badRequest } from '../api/api-error.js';
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
    const report = parseBody(ActivityReportSchema, request.body);
    control.board.report({ component: request.params.component, loops: report.loops } as ComponentActivity);
    return send(reply, 200, { apiVersion: API_VERSION, kind: 'Status', status: 'Success' });
  });
  app.get(`${KUBESIM_API}/activity`, async (_request, reply) =>
    send(reply, 200, { apiVersion: API_VERSION, kind: 'ComponentActivityList', busy: control.busy(), items: control.board.current() }),
  );
  app.post(`${KUBESIM_API}/settle`, async (request, reply) => {
    const options = parseBody(SettleRequestSchema, request.body, {});
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

/** parseBody decodes a JSON body (raw Buffer: the server parses no bodies itself) with `schema`. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown, empty?: T): T {
  const text = Buffer.isBuffer(body) ? body.toString('utf8') : '';
  if (text.trim() === '' && empty !== undefined) return empty;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw badRequest(`the request body is not valid JSON: ${(err as Error).message}`);
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw badRequest(`invalid request body: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  return result.data;
}

function send(reply: FastifyReply, code: number, body: unknown): FastifyReply {
  return reply.code(code).type('application/json').send(JSON.stringify(body));
}
