/**
 * The structured logger of every kubesim process: pino, set up so that the API server (fastify
 * is given the same pino logger), the controllers, the scheduler and kubelet-sim all write the
 * same JSON lines:
 *
 *   {"level":"warn","time":1700000000000,"component":"replicaset-controller",…bindings,…fields,"msg":"…"}
 *
 * `level` is the level's name (not pino's number), `time` is read from the clock the process
 * runs on (the cluster clock, so a cluster at --speed 10 logs cluster time), `component` names
 * the process or part writing. cli/log-format.ts turns these lines into short ones for a terminal.
 */
import { type Logger as PinoLogger, pino, stdSerializers } from 'pino';
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import type { Clock, Logger } from './types.js';

/** LOG_LEVELS orders the levels (pino's numbers); `silent` drops everything. */
export const LOG_LEVELS = { debug: 20, info: 30, warn: 40, error: 50, silent: Number.POSITIVE_INFINITY } as const;

/** LogLevel is a level name a logger can be set to. */
export type LogLevel = keyof typeof LOG_LEVELS;

/** isLogLevel says whether a flag's text names a level. */
export function isLogLevel(text: string): text is LogLevel {
  return Object.hasOwn(LOG_LEVELS, text);
}

/** LogDestination receives whole lines, each ending in '\n' (process.stderr fits). */
export interface LogDestination {
  write(line: string): unknown;
}

/** LoggerOptions configures `createLogger`. */
export interface LoggerOptions {
  /** The process or library part writing, e.g. 'replicaset-controller'. */
  component: string;
  /** Lowest level written. Default 'info'. */
  level?: LogLevel;
  /** Default process.stderr. */
  destination?: LogDestination;
  /** Source of `time`. Default: wall time (speed 1); pass the cluster clock to log cluster time. */
  clock?: Clock;
}

/** ProcessLogger is what createLogger returns: a Logger that fastify also accepts (a pino logger). */
export type ProcessLogger = PinoLogger;

/**
 * createLogger returns a logger writing one JSON line per entry at or above `level`. A field
 * cannot forge `time`, `level` or `msg` (such fields are dropped); a child's bindings may
 * repeat `component` (the line then holds both, and JSON readers take the last). Error values
 * at the top of the fields are written as `{ type, message, stack, cause, …own fields }`.
 * Logging never throws: cyclic values are written as "[Circular]".
 */
export function createLogger(options: LoggerOptions): ProcessLogger {
  const clock = options.clock ?? createRealClock();
  const destination = options.destination ?? process.stderr;
  return pino(
    {
      level: options.level ?? 'info',
      base: { component: options.component },
      timestamp: () => `,"time":${clock.now()}`,
      formatters: { level: (label) => ({ level: label }), log: fieldsOf },
      serializers: { err: stdSerializers.errWithCause },
    },
    { write: (line: string) => void destination.write(line) },
  );
}

/** Keys every line sets itself; a field of the same name would shadow it for JSON readers. */
const OWN_KEYS = new Set(['time', 'level', 'msg']);

/** fieldsOf prepares an entry's fields for pino: its own keys dropped, Errors (under `err` pino's
 * serializer does it) and bigints made writable. */
function fieldsOf(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (OWN_KEYS.has(key)) continue;
    if (typeof value === 'bigint') out[key] = value.toString();
    else if (value instanceof Error && key !== 'err') out[key] = stdSerializers.errWithCause(value);
    else out[key] = value;
  }
  return out;
}

const noop = (): void => undefined;

/** silentLogger is a Logger that writes nothing (for tests and library defaults). */
export const silentLogger: Logger = {
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  child: () => silentLogger,
};
