import { describe, expect, it } from 'vitest';
import { Re2Program } from './program.js';

function firstMatch(pattern: string, input: string): string | undefined {
  const chars = Array.from(input);
  const m = new Re2Program(pattern).find(chars, 0);
  return m && chars.slice(m[0], m[1]).join('');
}

describe('Re2Program', () => {
  // Patterns whose semantics JS shares with RE2: the results must agree with RegExp's.
  const patterns = [
    'abc',
    'a|b|c',
    'a*',
    'a+?',
    '(a|ab)(c|bcd)(d*)',
    '^a.c$',
    '[a-c]+',
    '[^a-c]+',
    'x{2,3}',
    'x{2,}?',
    'x{2}',
    '(?:ab)+',
    '\\d+\\.\\d*',
    '\\bfoo\\b',
    '\\Bo',
    '\\s+',
    '\\w+@\\w+\\.com',
    '(a*)*b',
    '(a|b)*?c',
    'colou?r',
    '[0-9a-fA-F]{2}',
    '.*',
    '',
    'a{0}',
  ];
  const inputs = ['', 'abc', 'xxabcdxx', 'aaa', 'xxxx', 'foo food', 'color colour', 'mail bob@example.com now', '3.14 and 2.', 'ab ab bbc', 'A1 ff Z9'];
  it.each(patterns)('agrees with RegExp on %j', (pattern) => {
    for (const input of inputs) expect(firstMatch(pattern, input), `${pattern} on ${input}`).toBe(new RegExp(pattern, 'u').exec(input)?.[0]);
  });

  it.each<[string, string, string | undefined]>([
    ['(?i)HeLLo', 'say hello', 'hello'],
    ['(?i)[^a]', 'Ab', 'b'],
    ['a(?i)b', 'aB AB', 'aB'],
    ['(?i:a)b', 'Ab AB', 'Ab'],
    ['(?s).+', 'a\nb', 'a\nb'],
    ['.+', 'a\nb', 'a'],
    ['(?m)^b$', 'a\nb\nc', 'b'],
    ['^b$', 'a\nb\nc', undefined],
    ['\\Aab\\z', 'ab', 'ab'],
    ['(?U)a+', 'aaa', 'a'],
    ['(?U)a+?', 'aaa', 'aaa'],
    ['\\pL+', '12Ωmega!', 'Ωmega'],
    ['\\p{Greek}+', 'abc αβγ', 'αβγ'],
    ['\\PL+', 'ab12cd', '12'],
    ['[[:alpha:]]+', '12ab34', 'ab'],
    ['[[:^digit:]]+', '12ab34', 'ab'],
    ['\\Q.*\\E+', 'a.*.*', '.*'],
    ['\\x41\\x{1F451}\\101', 'A👑A', 'A👑A'],
    ['^.$', '👑', '👑'],
    ['a\\.b\\-c', 'a.b-c', 'a.b-c'],
    ['a{,2}', 'a{,2}', 'a{,2}'],
    ['(?P<y>\\d{4})-(?<m>\\d\\d)', 'on 2024-05-01', '2024-05'],
  ])('%j finds %j in %j', (pattern, input, expected) => expect(firstMatch(pattern, input)).toBe(expected));

  it.each<[string, string]>([
    ['(a', 'missing closing ): `(a`'],
    ['a)', 'unexpected ): `a)`'],
    ['[a', 'missing closing ]: `[a`'],
    ['*a', 'missing argument to repetition operator: `*`'],
    ['a**', 'invalid nested repetition operator: `**`'],
    ['(?=a)', 'invalid or unsupported Perl syntax: `(?=`'],
    ['(?<!a)', 'invalid or unsupported Perl syntax'],
    ['(a)\\1', 'invalid escape sequence: `\\1`'],
    ['\\q', 'invalid escape sequence: `\\q`'],
    ['a{1001}', 'invalid repeat count: `{1001}`'],
    ['a{3,2}', 'invalid repeat count'],
    ['[z-a]', 'invalid character class range: `z-a`'],
    ['\\p{Nope}', 'invalid character class range'],
    ['((a{100}){100}){100}', 'expression too large'],
  ])('rejects %j', (pattern, message) => expect(() => new Re2Program(pattern)).toThrow(message));

  it('matches in linear time where a backtracking engine would not finish', () => {
    const input = `${'a'.repeat(5000)}!`;
    const started = performance.now();
    expect(new Re2Program('^(a+)+$').test(input)).toBe(false);
    expect(new Re2Program('(a|aa)*b').test(input)).toBe(false);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
