/**
 * A parser of RE2 syntax (the regexps CEL's matches() and Kubernetes' find()/findAll() take):
 * alternation, concatenation, `* + ? {n} {n,} {n,m}` and their lazy forms, groups (capturing,
 * `(?:...)`, `(?P<name>...)`, `(?<name>...)`), flags (`(?i)`, `(?s:...)`, i s m U), `.`, `^ $`,
 * `\A \z \b \B`, classes with ranges, negation, POSIX names and Perl/Unicode classes, and escapes
 * (`\n`, `\x41`, `\x{1F451}`, `\101`, `\Q...\E`, escaped punctuation). Like RE2, lookaround and
 * backreferences are rejected.
 */
import { type CharTest, type Flags, foldCase, type Node, PERL_CLASSES, posixClass, RegexSyntaxError, unicodeClass } from './syntax.js';

const MAX_REPEAT = 1000;
/** What a flags-only group like `(?i)` parses to: nothing to match, and nothing to repeat. */
const FLAGS_ONLY: Node = { kind: 'empty' };
const CONTROL_ESCAPES: Record<string, string> = { a: '\x07', f: '\f', t: '\t', n: '\n', r: '\r', v: '\v' };

/** parseRe2 parses a pattern; throws RegexSyntaxError. */
export function parseRe2(pattern: string): Node {
  return new Re2Parser(pattern).parse();
}

class Re2Parser {
  private readonly chars: string[];
  private pos = 0;
  private flags: Flags = { i: false, s: false, m: false, U: false };

  constructor(private readonly source: string) {
    this.chars = expandQuotes(Array.from(source));
  }

  parse(): Node {
    const node = this.alternation();
    if (this.pos < this.chars.length) throw new RegexSyntaxError('unexpected )', this.source);
    return node;
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.pos + offset];
  }

  private rest(): string {
    return this.chars.slice(this.pos).join('');
  }

  private alternation(): Node {
    const items = [this.concatenation()];
    while (this.peek() === '|') {
      this.pos++;
      items.push(this.concatenation());
    }
    return items.length === 1 ? items[0]! : { kind: 'alt', items };
  }

  private concatenation(): Node {
    const items: Node[] = [];
    while (this.pos < this.chars.length && this.peek() !== '|' && this.peek() !== ')') items.push(this.repetition());
    return items.length === 1 ? items[0]! : { kind: 'cat', items };
  }

  private repetition(): Node {
    let node = this.atom();
    const opStart = this.pos;
    let repeated = false;
    for (;;) {
      const bounds = this.repeatBounds();
      if (bounds === undefined) return node;
      const op = this.chars.slice(opStart, this.pos).join('');
      if (repeated) throw new RegexSyntaxError('invalid nested repetition operator', op);
      if (node === FLAGS_ONLY) throw new RegexSyntaxError('missing argument to repetition operator', op);
      let greedy = true;
      if (this.peek() === '?') {
        this.pos++;
        greedy = false;
      }
      node = { kind: 'repeat', node, min: bounds[0], max: bounds[1], greedy: greedy !== this.flags.U };
      repeated = true;
    }
  }

  /** Consumes a repetition operator and returns [min, max]; undefined when there is none. */
  private repeatBounds(): [number, number] | undefined {
    const c = this.peek();
    if (c === '*' || c === '+' || c === '?') {
      this.pos++;
      return c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    }
    if (c !== '{') return undefined;
    const m = /^\{(\d+)(,(\d*))?\}/.exec(this.rest());
    if (!m) return undefined;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    if (min > MAX_REPEAT || (max !== Infinity && (max > MAX_REPEAT || max < min))) throw new RegexSyntaxError('invalid repeat count', m[0]);
    this.pos += m[0].length;
    return [min, max];
  }

  private atom(): Node {
    const c = this.peek()!;
    if (c === '*' || c === '+' || c === '?') throw new RegexSyntaxError('missing argument to repetition operator', c);
    this.pos++;
    switch (c) {
      case '(':
        return this.group();
      case '[':
        return this.charClass();
      case '.':
        return this.char(this.flags.s ? () => true : (x) => x !== '\n');
      case '^':
        return { kind: 'assert', what: this.flags.m ? 'beginLine' : 'beginText' };
      case '$':
        return { kind: 'assert', what: this.flags.m ? 'endLine' : 'endText' };
      case '\\':
        return this.escape();
      default:
        return this.literal(c);
    }
  }

  private char(test: CharTest): Node {
    return { kind: 'char', test: this.flags.i ? foldCase(test) : test };
  }

  private literal(c: string): Node {
    return this.char((x) => x === c);
  }

  private group(): Node {
    const saved = { ...this.flags };
    const head = this.rest();
    if (head.startsWith('?')) {
      const named = /^\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(head);
      const flagged = /^\?([imsU]*)(?:-([imsU]*))?([:)])/.exec(head);
      if (named) this.pos += Array.from(named[0]).length;
      else if (flagged && (flagged[1] || flagged[2] || flagged[3] === ':')) {
        this.pos += flagged[0].length;
        for (const f of flagged[1] ?? '') this.flags[f as keyof Flags] = true;
        for (const f of flagged[2] ?? '') this.flags[f as keyof Flags] = false;
        // `(?i)` changes the flags for the rest of the enclosing group.
        if (flagged[3] === ')') return FLAGS_ONLY;
      } else throw new RegexSyntaxError('invalid or unsupported Perl syntax', `(${head.slice(0, 2)}`);
    }
    const inner = this.alternation();
    if (this.peek() !== ')') throw new RegexSyntaxError('missing closing )', this.source);
    this.pos++;
    this.flags = saved;
    return inner;
  }

  private escape(): Node {
    const c = this.peek();
    if (c === undefined) throw new RegexSyntaxError('trailing backslash at end of expression', '');
    this.pos++;
    const perl = PERL_CLASSES[c.toLowerCase()];
    if (perl && /[dswDSW]/.test(c)) return this.char(c === c.toLowerCase() ? perl : (x) => !perl(x));
    switch (c) {
      case 'A':
        return { kind: 'assert', what: 'beginText' };
      case 'z':
        return { kind: 'assert', what: 'endText' };
      case 'b':
        return { kind: 'assert', what: 'wordBoundary' };
      case 'B':
        return { kind: 'assert', what: 'notWordBoundary' };
      case 'p':
      case 'P':
        return this.char(this.unicodeEscape(c));
    }
    const ch = this.escapedChar(c);
    return this.literal(ch);
  }

  /** A single character written as an escape (after the backslash and `c`). */
  private escapedChar(c: string): string {
    const control = CONTROL_ESCAPES[c];
    if (control !== undefined) return control;
    if (c === 'x') return this.hexEscape();
    if (/[0-7]/.test(c)) {
      if (c !== '0' && !/[0-7]/.test(this.peek() ?? '')) throw new RegexSyntaxError('invalid escape sequence', `\\${c}`);
      let digits = c;
      while (digits.length < 3 && /[0-7]/.test(this.peek() ?? '')) digits += this.chars[this.pos++];
      return String.fromCodePoint(parseInt(digits, 8));
    }
    if (/[\p{L}\p{N}]/u.test(c)) throw new RegexSyntaxError('invalid escape sequence', `\\${c}`);
    return c;
  }

  private hexEscape(): string {
    const m = /^(?:\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{2}))/.exec(this.rest());
    const code = m ? parseInt(m[1] ?? m[2]!, 16) : NaN;
    if (!m || code > 0x10ffff) throw new RegexSyntaxError('invalid escape sequence', `\\x${this.rest().slice(0, 2)}`);
    this.pos += m[0].length;
    return String.fromCodePoint(code);
  }

  private unicodeEscape(p: string): CharTest {
    let name = this.peek() ?? '';
    if (name === '{') {
      const end = this.chars.indexOf('}', this.pos);
      if (end < 0) throw new RegexSyntaxError('invalid character class range', `\\${p}${this.rest()}`);
      name = this.chars.slice(this.pos + 1, end).join('');
      this.pos = end + 1;
    } else this.pos++;
    const negated = name.startsWith('^') !== (p === 'P');
    const test = unicodeClass(name.replace(/^\^/, ''));
    if (!test) throw new RegexSyntaxError('invalid character class range', `\\${p}{${name}}`);
    return negated ? (c) => !test(c) : test;
  }

  private charClass(): Node {
    const start = this.pos - 1;
    const negated = this.peek() === '^';
    if (negated) this.pos++;
    const tests: CharTest[] = [];
    let first = true;
    while (this.peek() !== ']' || first) {
      if (this.peek() === undefined) throw new RegexSyntaxError('missing closing ]', this.chars.slice(start).join(''));
      tests.push(this.classItem());
      first = false;
    }
    this.pos++;
    const some: CharTest = (c) => tests.some((t) => t(c));
    // Case folding applies to the class before negation: (?i)[^a] excludes both a and A.
    const any = this.flags.i ? foldCase(some) : some;
    return { kind: 'char', test: negated ? (c) => !any(c) : any };
  }

  private classItem(): CharTest {
    const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.rest());
    if (posix) {
      const test = posixClass(posix[2]!);
      if (!test) throw new RegexSyntaxError('invalid character class range', posix[0]);
      this.pos += posix[0].length;
      return posix[1] ? (c) => !test(c) : test;
    }
    const lo = this.classChar();
    if (typeof lo !== 'string') return lo;
    if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
      this.pos++;
      const hi = this.classChar();
      if (typeof hi !== 'string' || hi.codePointAt(0)! < lo.codePointAt(0)!) throw new RegexSyntaxError('invalid character class range', `${lo}-${String(hi)}`);
      const [a, b] = [lo.codePointAt(0)!, hi.codePointAt(0)!];
      return (c) => c.codePointAt(0)! >= a && c.codePointAt(0)! <= b;
    }
    return (c) => c === lo;
  }

  /** One character of a class, or a test for a class escape (\d, \pL, ...). */
  private classChar(): string | CharTest {
    const c = this.chars[this.pos++]!;
    if (c !== '\\') return c;
    const e = this.chars[this.pos++];
    if (e === undefined) throw new RegexSyntaxError('trailing backslash at end of expression', '');
    const perl = PERL_CLASSES[e.toLowerCase()];
    if (perl && /[dswDSW]/.test(e)) return e === e.toLowerCase() ? perl : (x) => !perl(x);
    if (e === 'p' || e === 'P') return this.unicodeEscape(e);
    return this.escapedChar(e);
  }
}

/** Rewrites `\Q...\E` (literal text) as escaped characters, so that a following repetition
 * applies to the last character only, as in RE2. */
function expandQuotes(chars: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] !== '\\') {
      out.push(chars[i]!);
    } else if (chars[i + 1] !== 'Q') {
      out.push(chars[i]!, ...(i + 1 < chars.length ? [chars[++i]!] : []));
    } else {
      for (i += 2; i < chars.length && !(chars[i] === '\\' && chars[i + 1] === 'E'); i++) {
        out.push(...(/[!-/:-@[-`{-~]/.test(chars[i]!) ? ['\\', chars[i]!] : [chars[i]!]));
      }
      i++;
    }
  }
  return out;
}
