import { describe, expect, it } from 'vitest';
import type { QuantityFormat } from './quantity.js';
import {
  addQuantities,
  compareQuantities,
  createQuantity,
  formatCpuMillis,
  formatMemoryBytes,
  parseQuantity,
  type Quantity,
  QuantityParseError,
  quantityOrError,
} from './quantity.js';

// Vectors adapted from k8s.io/apimachinery pkg/api/resource/quantity_test.go; error texts
// checked against pkg/api/resource/quantity.go.

const FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const SUFFIX_WRONG = "unable to parse quantity's suffix";
const MAX_INT64 = 2n ** 63n - 1n;

const q = (value: number | bigint, exponent: number, format: QuantityFormat = 'DecimalSI'): Quantity => createQuantity({ value, exponent, format });
const [SI, BIN, EXP] = ['DecimalSI', 'BinarySI', 'DecimalExponent'] as const;

describe('parseQuantity values and formats', () => {
  const table: Array<[string, Quantity]> = [
    ['0', q(0, 0, SI)],
    ['0n', q(0, 0, SI)],
    ['0u', q(0, 0, SI)],
    ['0m', q(0, 0, SI)],
    ['0Ki', q(0, 0, BIN)],
    ['0k', q(0, 0, SI)],
    ['0Mi', q(0, 0, BIN)],
    ['0M', q(0, 0, SI)],
    ['0Gi', q(0, 0, BIN)],
    ['0G', q(0, 0, SI)],
    ['0Ti', q(0, 0, BIN)],
    ['0T', q(0, 0, SI)],
    ['1', q(1, 0, SI)],
    ['1Ki', q(1024, 0, BIN)],
    ['8Ki', q(8 * 1024, 0, BIN)],
    ['7Mi', q(7 * 2 ** 20, 0, BIN)],
    ['6Gi', q(6 * 2 ** 30, 0, BIN)],
    ['5Ti', q(5 * 2 ** 40, 0, BIN)],
    ['4Pi', q(4n * 2n ** 50n, 0, BIN)],
    ['3Ei', q(3n * 2n ** 60n, 0, BIN)],
    ['10Ti', q(10 * 2 ** 40, 0, BIN)],
    ['100Ti', q(100 * 2 ** 40, 0, BIN)],
    ['5n', q(5, -9, SI)],
    ['4u', q(4, -6, SI)],
    ['3m', q(3, -3, SI)],
    ['9', q(9, 0, SI)],
    ['8k', q(8, 3, SI)],
    ['50k', q(5, 4, SI)],
    ['7M', q(7, 6, SI)],
    ['6G', q(6, 9, SI)],
    ['5T', q(5, 12, SI)],
    ['40T', q(4, 13, SI)],
    ['300T', q(3, 14, SI)],
    ['2P', q(2, 15, SI)],
    ['1E', q(1, 18, SI)],
    ['1E-3', q(1, -3, EXP)],
    ['1e3', q(1, 3, EXP)],
    ['1E6', q(1, 6, EXP)],
    ['1e9', q(1, 9, EXP)],
    ['1E12', q(1, 12, EXP)],
    ['1e15', q(1, 15, EXP)],
    ['1E18', q(1, 18, EXP)],
    ['1e14', q(1, 14, EXP)],
    ['1e13', q(1, 13, EXP)],
    ['1e+3', q(1, 3, EXP)],
    ['100.035k', q(100035, 0, SI)],
    ['0.001', q(1, -3, SI)],
    ['0.0005k', q(5, -1, SI)],
    ['0.005', q(5, -3, SI)],
    ['0.05', q(5, -2, SI)],
    ['0.5', q(5, -1, SI)],
    ['0.00050k', q(5, -1, SI)],
    ['0.00500', q(5, -3, SI)],
    ['0.05000', q(5, -2, SI)],
    ['0.50000', q(5, -1, SI)],
    ['0.5e0', q(5, -1, EXP)],
    ['0.5e-1', q(5, -2, EXP)],
    ['0.5e-2', q(5, -3, EXP)],
    ['10.035M', q(10035, 3, SI)],
    ['1.2e3', q(12, 2, EXP)],
    ['1.3E+6', q(13, 5, EXP)],
    ['1.40e9', q(14, 8, EXP)],
    ['1.53E12', q(153, 10, EXP)],
    ['1.6e15', q(16, 14, EXP)],
    ['1.7E18', q(17, 17, EXP)],
    ['9.01', q(901, -2, SI)],
    ['8.1k', q(81, 2, SI)],
    ['7.123456M', q(7123456, 0, SI)],
    ['6.987654321G', q(6987654321, 0, SI)],
    ['5.444T', q(5444, 9, SI)],
    ['40.1T', q(401, 11, SI)],
    ['300.2T', q(3002, 11, SI)],
    ['2.5P', q(25, 14, SI)],
    ['1.01E', q(101, 16, SI)],
    ['3.001n', q(4, -9, SI)],
    ['1.1E-9', q(2, -9, EXP)],
    ['0.0000000001', q(1, -9, SI)],
    ['0.0000000005', q(1, -9, SI)],
    ['0.00000000050', q(1, -9, SI)],
    ['0.5e-9', q(1, -9, EXP)],
    ['0.9n', q(1, -9, SI)],
    ['0.00000012345', q(124, -9, SI)],
    ['0.00000012354', q(124, -9, SI)],
    ['9Ei', q(MAX_INT64, 0, BIN)],
    ['9223372036854775807Ki', q(MAX_INT64, 0, BIN)],
    ['12E', q(12, 18, SI)],
    ['100.035Ki', q(10243584, -2, BIN)],
    ['0.5Mi', q(0.5 * 2 ** 20, 0, BIN)],
    ['0.05Gi', q(536870912, -1, BIN)],
    ['0.025Ti', q(274877906944, -1, BIN)],
    ['0.000000000001Ki', q(2, -9, SI)],
    ['.001', q(1, -3, SI)],
    ['.0001k', q(100, -3, SI)],
    ['1.', q(1, 0, SI)],
    ['1.G', q(1, 9, SI)],
    ['1e-999', q(1, -9, EXP)],
    ['1e1000', q(1, 1000, EXP)],
  ];

  it.each(table)('%j', (input, expected) => {
    const parsed = parseQuantity(input);
    expect(parsed.cmp(expected)).toBe(0);
    expect(parsed.format).toBe(expected.format);
  });

  it.each(table)('-%j is the negation', (input, expected) => {
    const parsed = parseQuantity(`-${input}`);
    expect(parsed.cmp(expected.neg())).toBe(0);
    expect(parsed.format).toBe(expected.format);
  });

  it.each(table)('+%j is the same', (input, expected) => {
    const parsed = parseQuantity(`+${input}`);
    expect(parsed.cmp(expected)).toBe(0);
    expect(parsed.format).toBe(expected.format);
  });

  it("reads Kubernetes' degenerate spellings of zero", () => {
    for (const text of ['.', '-', '+', '-.']) expect(parseQuantity(text).isZero()).toBe(true);
  });

  it.each<[number, string]>([
    [0, '0'],
    [1, '1'],
    [0.5, '500m'],
    [1.5, '1500m'],
    [-2, '-2'],
    [1e21, '1e21'],
    [1e-7, '100e-9'],
    [0.1 + 0.2, '300000001n'],
  ])('reads the number %d through its string form', (value, canonical) => {
    expect(parseQuantity(value).toString()).toBe(canonical);
  });
});

describe('parseQuantity errors', () => {
  it.each<[string | number, string]>([
    ['', FORMAT_WRONG],
    ['1.1.M', FORMAT_WRONG],
    ['1+1.0M', FORMAT_WRONG],
    ['0.1mi', SUFFIX_WRONG],
    ['0.1am', FORMAT_WRONG],
    ['aoeu', FORMAT_WRONG],
    ['Non-Numeric', FORMAT_WRONG],
    ['.5i', SUFFIX_WRONG],
    ['1i', SUFFIX_WRONG],
    ['-3.01i', SUFFIX_WRONG],
    ['-3.01e-', SUFFIX_WRONG],
    ['1e', SUFFIX_WRONG],
    ['1Kib', FORMAT_WRONG],
    ['1Ki5', SUFFIX_WRONG],
    ['--1', SUFFIX_WRONG],
    [' 1', FORMAT_WRONG],
    ['1 ', FORMAT_WRONG],
    ['-+1', SUFFIX_WRONG],
    ['1e5000', SUFFIX_WRONG],
    ['1e-5000', SUFFIX_WRONG],
    ['1e99999999999999999999', SUFFIX_WRONG],
    [Number.NaN, FORMAT_WRONG],
    [Number.POSITIVE_INFINITY, FORMAT_WRONG],
  ])('%j', (input, message) => {
    expect(() => parseQuantity(input)).toThrow(QuantityParseError);
    expect(() => parseQuantity(input)).toThrow(message);
  });
});

describe('canonical form', () => {
  it.each<[Quantity, string, string]>([
    [q(2 ** 30, 0, BIN), '1Gi', '1024Mi'],
    [q(300 * 2 ** 20, 0, BIN), '300Mi', '307200Ki'],
    [q(6 * 1024, 0, BIN), '6Ki', ''],
    [q(1001 * 2 ** 30, 0, BIN), '1001Gi', '1025024Mi'],
    [q(2 ** 40, 0, BIN), '1Ti', '1024Gi'],
    [q(5, 0, BIN), '5', '5000m'],
    [q(500, -3, BIN), '500m', '0.5'],
    [q(1, 9, SI), '1G', '1000M'],
    [q(1000, 6, SI), '1G', '0.001T'],
    [q(1000000, 3, SI), '1G', ''],
    [q(1000000000, 0, SI), '1G', ''],
    [q(1, -3, SI), '1m', '1000u'],
    [q(80, -3, SI), '80m', ''],
    [q(1080, -3, SI), '1080m', '1.08'],
    [q(108, -2, SI), '1080m', '1080000000n'],
    [q(10800, -4, SI), '1080m', ''],
    [q(300, 6, SI), '300M', ''],
    [q(1, 12, SI), '1T', ''],
    [q(1234567, 6, SI), '1234567M', ''],
    [q(1234567, -3, BIN), '1234567m', ''],
    [q(3, 3, SI), '3k', ''],
    [q(1025, 0, BIN), '1025', ''],
    [q(0, 0, SI), '0', ''],
    [q(0, 0, BIN), '0', ''],
    [q(1, 9, EXP), '1e9', '.001e12'],
    [q(1, -3, EXP), '1e-3', '0.001e0'],
    [q(1, -9, EXP), '1e-9', '1000e-12'],
    [q(80, -3, EXP), '80e-3', ''],
    [q(300, 6, EXP), '300e6', ''],
    [q(1, 12, EXP), '1e12', ''],
    [q(1, 3, EXP), '1e3', ''],
    [q(3, 3, EXP), '3e3', ''],
    [q(0, 0, EXP), '0', '00'],
    [q(1, -9, SI), '1n', ''],
    [q(80, -9, SI), '80n', ''],
    [q(1080, -9, SI), '1080n', ''],
    [q(108, -8, SI), '1080n', ''],
    [q(10800, -10, SI), '1080n', ''],
    [q(1, -6, SI), '1u', ''],
    [q(80, -6, SI), '80u', ''],
    [q(1080, -6, SI), '1080u', ''],
  ])('%s prints as %j (also from %j)', (quantity, canonical, alternate) => {
    expect(quantity.toString()).toBe(canonical);
    expect(parseQuantity(canonical).toString()).toBe(canonical);
    if (alternate !== '') expect(parseQuantity(alternate).toString()).toBe(canonical);
    if (!quantity.isZero()) expect(quantity.neg().toString()).toBe(`-${canonical}`);
    expect(JSON.stringify({ cpu: quantity })).toBe(`{"cpu":"${canonical}"}`);
  });

  it.each([
    ['1Ki', '1Ki'],
    ['1Mi', '1Mi'],
    ['1Gi', '1Gi'],
    ['1024Mi', '1Gi'],
    ['1000M', '1G'],
    ['.001Ki', '1024m'],
    ['.000001Ki', '1024u'],
    ['.000000001Ki', '1024n'],
    ['.000000000001Ki', '2n'],
    ['1000m', '1'],
    ['1.5', '1500m'],
    ['0.1', '100m'],
    ['1.5Gi', '1536Mi'],
    ['1.1Ki', '1126400m'],
    ['12345n', '12345n'],
    ['-999999999999999999.1', '-999999999999999999100m'],
    ['1000000000000000000', '1E'],
    ['1.0000000000000000001E', '1000000000000000000100m'],
    ['10000000000000000000000m', '10E'],
    ['-10.000000000000000001E', '-10000000000000000001'],
    ['9223372036854775808.1', '9223372036854775808100m'],
    ['8Ei', '9223372036854775807'],
    ['7Ei', '7Ei'],
    ['1e1000', '10e999'],
    ['1000E', '1000E'],
    ['+1', '1'],
    ['1.', '1'],
    ['1E3', '1e3'],
    ['01', '1'],
    ['-0', '0'],
    ['-0.0Mi', '0'],
  ])('%j emits %j', (input, canonical) => {
    expect(parseQuantity(input).toString()).toBe(canonical);
    if (/^[-+]/.test(input) || canonical === '0') return;
    expect(parseQuantity(`-${input}`).toString()).toBe(`-${canonical}`);
  });

  it('keeps a larger mantissa beyond the largest suffix', () => {
    expect(createQuantity({ value: 2n ** 70n, format: BIN }).toString()).toBe('1024Ei');
    expect(createQuantity({ value: 5n, exponent: 21 }).toString()).toBe('5000E');
  });
});

describe('constructors', () => {
  it.each<[number, QuantityFormat, string, string]>([
    [1, SI, '1m', '1'],
    [1000, SI, '1', '1k'],
    [1234000, SI, '1234', '1234k'],
    [1024, BIN, '1024m', '1Ki'],
    [1000000, EXP, '1e3', '1e6'],
    [1024 * 1024, BIN, '1048576m', '1Mi'],
  ])('milli %d and whole %d in %s', (value, format, asMilli, asWhole) => {
    expect(createQuantity({ value, exponent: -3, format }).toString()).toBe(asMilli);
    expect(parseQuantity(asMilli).milliValue()).toBe(value);
    expect(createQuantity({ value, format }).toString()).toBe(asWhole);
    expect(parseQuantity(asWhole).value()).toBe(value);
  });

  it.each<[number, number, string]>([
    [1, -9, '1n'],
    [1000, -9, '1u'],
    [1, -6, '1u'],
    [1000, -6, '1m'],
    [1, -3, '1m'],
    [1000, -3, '1'],
    [1, 0, '1'],
    [0, -9, '0'],
    [0, -6, '0'],
    [0, -3, '0'],
    [0, 0, '0'],
    [1, -12, '1n'],
  ])('scaled %d × 10^%d prints %j', (value, exponent, canonical) => {
    const quantity = createQuantity({ value, exponent });
    expect(quantity.toString()).toBe(canonical);
    if (exponent >= -9) expect(parseQuantity(canonical).scaledValue(exponent)).toBe(BigInt(value));
  });

  it('rejects non-integer values and absurd exponents', () => {
    expect(() => createQuantity({ value: 1.5 })).toThrow(RangeError);
    expect(() => createQuantity({ value: 1, exponent: 1e6 })).toThrow(RangeError);
    expect(() => createQuantity({ value: 1, exponent: 0.5 })).toThrow(RangeError);
  });
});

describe('value and milliValue', () => {
  it.each<[string, number, number]>([
    ['1.5', 2, 1500],
    ['100m', 1, 100],
    ['1n', 1, 1],
    ['12345n', 1, 1],
    ['12345u', 1, 13],
    ['-1.5', -2, -1500],
    ['-1n', -1, -1],
    ['0', 0, 0],
    ['1Ki', 1024, 1024000],
    ['250m', 1, 250],
    ['2', 2, 2000],
    ['1e3', 1000, 1000000],
    ['0.5Mi', 524288, 524288000],
  ])('%j → %d units, %d milli', (input, units, millis) => {
    const quantity = parseQuantity(input);
    expect(quantity.value()).toBe(units);
    expect(quantity.milliValue()).toBe(millis);
  });

  it('stays exact as a bigint where numbers cannot', () => {
    expect(parseQuantity('8Ei').scaledValue(0)).toBe(MAX_INT64);
    expect(parseQuantity('12E').scaledValue(-3)).toBe(12n * 10n ** 21n);
    expect(parseQuantity('12345n').scaledValue(-9)).toBe(12345n);
  });
});

describe('comparison and arithmetic', () => {
  it.each<[string, string, number]>([
    ['0', '0', 0],
    ['100m', '50m', 1],
    ['50m', '100m', -1],
    ['10000T', '100Gi', 1],
    ['1Gi', '1024Mi', 0],
    ['1', '1000m', 0],
    ['1Ki', '1k', 1],
    ['-1', '1n', -1],
    ['1e3', '1k', 0],
    ['0', '-0', 0],
    ['1e1000', '9Ei', 1],
  ])('compare(%j, %j) = %d', (a, b, expected) => {
    expect(compareQuantities(a, b)).toBe(expected);
    expect(compareQuantities(b, a)).toBe(-expected || 0);
  });

  it.each<[Quantity, Quantity, Quantity]>([
    [q(10, 0, SI), q(1, 1, SI), q(20, 0, SI)],
    [q(10, 0, SI), q(1, 0, BIN), q(11, 0, SI)],
    [q(10, 0, BIN), q(1, 0, SI), q(11, 0, BIN)],
    [q(0, 0, SI), q(50, 0, SI), q(50, 0, SI)],
    [q(50, 0, SI), q(0, 0, SI), q(50, 0, SI)],
    [q(0, 0, SI), q(0, 0, SI), q(0, 0, SI)],
  ])('%s + %s', (a, b, sum) => {
    const result = a.add(b);
    expect(result.cmp(sum)).toBe(0);
    expect(result.format).toBe(sum.format);
  });

  it.each<[Quantity, Quantity, Quantity]>([
    [q(10, 0, SI), q(1, 1, SI), q(0, 0, SI)],
    [q(10, 0, SI), q(1, 0, BIN), q(9, 0, SI)],
    [q(10, 0, BIN), q(1, 0, SI), q(9, 0, BIN)],
    [q(0, 0, SI), q(50, 0, SI), q(-50, 0, SI)],
    [q(50, 0, SI), q(0, 0, SI), q(50, 0, SI)],
  ])('%s - %s', (a, b, difference) => {
    const result = a.sub(b);
    expect(result.cmp(difference)).toBe(0);
    expect(result.format).toBe(difference.format);
  });

  it.each<[Array<string | number | Quantity>, string]>([
    [['500m', '0.5'], '1'],
    [['1Gi', '512Mi'], '1536Mi'],
    [['0', '100m'], '100m'],
    [['0', '1Gi'], '1Gi'],
    [[], '0'],
    [['12345n', '1'], '1000012345n'],
    [['100m', '100m', '100m'], '300m'],
    [[0.25, '250m', parseQuantity('1.5')], '2'],
    [['1Gi', '-1Gi'], '0'],
    [['7Ei', '7Ei'], '14Ei'],
  ])('sum of %j is %j', (values, canonical) => {
    expect(addQuantities(...values).toString()).toBe(canonical);
  });

  it('keeps the suffix when adding or subtracting zero', () => {
    for (const text of ['100m', '1Gi']) {
      const value = parseQuantity(text);
      const zero = parseQuantity('0');
      expect(value.add(zero).toString()).toBe(text);
      expect(zero.add(value).toString()).toBe(text);
      expect(value.sub(zero).toString()).toBe(text);
      expect(zero.sub(value).toString()).toBe(value.neg().toString());
    }
  });

  it('adds and subtracts back to exactly zero across scales', () => {
    let sum = parseQuantity('0');
    const parts = Array.from({ length: 50 }, (_, i) => createQuantity({ value: 2n ** 62n - BigInt(i), exponent: (i % 21) - 9 }));
    for (const part of parts) sum = sum.add(part);
    for (const part of parts) sum = sum.sub(part);
    expect(sum.isZero()).toBe(true);
  });
});

describe('metrics formatting', () => {
  it.each<[number, string]>([
    [250, '250m'],
    [1000, '1'],
    [1500, '1500m'],
    [0, '0'],
    [2000, '2'],
    [0.4, '1m'],
    [12.2, '13m'],
    [-5, '-5m'],
    [123456, '123456m'],
  ])('formatCpuMillis(%d) = %j', (millicores, expected) => {
    expect(formatCpuMillis(millicores)).toBe(expected);
    expect(parseQuantity(expected).milliValue()).toBe(millicores < 0 ? millicores : Math.ceil(millicores));
  });

  it.each<[number, string]>([
    [12 * 2 ** 20, '12Mi'],
    [2 ** 20, '1Mi'],
    [1049600, '1025Ki'],
    [2748180 * 1024, '2748180Ki'],
    [2 ** 30, '1Gi'],
    [1024, '1Ki'],
    [1536, '1536'],
    [1000, '1k'],
    [512, '512'],
    [0, '0'],
    [1023.5, '1Ki'],
  ])('formatMemoryBytes(%d) = %j', (bytes, expected) => {
    expect(formatMemoryBytes(bytes)).toBe(expected);
  });

  it('rejects non-finite input', () => {
    expect(() => formatCpuMillis(Number.NaN)).toThrow(RangeError);
    expect(() => formatMemoryBytes(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('quantityOrError', () => {
  it('answers the same as parseQuantity, with the message instead of a throw, also when asked again', () => {
    for (let round = 0; round < 2; round++) {
      expect(String(quantityOrError('1536Mi'))).toBe('1536Mi');
      expect(quantityOrError('')).toBe(FORMAT_WRONG);
      expect(quantityOrError('1Zi')).toBe(FORMAT_WRONG);
      expect(quantityOrError('1e5000')).toBe(SUFFIX_WRONG);
      expect(quantityOrError(Number.NaN)).toBe(FORMAT_WRONG);
      expect(() => parseQuantity('1e5000')).toThrow(new QuantityParseError(SUFFIX_WRONG));
    }
  });
});
