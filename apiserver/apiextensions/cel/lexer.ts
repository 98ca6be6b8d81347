/**
 * The CEL lexer (cel-spec langdef "Syntax"): decimal and hex ints, uints (`1u`), doubles, strings
 * and bytes with every quote form (', ", ''', """), raw (`r'...'`) and byte (`b'...'`) prefixes
 * and all escapes, identifiers, operators and `//` comments. Offsets are UTF-16 indexes into the
 * source; malformed input becomes a CelIssue, never an exception.
 */
import type { CelIssue } from './errors.js';
import { utf8Encode } from './text.js';

/** TokenKind classifies a token. `punct` covers operators and delimiters. */
export type TokenKind = 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'ident' | 'punct' | 'eof';

/** Token is one lexeme: `text` is the source text, `value` the decoded literal. */
export interface Token {
  kind: TokenKind;
  text: string;
  offset: number;
  value?: bigint | number | string | Uint8Array;
}

const PUNCT = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '+', '-', '*', '/', '%', '?', ':', '.', ',', '(', ')', '[', ']', '{', '}'];

/** tokenize splits source into tokens (ending with `eof`) and collects lexical issues. */
export function tokenize(source: string): { tokens: Token[]; issues: CelIssue[] } {
  const lexer = new Lexer(source);
  return { tokens: lexer.run(), issues: lexer.issues };
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);
const isIdentStart = (c: string | undefined): boolean => c !== undefined && /^[A-Za-z_]$/.test(c);
const isIdentPart = (c: string | undefined): boolean => c !== undefined && /^[A-Za-z0-9_]$/.test(c);

class Lexer {
  readonly issues: CelIssue[] = [];
  private pos = 0;

  constructor(private readonly src: string) {}

  run(): Token[] {
    const tokens: Token[] = [];
    for (;;) {
      this.skipSpaceAndComments();
      if (this.pos >= this.src.length) break;
      const token = this.next();
      if (token) tokens.push(token);
    }
    tokens.push({ kind: 'eof', text: '<EOF>', offset: this.src.length });
    return tokens;
  }

  private skipSpaceAndComments(): void {
    while (this.pos < this.src.length) {
      const c = this.src[this.pos]!;
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') this.pos++;
      else if (this.src.startsWith('//', this.pos)) {
        while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++;
      } else break;
    }
  }

  private next(): Token | undefined {
    const start = this.pos;
    const c = this.src[start]!;
    if (isDigit(c) || (c === '.' && isDigit(this.src[start + 1]))) return this.number(start);
    const prefix = this.stringPrefix(start);
    if (prefix !== undefined) return this.string(start, prefix);
    if (isIdentStart(c)) {
      while (isIdentPart(this.src[this.pos])) this.pos++;
      return { kind: 'ident', text: this.src.slice(start, this.pos), offset: start };
    }
    const punct = PUNCT.find((p) => this.src.startsWith(p, start));
    if (punct) {
      this.pos += punct.length;
      return { kind: 'punct', text: punct, offset: start };
    }
    const ch = String.fromCodePoint(this.src.codePointAt(start)!);
    this.pos += ch.length;
    this.issues.push({ offset: start, message: `Syntax error: token recognition error at: '${ch}'` });
    return undefined;
  }

  private number(start: number): Token {
    const src = this.src;
    if (src[start] === '0' && (src[start + 1] === 'x' || src[start + 1] === 'X') && isHex(src[start + 2])) {
      this.pos = start + 2;
      while (isHex(src[this.pos])) this.pos++;
      return this.integer(start, BigInt(src.slice(start, this.pos)));
    }
    while (isDigit(src[this.pos])) this.pos++;
    let isDouble = false;
    if (src[this.pos] === '.' && isDigit(src[this.pos + 1])) {
      isDouble = true;
      this.pos++;
      while (isDigit(src[this.pos])) this.pos++;
    }
    const e = src[this.pos];
    if ((e === 'e' || e === 'E') && (isDigit(src[this.pos + 1]) || (/[+-]/.test(src[this.pos + 1] ?? '') && isDigit(src[this.pos + 2])))) {
      isDouble = true;
      this.pos += 2;
      while (isDigit(src[this.pos])) this.pos++;
    }
    if (isDouble) {
      const text = src.slice(start, this.pos);
      return { kind: 'double', text, offset: start, value: Number(text) };
    }
    return this.integer(start, BigInt(src.slice(start, this.pos)));
  }

  private integer(start: number, value: bigint): Token {
    const suffix = this.src[this.pos];
    if (suffix === 'u' || suffix === 'U') {
      this.pos++;
      return { kind: 'uint', text: this.src.slice(start, this.pos), offset: start, value };
    }
    return { kind: 'int', text: this.src.slice(start, this.pos), offset: start, value };
  }

  /** The prefix letters (r, b, rb, br in any case) when a string literal starts here. */
  private stringPrefix(start: number): string | undefined {
    const m = /^([rRbB]{0,2})['"]/.exec(this.src.slice(start, start + 3));
    if (!m) return undefined;
    const p = m[1]!.toLowerCase();
    return p === '' || p === 'r' || p === 'b' || p === 'rb' || p === 'br' ? p : undefined;
  }

  private string(start: number, prefix: string): Token {
    this.pos = start + prefix.length;
    const quote = this.src.startsWith("'''", this.pos) ? "'''" : this.src.startsWith('"""', this.pos) ? '"""' : this.src[this.pos]!;
    this.pos += quote.length;
    const raw = prefix.includes('r');
    const isBytes = prefix.includes('b');
    const out = new StringBuilder(isBytes);
    for (;;) {
      if (this.pos >= this.src.length || (quote.length === 1 && (this.src[this.pos] === '\n' || this.src[this.pos] === '\r'))) {
        this.issues.push({ offset: start, message: `Syntax error: token recognition error at: '${this.src.slice(start, this.pos)}'` });
        break;
      }
      if (this.src.startsWith(quote, this.pos)) {
        this.pos += quote.length;
        break;
      }
      if (this.src[this.pos] === '\\' && !raw) this.escape(out, start);
      else {
        const ch = String.fromCodePoint(this.src.codePointAt(this.pos)!);
        out.text(ch);
        this.pos += ch.length;
      }
    }
    const text = this.src.slice(start, this.pos);
    return isBytes ? { kind: 'bytes', text, offset: start, value: out.bytes() } : { kind: 'string', text, offset: start, value: out.string() };
  }

  private escape(out: StringBuilder, start: number): void {
    const c = this.src[this.pos + 1];
    const simple = c === undefined ? undefined : SIMPLE_ESCAPES[c];
    if (simple !== undefined) {
      out.text(simple);
      this.pos += 2;
      return;
    }
    const hex = (n: number): number | undefined => {
      const digits = this.src.slice(this.pos + 2, this.pos + 2 + n);
      return digits.length === n && [...digits].every(isHex) ? parseInt(digits, 16) : undefined;
    };
    let code: number | undefined;
    let length = 0;
    let isByte = false;
    if (c === 'x' || c === 'X') [code, length, isByte] = [hex(2), 4, true];
    else if (c === 'u') [code, length] = [hex(4), 6];
    else if (c === 'U') [code, length] = [hex(8), 10];
    else if (c !== undefined && c >= '0' && c <= '3') {
      const digits = this.src.slice(this.pos + 1, this.pos + 4);
      if (/^[0-3][0-7][0-7]$/.test(digits)) [code, length, isByte] = [parseInt(digits, 8), 4, true];
    }
    if (code === undefined || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      this.issues.push({ offset: start, message: `Syntax error: token recognition error at: '${this.src.slice(start, this.pos + 2)}'` });
      this.pos += 2;
      return;
    }
    if (isByte) out.byte(code);
    else out.text(String.fromCodePoint(code));
    this.pos += length;
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '?': '?',
  '"': '"',
  "'": "'",
  '`': '`',
};

/** Accumulates a literal: in bytes literals `\x` and octal escapes are raw bytes; in strings they
 * are code points. */
class StringBuilder {
  private readonly parts: number[] = [];
  private str = '';

  constructor(private readonly isBytes: boolean) {}

  text(s: string): void {
    if (this.isBytes) this.parts.push(...utf8Encode(s));
    else this.str += s;
  }

  byte(code: number): void {
    if (this.isBytes) this.parts.push(code);
    else this.str += String.fromCodePoint(code);
  }

  bytes(): Uint8Array {
    return Uint8Array.from(this.parts);
  }

  string(): string {
    return this.str;
  }
}
