/**
 * Go's `%v` and `%q` renderings of numbers and strings, for messages kube-apiserver builds
 * with fmt (`should be less than or equal to 1e+06`).
 */

/** goFloat renders a float64 as Go's %v does (strconv 'g', shortest): exponent notation
 * from 1e+06 up and below 1e-04, with at least two exponent digits. */
export function goFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa = '', exponentText = '0'] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    const digits = String(Math.abs(exponent)).padStart(2, '0');
    return `${mantissa}e${exponent < 0 ? '-' : '+'}${digits}`;
  }
  return String(value);
}

/** goNumber renders a JSON number as Go does after decoding it: integers as int64, others as float64. */
export function goNumber(value: number): string {
  return isGoInt(value) ? String(value) : goFloat(value);
}

/** isGoInt: the number decodes to an int64 in Kubernetes (an integer within int64 range);
 * anything else decodes to a float64. */
export function isGoInt(value: number): boolean {
  return Number.isInteger(value) && Math.abs(value) < 2 ** 63;
}

/** goQuote renders a string as Go's %q does (one implementation, in machinery). */
export { goQuote } from '../../api/machinery/go-quote.js';
