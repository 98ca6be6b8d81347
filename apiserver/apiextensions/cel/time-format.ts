/**
 * Parsing and printing of durations and timestamps as Go (and so cel-go and Kubernetes) does:
 * time.ParseDuration ("1h30m", "-1.5s", "300ms"), RFC 3339 timestamps, RFC3339Nano output and
 * cel-go's duration output (seconds with a fraction: "3723.004s").
 */
import { parseDurationNs } from '../../api/machinery/duration.js';
import { CelEvalError } from './errors.js';
import { CelDuration, CelTimestamp, INT64_MAX, INT64_MIN } from './values.js';

const NS_PER_SECOND = 1_000_000_000n;
/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in Unix seconds: CEL's timestamp range. */
export const MIN_UNIX_SECONDS = -62135596800n;
/** See MIN_UNIX_SECONDS. */
export const MAX_UNIX_SECONDS = 253402300799n;

/** parseGoDuration parses Go's duration syntax into nanoseconds; undefined when invalid or out
 * of int64 range. `allowDays` adds the d and w units of OpenAPI `format: duration` data. */
export function parseGoDuration(text: string, allowDays = false): bigint | undefined {
  try {
    return parseDurationNs(text, { days: allowDays });
  } catch {
    return undefined;
  }
}

/** formatDuration prints a duration as cel-go's string(duration): seconds with the shortest
 * fraction, then "s" ("60s", "1.5s", "0.000000001s"). */
export function formatDuration(d: CelDuration): string {
  const negative = d.ns < 0n;
  const abs = negative ? -d.ns : d.ns;
  const fraction = (abs % NS_PER_SECOND).toString().padStart(9, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${abs / NS_PER_SECOND}${fraction ? `.${fraction}` : ''}s`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const LENIENT_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;
const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** parseTimestamp parses RFC 3339 text (as time.Parse(time.RFC3339) does) into a timestamp that
 * remembers its UTC offset for printing; undefined when invalid or outside years 1..9999.
 * `lenient` also accepts the spellings Kubernetes accepts in `format: date-time` data. */
export function parseTimestamp(text: string, lenient = false): CelTimestamp | undefined {
  const m = (lenient ? LENIENT_DATE_TIME : RFC3339).exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!isValidDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  const nanos = BigInt((m[7] ?? '').slice(0, 9).padEnd(9, '0'));
  let offsetSeconds = 0;
  if (m[9] !== undefined) {
    const offHours = Number(m[10]);
    const offMinutes = Number(m[11]);
    if (offHours > 23 || offMinutes > 59) return undefined;
    offsetSeconds = (m[9] === '-' ? -1 : 1) * (offHours * 3600 + offMinutes * 60);
  }
  const localSeconds = BigInt(daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second);
  const seconds = localSeconds - BigInt(offsetSeconds);
  if (seconds < MIN_UNIX_SECONDS || seconds > MAX_UNIX_SECONDS) return undefined;
  return new CelTimestamp(seconds * NS_PER_SECOND + nanos, offsetSeconds);
}

/** parseFullDate parses `format: date` data ("2006-01-02") as midnight UTC. */
export function parseFullDate(text: string): CelTimestamp | undefined {
  const m = FULL_DATE.exec(text);
  return m ? parseTimestamp(`${text}T00:00:00Z`) : undefined;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * ((month + 9) % 12) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

function isValidDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/** CivilTime is a timestamp's wall-clock reading in some zone. */
export interface CivilTime {
  year: number;
  /** 0-based. */
  month: number;
  day: number;
  hours: number;
  minutes: number;
  seconds: number;
  milliseconds: number;
  /** 0 = Sunday. */
  dayOfWeek: number;
  /** 0-based. */
  dayOfYear: number;
}

/** civilTime reads a timestamp's wall clock at a UTC offset (seconds east of UTC). */
export function civilTime(t: CelTimestamp, offsetSeconds: number): CivilTime {
  const seconds = floorDiv(t.ns, NS_PER_SECOND) + BigInt(offsetSeconds);
  const nanos = t.ns - floorDiv(t.ns, NS_PER_SECOND) * NS_PER_SECOND;
  const date = new Date(Number(seconds) * 1000);
  const startOfYear = new Date(0);
  startOfYear.setUTCFullYear(date.getUTCFullYear(), 0, 1);
  startOfYear.setUTCHours(0, 0, 0, 0);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth(),
    day: date.getUTCDate(),
    hours: date.getUTCHours(),
    minutes: date.getUTCMinutes(),
    seconds: date.getUTCSeconds(),
    milliseconds: Number(nanos / 1_000_000n),
    dayOfWeek: date.getUTCDay(),
    dayOfYear: Math.floor((date.getTime() - startOfYear.getTime()) / 86_400_000),
  };
}

/** formatTimestamp prints RFC3339Nano as Go does: trailing fraction zeros dropped, "Z" for UTC,
 * else the offset the timestamp was parsed with. */
export function formatTimestamp(t: CelTimestamp): string {
  const c = civilTime(t, t.offsetSeconds);
  const nanos = t.ns - floorDiv(t.ns, NS_PER_SECOND) * NS_PER_SECOND;
  const fraction = nanos.toString().padStart(9, '0').replace(/0+$/, '');
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  const date = `${pad(c.year, 4)}-${pad(c.month + 1)}-${pad(c.day)}T${pad(c.hours)}:${pad(c.minutes)}:${pad(c.seconds)}`;
  return `${date}${fraction ? `.${fraction}` : ''}${formatOffset(t.offsetSeconds)}`;
}

function formatOffset(offsetSeconds: number): string {
  if (offsetSeconds === 0) return 'Z';
  const abs = Math.abs(offsetSeconds);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${offsetSeconds < 0 ? '-' : '+'}${pad(Math.floor(abs / 3600))}:${pad(Math.floor((abs % 3600) / 60))}`;
}

/** zoneOffsetSeconds resolves a CEL time zone argument at an instant: an IANA name ("UTC",
 * "America/New_York") or a fixed offset "[+-]HH:MM". Throws CelEvalError when unknown. */
export function zoneOffsetSeconds(zone: string, t: CelTimestamp): number {
  const colon = zone.indexOf(':');
  if (colon >= 0) {
    const hours = Number.parseInt(zone.slice(0, colon), 10);
    const minutes = Number(zone.slice(colon + 1));
    if (!/^[+-]?\d+$/.test(zone.slice(0, colon)) || !/^\d+$/.test(zone.slice(colon + 1))) {
      throw new CelEvalError(`strconv.Atoi: parsing "${zone}": invalid syntax`);
    }
    if (minutes > 59) throw new CelEvalError(`timezone offset minutes out of range [0, 59]: ${zone}`);
    return (zone.startsWith('-') ? hours * 60 - minutes : hours * 60 + minutes) * 60;
  }
  return ianaOffsetSeconds(zone, t);
}

function ianaOffsetSeconds(zone: string, t: CelTimestamp): number {
  if (zone === '' || zone === 'UTC') return 0;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
  } catch {
    throw new CelEvalError(`unknown time zone ${zone}`);
  }
  const ms = Number(floorDiv(t.ns, NS_PER_SECOND)) * 1000;
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const year = parts.era === 'BC' ? 1 - Number(parts.year) : Number(parts.year);
  const wall = new Date(0);
  wall.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day));
  wall.setUTCHours(Number(parts.hour), Number(parts.minute), Number(parts.second), 0);
  return Math.round((wall.getTime() - ms) / 1000);
}

/** floorDiv divides rounding toward negative infinity. */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** checkTimestamp returns a timestamp when within years 1..9999, else throws "timestamp overflow". */
export function checkTimestamp(ns: bigint, offsetSeconds = 0): CelTimestamp {
  const seconds = floorDiv(ns, NS_PER_SECOND);
  if (seconds < MIN_UNIX_SECONDS || seconds > MAX_UNIX_SECONDS) throw new CelEvalError('timestamp overflow');
  return new CelTimestamp(ns, offsetSeconds);
}

/** checkDuration returns a duration when within int64 nanoseconds, else throws "duration overflow". */
export function checkDuration(ns: bigint): CelDuration {
  if (ns < INT64_MIN || ns > INT64_MAX) throw new CelEvalError('duration overflow');
  return new CelDuration(ns);
}
