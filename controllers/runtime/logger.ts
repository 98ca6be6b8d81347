/**
 * A small structured logger: one JSON object per line, pino's shape, no dependencies (the
 * processes built on controllers/runtime do not load fastify just to log).
 */
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import type { Clock, Logger } from './types.js';

/** LOG_LEVELS orders the levels (pino's numbers); `silent` drops everything. */
export const LOG_LEVELS = { debug: 20, info: 30, warn: 40, error: 50, silent: Number.POSITIVE_INFINITY } as const;

/** LogLevel is a level name a logger can be set to. */
export type LogLevel = keyof typeof LOG_LEVELS;

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

interface LoggerConfig {
  threshold: number;
  destination: LogDestination;
  clock: Clock;
}

/**
 * createLogger returns a Logger writing one JSON line per entry at or above `level`:
 * `{"time":<ms>,"level":"info","component":…, …bindings, …fields,"msg":…}`. `time`, `level`
 * and `msg` cannot be overridden by fields; `component` can (by a child's bindings). Error
 * values anywhere in the fields are written as `{ type, message, stack, cause, …own fields }`.
 * Logging never throws: an entry that cannot be serialised is written as its message plus
 * the serialisation error.
 */
export function createLogger(options: LoggerOptions): Logger {
  const config: LoggerConfig = {
    threshold: LOG_LEVELS[options.level ?? 'info'],
    destination: options.destination ?? process.stderr,
    clock: options.clock ?? createRealClock(),
  };
  return boundLogger(config, { component: options.component });
}

function boundLogger(config: LoggerConfig, bindings: object): Logger {
  const log =
    (level: Exclude<LogLevel, 'silent'>) =>
    (fields: object, message: string): void => {
      if (LOG_LEVELS[level] < config.threshold) return;
      const head = { time: config.clock.now(), level };
      config.destination.write(`${serialise({ ...head, ...bindings, ...fields, ...head, msg: message })}\n`);
    };
  return {
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: (fields) => boundLogger(config, { ...bindings, ...fields }),
  };
}

function serialise(entry: { time: number; level: string; msg: string }): string {
  try {
    return JSON.stringify(entry, jsonValue);
  } catch (err) {
    // A cyclic or otherwise unserialisable field: keep the message rather than lose the line.
    const { time, level, msg } = entry;
    return JSON.stringify({ time, level, msg, logError: err instanceof Error ? err.message : String(err) });
  }
}

/** jsonValue is a JSON.stringify replacer for what JSON cannot show by itself. */
function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (!(value instanceof Error)) return value;
  return { ...value, type: value.name, message: value.message, stack: value.stack, cause: value.cause };
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
