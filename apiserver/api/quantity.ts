/**
 * Kubernetes resource quantities (k8s.io/apimachinery pkg/api/resource): parsing, exact
 * arithmetic and the canonical string form ("1000m" → "1", "1024Mi" → "1Gi", "0.1" → "100m").
 *
 * A Quantity is an exact decimal `unscaled × 10^exponent` held in a bigint, never a float, so
 * "12345n", "8Ei" and sums of them lose nothing. Limits (documented deviations from Go):
 * - as in Kubernetes, precision stops at nano: smaller fractions round up, away from zero
 *   ("0.1n" → "1n"), and binary (Ki…Ei) amounts are capped at 2^63-1 when parsed;
 * - an exponent suffix beyond ±1000 ("1e5000") is rejected with Kubernetes' suffix error,
 *   where Go would accept it, so no input can make comparisons allocate huge numbers;
 * - amounts of 1000E / 1024Ei and above print with a larger mantissa ("1000E"), where Go
 *   prints a truncated string;
 * - toString always canonicalises; Go echoes inputs that already look canonical verbatim, which
 *   differs only for odd spellings such as "+1", "1." or "1E3" (we print "1", "1", "1e3").
 *
 * Imports nothing outside apiserver/api/ (the server, controllers and scheduler all use it).
 */
import { canonicalQuantityString, divideAwayFromZero, type QuantityFormat, QuantityFormats, type QuantityParts, roundUpToNano } from './quantity-format.js';

export { type QuantityFormat, QuantityFormats, type QuantityParts };

/** QuantityParseError is thrown for text that is not a Kubernetes quantity; its message is one of
 * Kubernetes' (ErrFormatWrong or ErrSuffix), suitable for a 400/422 response. */
export class QuantityParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QuantityParseError';
  }
}

const FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const SUFFIX_WRONG = "unable to parse quantity's suffix";
/** Largest |n| accepted in an `e<n>` suffix, and so the largest exponent any Quantity holds. */
const MAX_EXPONENT = 1000;
const MAX_INT64 = 2n ** 63n - 1n;

/** Quantity is an immutable, exact resource quantity. Arithmetic returns new instances. */
export class Quantity {
  readonly unscaled: bigint;
  readonly exponent: number;
  readonly format: QuantityFormat;

  /** constructor takes exact parts; an exponent below -9 is rounded up (away from zero) to
   * nano. Throws RangeError for a non-integer exponent or one above 1000. */
  constructor(parts: QuantityParts) {
    if (!Number.isInteger(parts.exponent) || parts.exponent > MAX_EXPONENT) {
      throw new RangeError(`quantity exponent out of range: ${parts.exponent}`);
    }
    const rounded = roundUpToNano(parts.unscaled, parts.exponent);
    this.unscaled = rounded.unscaled;
    this.exponent = rounded.exponent;
    this.format = parts.format;
  }

  /** sign is -1, 0 or 1. */
  sign(): -1 | 0 | 1 {
    return this.unscaled < 0n ? -1 : this.unscaled > 0n ? 1 : 0;
  }

  /** isZero is true for any spelling of zero ("0", "0Mi", "-0.0"). */
  isZero(): boolean {
    return this.unscaled === 0n;
  }

  /** cmp compares exactly: -1 if this < other, 0 if equal, 1 if greater; formats are ignored. */
  cmp(other: Quantity): -1 | 0 | 1 {
    const [a, b] = aligned(this, other);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /** add returns the exact sum, in this quantity's format unless this is zero (then other's),
   * as Kubernetes' Quantity.Add does. */
  add(other: Quantity): Quantity {
    const [a, b] = aligned(this, other);
    const format = this.isZero() ? other.format : this.format;
    return new Quantity({ unscaled: a + b, exponent: Math.min(this.exponent, other.exponent), format });
  }

  /** sub returns the exact difference, formatted like add. */
  sub(other: Quantity): Quantity {
    return this.add(other.neg());
  }

  /** neg returns the negated quantity in the same format. */
  neg(): Quantity {
    return new Quantity({ unscaled: -this.unscaled, exponent: this.exponent, format: this.format });
  }

  /** scaledValue returns the value in units of 10^exponent (e.g. -3 for milli), rounded up
   * away from zero when inexact, as an exact bigint. */
  scaledValue(exponent: number): bigint {
    const shift = this.exponent - exponent;
    return shift >= 0 ? this.unscaled * 10n ** BigInt(shift) : divideAwayFromZero(this.unscaled, -shift);
  }

  /** value is Kubernetes' Value(): whole units, rounded up away from zero ("1.5" → 2, "100m" → 1).
   * A JS number, exact up to 2^53; use scaledValue(0) for larger amounts such as "8Ei". */
  value(): number {
    return Number(this.scaledValue(0));
  }

  /** milliValue is Kubernetes' MilliValue(): thousandths, rounded up away from zero ("1.5" →
   * 1500, "1n" → 1). A JS number, exact up to 2^53. */
  milliValue(): number {
    return Number(this.scaledValue(-3));
  }

  /** toString is the canonical form Kubernetes serialises: largest suffix that keeps an integer
   * mantissa ("1500m", "1Gi", "1536Mi", "1e3"); binary amounts under 1024 or with a fraction
   * print in decimal SI ("512", "1126400m"). */
  toString(): string {
    return canonicalQuantityString(this);
  }

  /** toJSON serialises as the canonical string, like Kubernetes' MarshalJSON. */
  toJSON(): string {
    return this.toString();
  }
}

/** Both unscaled values brought to the smaller exponent. */
function aligned(a: Quantity, b: Quantity): [bigint, bigint] {
  const exponent = Math.min(a.exponent, b.exponent);
  return [a.unscaled * 10n ** BigInt(a.exponent - exponent), b.unscaled * 10n ** BigInt(b.exponent - exponent)];
}

interface ScannedQuantity {
  negative: boolean;
  integerDigits: string;
  fractionDigits: string;
  suffix: string;
}

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const SUFFIX_LETTERS = 'eEinumkKMGTP';

/** Splits text into sign, digits and suffix the way Kubernetes' parseQuantityString does, or
 * returns its error message; note that it accepts "", ".", "-" and "1." as numbers (they read
 * as 0 and 1). */
function scanQuantity(text: string): ScannedQuantity | string {
  let pos = 0;
  const negative = text.charAt(0) === '-';
  if (negative || text.charAt(0) === '+') pos++;
  const integerStart = pos;
  while (isDigit(text.charAt(pos))) pos++;
  const integerDigits = text.slice(integerStart, pos);
  let fractionDigits = '';
  if (text.charAt(pos) === '.') {
    const fractionStart = ++pos;
    while (isDigit(text.charAt(pos))) pos++;
    fractionDigits = text.slice(fractionStart, pos);
  }
  const suffixStart = pos;
  while (pos < text.length && SUFFIX_LETTERS.includes(text.charAt(pos))) pos++;
  if (text.charAt(pos) === '-' || text.charAt(pos) === '+') pos++;
  while (isDigit(text.charAt(pos))) pos++;
  if (pos < text.length) return FORMAT_WRONG;
  return { negative, integerDigits, fractionDigits, suffix: text.slice(suffixStart) };
}

const DECIMAL_SUFFIXES: ReadonlyMap<string, number> = new Map([
  ['n', -9],
  ['u', -6],
  ['m', -3],
  ['', 0],
  ['k', 3],
  ['M', 6],
  ['G', 9],
  ['T', 12],
  ['P', 15],
  ['E', 18],
]);
const BINARY_SUFFIXES: ReadonlyMap<string, number> = new Map([
  ['Ki', 10],
  ['Mi', 20],
  ['Gi', 30],
  ['Ti', 40],
  ['Pi', 50],
  ['Ei', 60],
]);
const EXPONENT_SUFFIX = /^[eE][+-]?[0-9]+$/;

interface Suffix {
  base: 10 | 2;
  power: number;
  format: QuantityFormat;
}

/** The suffix as a power of 10 (decimal SI and exponents) or of 2 (binary SI), or
 * Kubernetes' error message. */
function interpretSuffix(suffix: string): Suffix | string {
  const decimal = DECIMAL_SUFFIXES.get(suffix);
  if (decimal !== undefined) return { base: 10, power: decimal, format: QuantityFormats.DecimalSI };
  const binary = BINARY_SUFFIXES.get(suffix);
  if (binary !== undefined) return { base: 2, power: binary, format: QuantityFormats.BinarySI };
  if (!EXPONENT_SUFFIX.test(suffix)) return SUFFIX_WRONG;
  const power = Number(suffix.slice(1));
  if (Math.abs(power) > MAX_EXPONENT) return SUFFIX_WRONG;
  return { base: 10, power, format: QuantityFormats.DecimalExponent };
}

/** parseQuantity parses a Kubernetes quantity: an optionally signed decimal ("5", "-1.5", ".5",
 * "1.") with an optional suffix — decimal SI (n u m k M G T P E), binary SI (Ki Mi Gi Ti Pi Ei)
 * or an exponent (e3, E-3, e+6). Numbers are read through their JS string form (0.5 → "0.5").
 * No whitespace is allowed. Throws QuantityParseError with Kubernetes' message
 * (`quantities must match the regular expression ...` or `unable to parse quantity's suffix`). */
export function parseQuantity(value: string | number): Quantity {
  const parsed = quantityOrError(value);
  if (typeof parsed === 'string') throw new QuantityParseError(parsed);
  return parsed;
}

/** Parsed texts, memoised: a Quantity is immutable, a cluster spells its quantities a handful
 * of ways, and validation, defaulting and QoS parse each of a pod's several times per write. */
const parsedTexts = new Map<string, Quantity | string>();
const MAX_MEMOISED = 4096;

/** quantityOrError parses like parseQuantity but returns Kubernetes' error message instead of
 * throwing, for the request path: validation meets malformed text as a matter of course, and a
 * thrown error costs a stack trace. */
export function quantityOrError(value: string | number): Quantity | string {
  if (typeof value === 'number' && !Number.isFinite(value)) return FORMAT_WRONG;
  const text = typeof value === 'number' ? String(value) : value;
  let parsed = parsedTexts.get(text);
  if (parsed === undefined) {
    if (parsedTexts.size >= MAX_MEMOISED) parsedTexts.clear();
    parsed = parseText(text);
    parsedTexts.set(text, parsed);
  }
  return parsed;
}

function parseText(text: string): Quantity | string {
  if (text === '') return FORMAT_WRONG;
  const scanned = scanQuantity(text);
  if (typeof scanned === 'string') return scanned;
  const suffix = interpretSuffix(scanned.suffix);
  if (typeof suffix === 'string') return suffix;
  const { base, power, format } = suffix;
  let unscaled = BigInt(`0${scanned.integerDigits}${scanned.fractionDigits}`);
  let exponent = -scanned.fractionDigits.length;
  if (base === 10) exponent += power;
  else unscaled <<= BigInt(power);
  const rounded = roundUpToNano(unscaled, exponent);
  let parts: QuantityParts = { ...rounded, format };
  if (format === QuantityFormats.BinarySI) parts = clampBinary(parts);
  return new Quantity({ ...parts, unscaled: scanned.negative ? -parts.unscaled : parts.unscaled });
}

/** Binary amounts are capped at 2^63-1, and a binary amount below one is decimal (Kubernetes). */
function clampBinary(parts: QuantityParts): QuantityParts {
  const scale = 10n ** BigInt(Math.max(0, -parts.exponent));
  const whole = parts.exponent >= 0 ? parts.unscaled * 10n ** BigInt(parts.exponent) : parts.unscaled;
  if (whole > MAX_INT64 * scale) return { unscaled: MAX_INT64, exponent: 0, format: parts.format };
  if (parts.unscaled > 0n && whole < scale) return { ...parts, format: QuantityFormats.DecimalSI };
  return parts;
}

/** QuantityLike is anything the helpers below accept: a Quantity or its text/number form. */
/** tryParseQuantity parses `text`, returning undefined (not throwing) when it is not a
 * Kubernetes quantity. */
export function tryParseQuantity(text: string): Quantity | undefined {
  const parsed = quantityOrError(text);
  return typeof parsed === 'string' ? undefined : parsed;
}

/** quantityError returns Kubernetes' message for malformed quantity text, or undefined when
 * the text parses. */
export function quantityError(text: string): string | undefined {
  const parsed = quantityOrError(text);
  return typeof parsed === 'string' ? parsed : undefined;
}

export type QuantityLike = Quantity | string | number;

const toQuantity = (value: QuantityLike): Quantity => (value instanceof Quantity ? value : parseQuantity(value));

/** createQuantity builds `value × 10^exponent` (exponent defaults to 0, format to DecimalSI),
 * like Kubernetes' NewQuantity / NewMilliQuantity / NewScaledQuantity. Throws RangeError when
 * `value` is not an integer. */
export function createQuantity(options: { value: number | bigint; exponent?: number; format?: QuantityFormat }): Quantity {
  const { value, exponent = 0, format = QuantityFormats.DecimalSI } = options;
  if (typeof value === 'number' && !Number.isInteger(value)) {
    throw new RangeError(`quantity value must be an integer: ${value}`);
  }
  return new Quantity({ unscaled: BigInt(value), exponent, format });
}

/** compareQuantities compares two quantities exactly (-1, 0, 1), parsing text as parseQuantity
 * does; throws QuantityParseError for invalid text. */
export function compareQuantities(a: QuantityLike, b: QuantityLike): -1 | 0 | 1 {
  return toQuantity(a).cmp(toQuantity(b));
}

/** addQuantities sums quantities exactly, keeping the format of the first non-zero one (as
 * summing into an empty Kubernetes Quantity does); no arguments give zero. Throws
 * QuantityParseError for invalid text. */
export function addQuantities(...values: readonly QuantityLike[]): Quantity {
  const zero = new Quantity({ unscaled: 0n, exponent: 0, format: QuantityFormats.DecimalSI });
  return values.reduce<Quantity>((sum, value) => sum.add(toQuantity(value)), zero);
}

/** Rounds a finite number up (away from zero) to an integer; throws RangeError otherwise. */
function wholeUnits(value: number, what: string): bigint {
  if (!Number.isFinite(value)) throw new RangeError(`${what} must be a finite number: ${value}`);
  return BigInt(value < 0 ? -Math.ceil(-value) : Math.ceil(value));
}

/** formatCpuMillis renders CPU as metrics-server and kubectl expect: the canonical decimal-SI
 * quantity of `millicores` whole millicores (fractions round up): 250 → "250m", 1000 → "1",
 * 1500 → "1500m", 0 → "0". Throws RangeError for NaN or ±Infinity. */
export function formatCpuMillis(millicores: number): string {
  return createQuantity({ value: wholeUnits(millicores, 'millicores'), exponent: -3 }).toString();
}

/** formatMemoryBytes renders memory as metrics-server does (a binary-SI quantity of whole bytes,
 * fractions rounded up) in canonical form: the largest Ki/Mi/Gi/… unit that divides the amount
 * exactly — 12582912 → "12Mi", 1048576 → "1Mi", 1049600 → "1025Ki", 1536 → "1536"; amounts
 * under 1024 print in decimal SI (1000 → "1k", 512 → "512"). Throws RangeError for NaN/±Infinity. */
export function formatMemoryBytes(bytes: number): string {
  return createQuantity({ value: wholeUnits(bytes, 'bytes'), format: QuantityFormats.BinarySI }).toString();
}
