/**
 * Go's duration text (time.ParseDuration), which Kubernetes uses for metav1.Duration, kubectl
 * for flags such as --timeout, and CEL for duration('…'): a sequence of decimal numbers with
 * units, like "90s", "1h30m", "1.5h" or "300ms", optionally signed. "0" alone needs no unit.
 * The one parser of it; callers decide what an invalid text means to them.
 */

const NS_PER_SECOND = 1_000_000_000n;
const INT64_MAX = (1n << 63n) - 1n;

const UNIT_NS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: NS_PER_SECOND,
  m: 60n * NS_PER_SECOND,
  h: 3600n * NS_PER_SECOND,
};

/** The d and w units OpenAPI `format: duration` data also accepts (strfmt.ParseDuration). */
const DAY_UNIT_NS: Readonly<Record<string, bigint>> = { ...UNIT_NS, d: 86_400n * NS_PER_SECOND, w: 7n * 86_400n * NS_PER_SECOND };

/** One number and its unit; the unit is any run of non-digit, non-dot characters, as in Go. */
const TERM = /^(\d*)(?:\.(\d*))?([^\d.]*)/;

/** DurationOptions widen the grammar: `days` accepts the d and w units. */
export interface DurationOptions {
  readonly days?: boolean;
}

/**
 * parseDurationNs returns the nanoseconds `text` names, within int64 as Go's Duration is.
 * Throws a RangeError worded as Go's: `time: invalid duration "x"`, `time: missing unit in
 * duration "1"`, `time: unknown unit "d" in duration "1d"`. A fraction finer than a
 * nanosecond is dropped.
 */
export function parseDurationNs(text: string, options: DurationOptions = {}): bigint {
  const units = options.days ? DAY_UNIT_NS : UNIT_NS;
  const invalid = (what = 'invalid duration') => new RangeError(`time: ${what} ${JSON.stringify(text)}`);
  let rest = text;
  const negative = rest.startsWith('-');
  if (negative || rest.startsWith('+')) rest = rest.slice(1);
  if (rest === '0') return 0n;
  if (rest === '') throw invalid();
  let total = 0n;
  while (rest !== '') {
    const [term, whole = '', fraction = '', unit = ''] = TERM.exec(rest)!;
    if (whole === '' && fraction === '') throw invalid();
    if (unit === '') throw invalid('missing unit in duration');
    const unitNs = units[unit];
    if (unitNs === undefined) throw new RangeError(`time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(text)}`);
    total += BigInt(whole || '0') * unitNs + (BigInt(fraction || '0') * unitNs) / 10n ** BigInt(fraction.length);
    if (total > INT64_MAX + 1n) throw invalid();
    rest = rest.slice(term.length);
  }
  if (!negative && total > INT64_MAX) throw invalid();
  return negative ? -total : total;
}

/** parseDuration is parseDurationNs in milliseconds, fractions of a millisecond kept. */
export function parseDuration(text: string, options: DurationOptions = {}): number {
  return Number(parseDurationNs(text, options)) / 1e6;
}
