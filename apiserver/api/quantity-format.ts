/**
 * Exact rounding and canonical printing for quantity.ts (Kubernetes' CanonicalizeBytes rules).
 * Works on plain parts (defined here, re-exported by quantity.ts), so it does not depend on
 * the Quantity class.
 */

/** QuantityFormats are the three ways a quantity remembers to print itself. */
export const QuantityFormats = {
  DecimalExponent: 'DecimalExponent',
  BinarySI: 'BinarySI',
  DecimalSI: 'DecimalSI',
} as const;

/** QuantityFormat is one of QuantityFormats: e.g. 12e6, 12Mi, 12M. */
export type QuantityFormat = (typeof QuantityFormats)[keyof typeof QuantityFormats];

/** QuantityParts is the exact value `unscaled × 10^exponent` and the format to print it in. */
export interface QuantityParts {
  readonly unscaled: bigint;
  readonly exponent: number;
  readonly format: QuantityFormat;
}

const DECIMAL_SUFFIX_BY_EXPONENT: ReadonlyMap<number, string> = new Map([
  [-9, 'n'],
  [-6, 'u'],
  [-3, 'm'],
  [0, ''],
  [3, 'k'],
  [6, 'M'],
  [9, 'G'],
  [12, 'T'],
  [15, 'P'],
  [18, 'E'],
]);
const BINARY_SUFFIX_BY_POWER = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'] as const;
const LARGEST_DECIMAL_EXPONENT = 18;
const NANO_EXPONENT = -9;

const abs = (value: bigint): bigint => (value < 0n ? -value : value);
const pow10 = (digits: number): bigint => 10n ** BigInt(digits);

/** divideAwayFromZero divides `value` by 10^digits (digits ≥ 0), rounding any remainder up in
 * magnitude: (15, 1) → 2, (-15, 1) → -2, (1, 50) → 1. Never allocates more than `value` needs. */
export function divideAwayFromZero(value: bigint, digits: number): bigint {
  const magnitude = abs(value);
  if (magnitude === 0n || digits <= 0) return value * pow10(Math.max(0, -digits));
  // With fewer digits than the divisor the quotient is 0 with a remainder, so it rounds to 1.
  let quotient = 1n;
  if (magnitude.toString().length > digits) {
    const divisor = pow10(digits);
    quotient = magnitude / divisor + (magnitude % divisor === 0n ? 0n : 1n);
  }
  return value < 0n ? -quotient : quotient;
}

/** roundUpToNano limits precision to 10^-9 as Kubernetes does, rounding up away from zero so a
 * tiny non-zero request never becomes zero ("0.1n" → "1n"). */
export function roundUpToNano(unscaled: bigint, exponent: number): { unscaled: bigint; exponent: number } {
  if (exponent >= NANO_EXPONENT) return { unscaled, exponent };
  if (unscaled === 0n) return { unscaled, exponent: 0 };
  return { unscaled: divideAwayFromZero(unscaled, NANO_EXPONENT - exponent), exponent: NANO_EXPONENT };
}

/** canonicalQuantityString prints a quantity in Kubernetes' canonical form: no fractional digits
 * and the largest suffix that keeps the mantissa exact. BinarySI prints as binary only for whole
 * amounts of at least 1024 in magnitude; everything else prints as decimal SI, and DecimalExponent
 * with an `e<n>` suffix whose n is a multiple of 3. Zero is always "0". */
export function canonicalQuantityString(parts: QuantityParts): string {
  if (parts.unscaled === 0n) return '0';
  if (parts.format === 'BinarySI' && isWholeAndAtLeast1024(parts)) return binaryString(parts);
  return decimalString(parts.unscaled, parts.exponent, parts.format === 'DecimalExponent');
}

function isWholeAndAtLeast1024({ unscaled, exponent }: QuantityParts): boolean {
  if (exponent >= 0) return abs(unscaled) * pow10(exponent) >= 1024n;
  const scale = pow10(-exponent);
  return unscaled % scale === 0n && abs(unscaled) >= 1024n * scale;
}

function binaryString({ unscaled, exponent }: QuantityParts): string {
  let whole = exponent >= 0 ? unscaled * pow10(exponent) : unscaled / pow10(-exponent);
  let power = 0;
  // Kubernetes has no suffix beyond Ei; larger amounts keep a bigger mantissa instead.
  while (power < BINARY_SUFFIX_BY_POWER.length - 1 && whole % 1024n === 0n) {
    whole /= 1024n;
    power++;
  }
  return `${whole}${BINARY_SUFFIX_BY_POWER[power] ?? ''}`;
}

function decimalString(unscaled: bigint, exponent: number, asExponent: boolean): string {
  let mantissa = unscaled;
  let power = exponent;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    power++;
  }
  while (power % 3 !== 0) {
    mantissa *= 10n;
    power--;
  }
  if (asExponent) return power === 0 ? `${mantissa}` : `${mantissa}e${power}`;
  if (power > LARGEST_DECIMAL_EXPONENT) {
    mantissa *= pow10(power - LARGEST_DECIMAL_EXPONENT);
    power = LARGEST_DECIMAL_EXPONENT;
  }
  const suffix = DECIMAL_SUFFIX_BY_EXPONENT.get(power);
  // Below nano cannot happen for rounded quantities; print exactly rather than lose digits.
  return suffix === undefined ? `${mantissa}e${power}` : `${mantissa}${suffix}`;
}
