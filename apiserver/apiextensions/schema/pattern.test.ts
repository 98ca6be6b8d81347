import { describe, expect, it } from 'vitest';
import type { Re2Program } from '../../api/machinery/re2/compile.js';
import { goFloat, goNumber } from './go-format.js';
import { compileGoRegexp } from './pattern.js';

const compiled = (pattern: string): Re2Program => {
  const result = compileGoRegexp(pattern);
  if (typeof result === 'string') throw new Error(result);
  return result;
};

describe('compileGoRegexp (RE2 patterns)', () => {
  it.each([
    ['^[a-z]+$', 'abc', 'aBc'],
    ['(?i)^abc$', 'ABC', 'abd'],
    ['\\Aab\\z', 'ab', 'abc'],
    ['^[[:alpha:]][[:digit:]]+$', 'a12', '1a2'],
    ['^(?P<word>\\w+)$', 'hello', 'two words'],
    ['^\\p{L}+$', 'Grüße', 'abc1'],
    ['^a\\_b$', 'a_b', 'ab'],
    ['^[]a]+$', ']a', 'b'],
    ['^x(?i)abc$', 'xABC', 'xabd'],
    ['^a(?i:b)$', 'aB', 'ac'],
    ['^(?:ab)+$', 'abab', 'aba'],
  ])('%s matches %j but not %j', (pattern, yes, no) => {
    const regexp = compiled(pattern);
    expect(regexp.test(yes)).toBe(true);
    expect(regexp.test(no)).toBe(false);
  });

  it.each([
    ['+', 'error parsing regexp: missing argument to repetition operator: `+`'],
    ['a(*b)', 'error parsing regexp: missing argument to repetition operator: `*`'],
    ['(abc', 'error parsing regexp: missing closing ): `(abc`'],
    ['abc)', 'error parsing regexp: unexpected ): `abc)`'],
    ['[abc', 'error parsing regexp: missing closing ]: `[abc`'],
    ['a(?=b)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ['(?<!a)b', 'error parsing regexp: invalid or unsupported Perl syntax: `(?<`'],
    ['(a)\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['a**', 'error parsing regexp: invalid nested repetition operator: `**`'],
    ['a{2,1}', 'error parsing regexp: invalid repeat count: `{2,1}`'],
    ['[z-a]', 'error parsing regexp: invalid character class range: `z-a`'],
  ])('%s is rejected as Go rejects it', (pattern, message) => {
    expect(compileGoRegexp(pattern)).toBe(message);
  });

  it('runs in linear time: a pattern that makes a backtracking engine explode answers at once', () => {
    const regexp = compiled('^(a+)+$');
    expect(regexp.test(`${'a'.repeat(20_000)}!`)).toBe(false);
    expect(regexp.test('a'.repeat(20_000))).toBe(true);
  });
});

describe('Go number rendering', () => {
  it.each([
    [10, '10'],
    [1.5, '1.5'],
    [1e6, '1e+06'],
    [123456, '123456'],
    [1234567.5, '1.2345675e+06'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [-2.5e-7, '-2.5e-07'],
    [1e21, '1e+21'],
  ])('goFloat(%d) = %s', (value, text) => {
    expect(goFloat(value)).toBe(text);
  });

  it('renders integers as int64 and the rest as float64', () => {
    expect(goNumber(1000000)).toBe('1000000');
    expect(goNumber(1000000.5)).toBe('1.0000005e+06');
  });
});
