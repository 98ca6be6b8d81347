/**
 * A small structured logger: one JSON object per line, pino's shape, no dependencies (the
 * processes built on controllers/runtime do not load fastify just to log).
 */
import { createRealClock } from './clock.js';
/** LOG_LEVELS orders the levels (pino's numbers); `silent` drops everything. */
export const LOG_LEVELS = { debug: 20, info: 30, warn: 40, error: 50, silent: Number.POSITIVE_INFINITY };
/**
 * createLogger returns a Logger writing one JSON line per entry at or above `level`:
 * `{"time":<ms>,"level":"info","component":…, …bindings, …fields,"msg":…}`. `time`, `level`
 * and `msg` cannot be overridden by fields; `component` can (by a child's bindings). Error
 * values anywhere in the fields are written as `{ type, message, stack, cause, …own fields }`.
 * Logging never throws: an entry that cannot be serialised is written as its message plus
 * the serialisation error.
 */
export function createLogger(options) {
    const config = {
        threshold: LOG_LEVELS[options.level ?? 'info'],
        destination: options.destination ?? process.stderr,
        clock: options.clock ?? createRealClock(),
    };
    return boundLogger(config, { component: options.component });
}
function boundLogger(config, bindings) {
    const log = (level) => (fields, message) => {
        if (LOG_LEVELS[level] < config.threshold)
            return;
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
function serialise(entry) {
    try {
        return JSON.stringify(entry, jsonValue);
    }
    catch (err) {
        // A cyclic or otherwise unserialisable field: keep the message rather than lose the line.
        const { time, level, msg } = entry;
        return JSON.stringify({ time, level, msg, logError: err instanceof Error ? err.message : String(err) });
    }
}
/** jsonValue is a JSON.stringify replacer for what JSON cannot show by itself. */
function jsonValue(_key, value) {
    if (typeof value === 'bigint')
        return value.toString();
    if (!(value instanceof Error))
        return value;
    return { ...value, type: value.name, message: value.message, stack: value.stack, cause: value.cause };
}
const noop = () => undefined;
/** silentLogger is a Logger that writes nothing (for tests and library defaults). */
export const silentLogger = {
    debug: noop,
    info: noop,
    warn: noop,
    error: noop,
    child: () => silentLogger,
};
//# sourceMappingURL=logger.js.map