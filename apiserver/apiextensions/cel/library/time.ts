/**
 * Timestamps and durations: the duration() and timestamp() constructors and the getters
 * (getFullYear, getMonth, getDate, getDayOfMonth, getDayOfWeek, getDayOfYear, getHours,
 * getMinutes, getSeconds, getMilliseconds), which read UTC unless given a time zone. Arithmetic
 * and comparison live with the operators.
 */
import { CelEvalError } from '../errors.js';
import { type FunctionRegistry, global, member } from '../functions.js';
import { type CivilTime, checkTimestamp, civilTime, parseGoDuration, parseTimestamp, zoneOffsetSeconds } from '../time-format.js';
import { T } from '../types.js';
import { CelDuration, type CelTimestamp, type CelValue } from '../values.js';

const GETTERS: Record<string, (c: CivilTime) => number> = {
  getFullYear: (c) => c.year,
  getMonth: (c) => c.month,
  getDate: (c) => c.day,
  getDayOfMonth: (c) => c.day - 1,
  getDayOfWeek: (c) => c.dayOfWeek,
  getDayOfYear: (c) => c.dayOfYear,
  getHours: (c) => c.hours,
  getMinutes: (c) => c.minutes,
  getSeconds: (c) => c.seconds,
  getMilliseconds: (c) => c.milliseconds,
};

const DURATION_UNITS_NS: Record<string, bigint> = {
  getHours: 3_600_000_000_000n,
  getMinutes: 60_000_000_000n,
  getSeconds: 1_000_000_000n,
  getMilliseconds: 1_000_000n,
};

/** toDuration converts a string as duration() does; throws a CEL conversion error when invalid. */
export function toDuration(text: string): CelDuration {
  const ns = parseGoDuration(text);
  if (ns === undefined) throw new CelEvalError("type conversion error from 'string' to 'google.protobuf.Duration'");
  return new CelDuration(ns);
}

/** toTimestamp converts RFC 3339 text as timestamp() does; throws when invalid or out of range. */
export function toTimestamp(text: string): CelTimestamp {
  const t = parseTimestamp(text);
  if (t === undefined) throw new CelEvalError("type conversion error from 'string' to 'google.protobuf.Timestamp'");
  return t;
}

/** registerTime adds the time functions to a registry. */
export function registerTime(registry: FunctionRegistry): void {
  registry.add(
    'duration',
    global([T.string], T.duration, ([s]) => toDuration(s as string)),
    global([T.duration], T.duration, ([d]) => d!),
  );
  registry.add(
    'timestamp',
    global([T.string], T.timestamp, ([s]) => toTimestamp(s as string)),
    global([T.int], T.timestamp, ([i]) => checkTimestamp((i as bigint) * 1_000_000_000n)),
    global([T.timestamp], T.timestamp, ([t]) => t!),
  );
  for (const [name, read] of Object.entries(GETTERS)) {
    const inZone = (t: CelValue, zone: string): bigint => {
      const ts = t as CelTimestamp;
      return BigInt(read(civilTime(ts, zoneOffsetSeconds(zone, ts))));
    };
    registry.add(
      name,
      member([T.timestamp], T.int, ([t]) => BigInt(read(civilTime(t as CelTimestamp, 0)))),
      member([T.timestamp, T.string], T.int, ([t, zone]) => inZone(t!, zone as string)),
    );
    const unit = DURATION_UNITS_NS[name];
    if (unit !== undefined)
      registry.add(
        name,
        member([T.duration], T.int, ([d]) => (d as CelDuration).ns / unit),
      );
  }
}
