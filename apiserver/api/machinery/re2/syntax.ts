/**
 * The RE2 syntax tree and the character predicates its atoms test. Parsing is in parse.ts,
 * compilation and linear-time matching in program.ts.
 */

/** CharTest decides whether one code point (a one- or two-unit string) matches an atom. */
export type CharTest = (c: string) => boolean;

/** AssertKind lists the zero-width assertions. */
export type AssertKind = 'beginLine' | 'endLine' | 'beginText' | 'endText' | 'wordBoundary' | 'notWordBoundary';

/** Node is a parsed regular expression. */
export type Node =
  | { kind: 'empty' }
  | { kind: 'char'; test: CharTest }
  | { kind: 'assert'; what: AssertKind }
  | { kind: 'cat'; items: Node[] }
  | { kind: 'alt'; items: Node[] }
  | { kind: 'repeat'; node: Node; min: number; max: number; greedy: boolean };

/** RegexSyntaxError carries Go's wording ("missing closing )", "invalid escape sequence", ...). */
export class RegexSyntaxError extends Error {
  constructor(what: string, fragment: string) {
    super(`${what}: \`${fragment}\``);
  }
}

/** Flags are the RE2 flags in effect: i (fold case), s (. matches \n), m (multi-line ^ $),
 * U (swap greedy and lazy). */
export interface Flags {
  i: boolean;
  s: boolean;
  m: boolean;
  U: boolean;
}

const isAsciiWord = (c: string | undefined): boolean => c !== undefined && /^[0-9A-Za-z_]$/.test(c);

/** isWordChar is RE2's ASCII word character test (for \b and \w). */
export const isWordChar = isAsciiWord;

/** PERL_CLASSES are \d, \s, \w (ASCII, as in RE2). */
export const PERL_CLASSES: Record<string, CharTest> = {
  d: (c) => c >= '0' && c <= '9',
  s: (c) => c === '\t' || c === '\n' || c === '\f' || c === '\r' || c === ' ',
  w: isAsciiWord,
};

const POSIX_RANGES: Record<string, Array<[number, number]>> = {
  alnum: [
    [48, 57],
    [65, 90],
    [97, 122],
  ],
  alpha: [
    [65, 90],
    [97, 122],
  ],
  ascii: [[0, 127]],
  blank: [
    [9, 9],
    [32, 32],
  ],
  cntrl: [
    [0, 31],
    [127, 127],
  ],
  digit: [[48, 57]],
  graph: [[33, 126]],
  lower: [[97, 122]],
  print: [[32, 126]],
  punct: [
    [33, 47],
    [58, 64],
    [91, 96],
    [123, 126],
  ],
  space: [
    [9, 13],
    [32, 32],
  ],
  upper: [[65, 90]],
  word: [
    [48, 57],
    [65, 90],
    [97, 122],
    [95, 95],
  ],
  xdigit: [
    [48, 57],
    [65, 70],
    [97, 102],
  ],
};

/** posixClass is the test for `[:name:]`, undefined for unknown names. */
export function posixClass(name: string): CharTest | undefined {
  const ranges = POSIX_RANGES[name];
  if (!ranges) return undefined;
  return (c) => {
    const cp = c.codePointAt(0)!;
    return ranges.some(([lo, hi]) => cp >= lo && cp <= hi);
  };
}

const unicodeTests = new Map<string, CharTest>();

/** unicodeClass is the test for \pX / \p{Name} (general categories and scripts), using the
 * engine's Unicode property tables; undefined for unknown names. */
export function unicodeClass(name: string): CharTest | undefined {
  const cached = unicodeTests.get(name);
  if (cached) return cached;
  if (name === 'Any') return () => true;
  let re: RegExp;
  try {
    re = new RegExp(`^\\p{${name.length <= 2 ? name : `Script=${name}`}}$`, 'u');
  } catch {
    return undefined;
  }
  const test: CharTest = (c) => re.test(c);
  unicodeTests.set(name, test);
  return test;
}

/** foldCase wraps a test to ignore case (flag i). */
export function foldCase(test: CharTest): CharTest {
  return (c) => test(c) || test(c.toLowerCase()) || test(c.toUpperCase());
}
