/**
 * Go's duration text (time.ParseDuration), which Kubernetes uses for metav1.Duration and
 * kubectl for flags such as --timeout: a sequence of decimal numbers with units, like "90s",
 * "1h30m", "1.5h" or "300ms", optionally signed. "0" alone needs no unit.
 */

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3, // U+00B5 micro sign
  μs: 1e-3, // U+03BC Greek mu
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
};

/** One number and its unit; the unit is any run of non-digit, non-dot characters, as in Go. */
const TERM = /^(\d*)(?:\.(\d*))?([^\d.]+)/;

/**
 * parseDuration returns the milliseconds `text` names (fractions of a ms kept). Throws a
 * RangeError worded as Go's: `time: invalid duration "x"`, `time: missing unit in duration
 * "1"`, `time: unknown unit "d" in duration "1d"`.
 */
export function parseDuration(text: string): number {
  const quoted = JSON.stringify(text);
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') throw new RangeError(`time: invalid duration ${quoted}`);
  let totalMs = 0;
  while (rest !== '') {
    const match = TERM.exec(rest);
    if (!match) {
      throw new RangeError(/^\d*(\.\d*)?$/.test(rest) && /\d/.test(rest) ? `time: missing unit in duration ${quoted}` : `time: invalid duration ${quoted}`);
    }
    const [term, whole = '', fraction = '', unit = ''] = match;
    if (whole === '' && fraction === '') throw new RangeError(`time: invalid duration ${quoted}`);
    const unitMs = UNIT_MS[unit];
    if (unitMs === undefined) throw new RangeError(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    totalMs += Number(`${whole || '0'}.${fraction || '0'}`) * unitMs;
    rest = rest.slice(term.length);
  }
  return sign * totalMs;
}
