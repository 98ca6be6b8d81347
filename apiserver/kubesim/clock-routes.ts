/**
 * The cluster clock API (apiserver/api/kubesim/clock.ts has the paths and wire types): read
 * the clock, watch it, and steer it. Component processes follow the watch
 * (controllers/runtime/remote-clock.ts), so pause, resume, speed and advance reach the whole
 * cluster; `kubesim clock` is the command-line face.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { badRequest, invalid } from '../api/api-error.js';
import {
  AdvanceRequestSchema,
  CLOCK_ADVANCE_MAX_MS,
  CLOCK_API_VERSION,
  CLOCK_PATH,
  type ClusterClockObject,
  clockSpeedProblem,
  SpeedRequestSchema,
} from '../api/kubesim/clock.js';
import type { ClockMode, ClockState, ClusterClock } from '../api/machinery/cluster-clock.js';
import { parseDuration } from '../api/machinery/duration.js';
import { type Query, queryBool } from '../request/query.js';
import { parseBody } from './cluster-routes.js';

/** The latest moment a JavaScript Date (and RFC 3339 text) can express. */
const MAX_TIME_MS = 8.64e15;

/** registerClockRoutes serves `clock` (see the module comment). */
export function registerClockRoutes(app: FastifyInstance, clock: ClusterClock): void {
  const current = () => clockObject(clock.state(), clock.mode);
  app.get(CLOCK_PATH, async (request, reply) => {
    if (!queryBool(request.query as Query, 'watch')) return send(reply, current());
    reply.hijack();
    streamClock(clock, reply.raw);
    return reply;
  });
  app.post(`${CLOCK_PATH}/advance`, async (request, reply) => {
    const ms = advanceMs(parseBody(AdvanceRequestSchema, request, {}));
    if (ms > CLOCK_ADVANCE_MAX_MS) throw invalidClock('ms', ms, `must be at most ${CLOCK_ADVANCE_MAX_MS} (a year)`);
    if (clock.now() + ms > MAX_TIME_MS) throw badRequest(`advancing by ${ms} ms would take cluster time past the year 275760`);
    await clock.advance(ms);
    return send(reply, current());
  });
  app.post(`${CLOCK_PATH}/pause`, async (_request, reply) => {
    clock.pause();
    return send(reply, current());
  });
  app.post(`${CLOCK_PATH}/resume`, async (_request, reply) => {
    clock.resume();
    return send(reply, current());
  });
  app.post(`${CLOCK_PATH}/speed`, async (request, reply) => {
    const { speed } = parseBody(SpeedRequestSchema, request);
    const problem = clockSpeedProblem(speed);
    if (problem) throw invalidClock('speed', speed, problem);
    clock.setSpeed(speed);
    return send(reply, current());
  });
}

/** invalidClock is the 422 for a clock request outside the clock's bounds. */
function invalidClock(field: string, value: number, detail: string) {
  return invalid({ group: 'kubesim.io', resource: 'clock', kind: 'ClusterClock', name: 'clock' }, [{ type: 'FieldValueInvalid', field, value, detail }]);
}

/** clockObject renders a clock state as the ClusterClock the API serves. */
export function clockObject(state: ClockState, mode: ClockMode): ClusterClockObject {
  return {
    apiVersion: CLOCK_API_VERSION,
    kind: 'ClusterClock',
    now: new Date(state.nowMs).toISOString(),
    nowMs: state.nowMs,
    speed: state.speed,
    paused: state.paused,
    mode,
    wallMs: state.wallMs,
  };
}

/** advanceMs reads an advance request: exactly one of ms or duration, never backwards. */
function advanceMs(body: { ms?: number; duration?: string }): number {
  if ((body.ms === undefined) === (body.duration === undefined)) {
    throw badRequest('an advance request needs exactly one of ms (a number of milliseconds) or duration (Go duration text such as "90s" or "1h30m")');
  }
  if (body.ms !== undefined) return body.ms;
  let ms: number;
  try {
    ms = parseDuration(body.duration ?? '');
  } catch (err) {
    throw badRequest(`invalid duration: ${(err as Error).message}`);
  }
  if (ms < 0) throw badRequest(`cluster time only moves forward: duration ${JSON.stringify(body.duration)} is negative`);
  return ms;
}

/** streamClock writes the clock now and after every change, one JSON line each, as a chunked
 * response, until the client goes away. */
function streamClock(clock: ClusterClock, raw: ServerResponse): void {
  raw.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  raw.socket?.setNoDelay(true);
  let unsubscribe = () => {};
  const write = (state: ClockState): void => {
    if (raw.destroyed) return;
    try {
      raw.write(`${JSON.stringify(clockObject(state, clock.mode))}\n`);
    } catch (err) {
      // A listener runs inside whatever changed the clock: a failure here ends this stream only.
      unsubscribe();
      raw.destroy(err as Error);
    }
  };
  write(clock.state());
  unsubscribe = clock.onChange(write);
  raw.on('close', unsubscribe);
}

function send(reply: FastifyReply, body: unknown): FastifyReply {
  return reply.code(200).type('application/json').send(JSON.stringify(body));
}
