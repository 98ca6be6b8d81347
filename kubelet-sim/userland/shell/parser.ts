/**
 * parseScript turns shell text into a List. It reads the POSIX grammar's everyday subset: words
 * with quotes, escapes and `$` expansions, `;` `&` newlines, `&&` `||`, pipes, redirects,
 * `if`/`while`/`until`/`for`, `{ }` and `( )`. A script that ends inside a construct raises a
 * SyntaxError with `incomplete` set, so an interactive shell can read another line.
 */
import type { AndOr, Assignment, Command, List, Pipeline, Redirect, Word, WordPart } from './ast.js';

export class ShellSyntaxError extends Error {
  constructor(
    /** The token the parser did not expect, or undefined at end of input. */
    readonly token: string | undefined,
    /** At end of input: the keyword the construct was waiting for. */
    readonly expecting: string | undefined,
    readonly line: number,
  ) {
    super(token === undefined ? `unexpected end of file${expecting ? ` (expecting "${expecting}")` : ''}` : `unexpected "${token}"`);
  }
  get incomplete(): boolean {
    return this.token === undefined;
  }
}

type Token =
  | { readonly type: 'word'; readonly word: Word; readonly raw: string; readonly line: number }
  | { readonly type: 'op'; readonly op: string; readonly line: number /** blanks skipped before it */; readonly gap: number }
  | { readonly type: 'newline'; readonly line: number }
  | { readonly type: 'eof'; readonly line: number };

const OPERATORS = ['&&', '||', '>>', '>&', '<&', ';', '&', '|', '(', ')', '<', '>'];
const META = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);
const RESERVED = new Set(['if', 'then', 'elif', 'else', 'fi', 'while', 'until', 'do', 'done', 'for', 'in', '{', '}', '!']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

class Lexer {
  private pos = 0;
  line = 1;
  private peeked: Token | undefined;

  constructor(
    private readonly text: string,
    firstLine = 1,
  ) {
    this.line = firstLine;
  }

  peek(): Token {
    this.peeked ??= this.read();
    return this.peeked;
  }

  next(): Token {
    const token = this.peek();
    this.peeked = undefined;
    return token;
  }

  private read(): Token {
    const before = this.pos;
    this.skipBlanksAndComments();
    const gap = this.pos - before;
    const line = this.line;
    if (this.pos >= this.text.length) return { type: 'eof', line };
    const c = this.text[this.pos]!;
    if (c === '\n') {
      this.pos++;
      this.line++;
      return { type: 'newline', line };
    }
    for (const op of OPERATORS) {
      if (this.text.startsWith(op, this.pos)) {
        this.pos += op.length;
        return { type: 'op', op, line, gap };
      }
    }
    return this.readWord(line);
  }

  private skipBlanksAndComments(): void {
    for (;;) {
      const c = this.text[this.pos];
      if (c === ' ' || c === '\t') this.pos++;
      else if (c === '\\' && this.text[this.pos + 1] === '\n') {
        this.pos += 2;
        this.line++;
      } else if (c === '#') {
        while (this.pos < this.text.length && this.text[this.pos] !== '\n') this.pos++;
      } else return;
    }
  }

  private readWord(line: number): Token {
    const start = this.pos;
    const parts: WordPart[] = [];
    let literal = '';
    const flush = () => {
      if (literal) parts.push({ kind: 'lit', text: literal, quoted: false });
      literal = '';
    };
    while (this.pos < this.text.length) {
      const c = this.text[this.pos]!;
      if (META.has(c)) break;
      if (c === '\\') {
        const next = this.text[this.pos + 1];
        this.pos += 2;
        if (next === undefined) throw new ShellSyntaxError(undefined, undefined, this.line);
        if (next === '\n') {
          this.line++;
          continue;
        }
        flush();
        parts.push({ kind: 'lit', text: next, quoted: true });
      } else if (c === "'") {
        const end = this.text.indexOf("'", this.pos + 1);
        if (end < 0) throw new ShellSyntaxError(undefined, "'", this.line);
        flush();
        const text = this.text.slice(this.pos + 1, end);
        this.countLines(text);
        parts.push({ kind: 'lit', text, quoted: true });
        this.pos = end + 1;
      } else if (c === '"') {
        flush();
        this.pos++;
        parts.push(...this.readDoubleQuoted());
      } else if (c === '$' || c === '`') {
        const part = this.readExpansion(false);
        if (part) {
          flush();
          parts.push(part);
        } else {
          literal += c;
          this.pos++;
        }
      } else {
        literal += c;
        this.pos++;
      }
    }
    flush();
    return { type: 'word', word: parts, raw: this.text.slice(start, this.pos), line };
  }

  private countLines(text: string): void {
    for (const c of text) if (c === '\n') this.line++;
  }

  private readDoubleQuoted(): WordPart[] {
    const parts: WordPart[] = [{ kind: 'lit', text: '', quoted: true }];
    let literal = '';
    const flush = () => {
      parts.push({ kind: 'lit', text: literal, quoted: true });
      literal = '';
    };
    for (;;) {
      const c = this.text[this.pos];
      if (c === undefined) throw new ShellSyntaxError(undefined, '"', this.line);
      if (c === '"') {
        this.pos++;
        flush();
        return parts.filter((part, i) => i === 0 || part.kind !== 'lit' || part.text !== '');
      }
      if (c === '\\' && '$`"\\\n'.includes(this.text[this.pos + 1] ?? '')) {
        const next = this.text[this.pos + 1]!;
        if (next === '\n') this.line++;
        else literal += next;
        this.pos += 2;
        continue;
      }
      if (c === '$' || c === '`') {
        const part = this.readExpansion(true);
        if (part) {
          flush();
          parts.push(part);
          continue;
        }
      }
      if (c === '\n') this.line++;
      literal += c;
      this.pos++;
    }
  }

  /** readExpansion reads `$name`, `${…}`, `$(…)`, `$((…))` or a backquoted command at pos; undefined
   * when a `$` starts none of them (it is then literal). */
  private readExpansion(quoted: boolean): WordPart | undefined {
    const text = this.text;
    if (text[this.pos] === '`') {
      const end = text.indexOf('`', this.pos + 1);
      if (end < 0) throw new ShellSyntaxError(undefined, '`', this.line);
      const script = text.slice(this.pos + 1, end);
      this.pos = end + 1;
      return { kind: 'sub', script, quoted };
    }
    const next = text[this.pos + 1] ?? '';
    if (text.startsWith('$((', this.pos)) {
      const end = this.matching(this.pos + 3, 2);
      const expression = text.slice(this.pos + 3, end - 1);
      this.pos = end + 1;
      return { kind: 'arith', expression, quoted };
    }
    if (next === '(') {
      const end = this.matching(this.pos + 2, 1);
      const script = text.slice(this.pos + 2, end);
      this.pos = end + 1;
      return { kind: 'sub', script, quoted };
    }
    if (next === '{') return this.readBraced(quoted);
    if ('?#$!@*0123456789-'.includes(next) && next !== '') {
      this.pos += 2;
      return { kind: 'param', name: next, quoted };
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(this.pos + 1))?.[0];
    if (!name) return undefined;
    this.pos += 1 + name.length;
    return { kind: 'param', name, quoted };
  }

  private readBraced(quoted: boolean): WordPart {
    const close = this.matchingBrace(this.pos + 2);
    const inner = this.text.slice(this.pos + 2, close);
    this.pos = close + 1;
    if (inner.startsWith('#') && inner.length > 1) return { kind: 'param', name: inner.slice(1), quoted, op: { colon: false, op: '#', word: [] } };
    const match = /^([A-Za-z_][A-Za-z0-9_]*|[?#$!@*0-9])(:?)([-=+?])?(.*)$/s.exec(inner);
    if (!match || (!match[3] && (match[2] || match[4]))) throw new ShellSyntaxError(`\${${inner}}`, undefined, this.line);
    if (!match[3]) return { kind: 'param', name: match[1]!, quoted };
    const word = new Lexer(match[4]!).wordOf();
    return { kind: 'param', name: match[1]!, quoted, op: { colon: match[2] === ':', op: match[3] as '-', word } };
  }

  /** wordOf reads the whole text as one word (the word of `${x:-word}`, spaces included). */
  wordOf(): Word {
    const parts: WordPart[] = [];
    while (this.pos < this.text.length) {
      const token = this.readWord(this.line);
      if (token.type === 'word') parts.push(...token.word);
      if (this.pos < this.text.length) {
        parts.push({ kind: 'lit', text: this.text[this.pos]!, quoted: true });
        this.pos++;
      }
    }
    return parts;
  }

  /** matching: the index of the `)` closing a `$(` (depth 1) or `$((` (depth 2) opened before from. */
  private matching(from: number, depth: number): number {
    let level = depth;
    let quote: string | undefined;
    for (let i = from; i < this.text.length; i++) {
      const c = this.text[i]!;
      if (quote) {
        if (c === quote) quote = undefined;
        else if (c === '\\' && quote === '"') i++;
        continue;
      }
      if (c === "'" || c === '"') quote = c;
      else if (c === '\\') i++;
      else if (c === '(') level++;
      else if (c === ')' && --level === 0) return i;
    }
    throw new ShellSyntaxError(undefined, ')', this.line);
  }

  private matchingBrace(from: number): number {
    const end = this.text.indexOf('}', from);
    if (end < 0) throw new ShellSyntaxError(undefined, '}', this.line);
    return end;
  }
}

class Parser {
  constructor(private readonly lexer: Lexer) {}

  script(): List {
    const list = this.list([]);
    const token = this.lexer.peek();
    if (token.type !== 'eof') throw this.unexpected(token);
    return list;
  }

  /** list reads and-or lists until a token in `stops` (a reserved word or `)`) or end of input. */
  private list(stops: readonly string[]): List {
    const items: Array<{ command: AndOr; background: boolean }> = [];
    for (;;) {
      this.skipNewlines();
      const token = this.lexer.peek();
      if (token.type === 'eof' || this.isStop(token, stops)) return { items };
      const command = this.andOr();
      const separator = this.lexer.peek();
      if (separator.type === 'op' && (separator.op === ';' || separator.op === '&')) {
        this.lexer.next();
        items.push({ command, background: separator.op === '&' });
      } else {
        items.push({ command, background: false });
        if (separator.type !== 'newline' && separator.type !== 'eof' && !this.isStop(separator, stops)) throw this.unexpected(separator);
      }
    }
  }

  private isStop(token: Token, stops: readonly string[]): boolean {
    if (token.type === 'op') return stops.includes(token.op);
    return token.type === 'word' && RESERVED.has(token.raw) && stops.includes(token.raw);
  }

  private skipNewlines(): void {
    while (this.lexer.peek().type === 'newline') this.lexer.next();
  }

  private andOr(): AndOr {
    const first = this.pipeline();
    const rest: Array<{ op: '&&' | '||'; pipeline: Pipeline }> = [];
    for (;;) {
      const token = this.lexer.peek();
      if (token.type !== 'op' || (token.op !== '&&' && token.op !== '||')) return { first, rest };
      this.lexer.next();
      this.skipNewlines();
      rest.push({ op: token.op, pipeline: this.pipeline() });
    }
  }

  private pipeline(): Pipeline {
    let negate = false;
    const first = this.lexer.peek();
    if (first.type === 'word' && first.raw === '!') {
      this.lexer.next();
      negate = true;
    }
    const commands = [this.command()];
    for (;;) {
      const token = this.lexer.peek();
      if (token.type !== 'op' || token.op !== '|') return { negate, commands };
      this.lexer.next();
      this.skipNewlines();
      commands.push(this.command());
    }
  }

  private command(): Command {
    const token = this.lexer.peek();
    if (token.type === 'eof') throw new ShellSyntaxError(undefined, undefined, token.line);
    if (token.type === 'op' && token.op === '(') {
      this.lexer.next();
      const body = this.list([')']);
      this.expect(')');
      return { kind: 'group', subshell: true, body, redirects: this.redirects() };
    }
    if (token.type === 'word') {
      switch (token.raw) {
        case 'if':
          return this.ifCommand();
        case 'while':
        case 'until':
          return this.whileCommand(token.raw === 'until');
        case 'for':
          return this.forCommand();
        case '{': {
          this.lexer.next();
          const body = this.list(['}']);
          this.expect('}');
          return { kind: 'group', subshell: false, body, redirects: this.redirects() };
        }
      }
      if (RESERVED.has(token.raw) && token.raw !== '!') throw this.unexpected(token);
    }
    return this.simple();
  }

  private expect(word: string): void {
    const token = this.lexer.next();
    if (token.type === 'eof') throw new ShellSyntaxError(undefined, word, token.line);
    const text = token.type === 'word' ? token.raw : token.type === 'op' ? token.op : '\n';
    if (text !== word) throw this.unexpected(token);
  }

  private ifCommand(): Command {
    this.lexer.next();
    const branches: Array<[List, List]> = [];
    let otherwise: List | undefined;
    for (;;) {
      const condition = this.list(['then']);
      this.expect('then');
      const body = this.list(['elif', 'else', 'fi']);
      branches.push([condition, body]);
      const token = this.lexer.next();
      if (token.type === 'eof') throw new ShellSyntaxError(undefined, 'fi', token.line);
      if (token.type === 'word' && token.raw === 'elif') continue;
      if (token.type === 'word' && token.raw === 'else') {
        otherwise = this.list(['fi']);
        this.expect('fi');
      }
      return { kind: 'if', branches, otherwise, redirects: this.redirects() };
    }
  }

  private whileCommand(until: boolean): Command {
    this.lexer.next();
    const condition = this.list(['do']);
    this.expect('do');
    const body = this.list(['done']);
    this.expect('done');
    return { kind: 'while', until, condition, body, redirects: this.redirects() };
  }

  private forCommand(): Command {
    this.lexer.next();
    const nameToken = this.lexer.next();
    if (nameToken.type !== 'word' || !NAME.test(nameToken.raw)) throw this.unexpected(nameToken);
    let items: Word[] | undefined;
    this.skipNewlines();
    const next = this.lexer.peek();
    if (next.type === 'word' && next.raw === 'in') {
      this.lexer.next();
      items = [];
      for (;;) {
        const token = this.lexer.peek();
        if (token.type !== 'word') break;
        items.push(token.word);
        this.lexer.next();
      }
    }
    const separator = this.lexer.peek();
    if (separator.type === 'op' && separator.op === ';') this.lexer.next();
    this.skipNewlines();
    this.expect('do');
    const body = this.list(['done']);
    this.expect('done');
    return { kind: 'for', name: nameToken.raw, items, body, redirects: this.redirects() };
  }

  private redirects(): Redirect[] {
    const redirects: Redirect[] = [];
    for (;;) {
      const redirect = this.redirect(undefined);
      if (!redirect) return redirects;
      redirects.push(redirect);
    }
  }

  /** redirect reads one redirection operator and its target, when the next token is one. */
  private redirect(fd: number | undefined): Redirect | undefined {
    const token = this.lexer.peek();
    if (token.type !== 'op' || !['<', '>', '>>', '>&', '<&'].includes(token.op)) return undefined;
    this.lexer.next();
    const target = this.lexer.next();
    if (target.type !== 'word') throw target.type === 'eof' ? new ShellSyntaxError(undefined, undefined, target.line) : this.unexpected(target);
    const op = token.op as Redirect['op'];
    return { fd: fd ?? (op === '<' || op === '<&' ? 0 : 1), op, target: target.word };
  }

  private simple(): Command {
    const assigns: Assignment[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    const line = this.lexer.peek().line;
    for (;;) {
      const token = this.lexer.peek();
      if (token.type === 'op') {
        const redirect = this.redirect(undefined);
        if (!redirect) break;
        redirects.push(redirect);
        continue;
      }
      if (token.type !== 'word') break;
      this.lexer.next();
      // A digit touching a redirection is the fd it redirects (`2>&1`; `2 >x` passes 2 as an argument).
      const after = this.lexer.peek();
      if (/^\d$/.test(token.raw) && after.type === 'op' && ['<', '>', '>>', '>&', '<&'].includes(after.op) && after.gap === 0) {
        redirects.push(this.redirect(Number(token.raw))!);
        continue;
      }
      const assignment = words.length === 0 ? assignmentOf(token.word) : undefined;
      if (assignment) assigns.push(assignment);
      else words.push(token.word);
    }
    if (assigns.length === 0 && words.length === 0 && redirects.length === 0) throw this.unexpected(this.lexer.peek());
    return { kind: 'simple', assigns, words, redirects, line };
  }

  private unexpected(token: Token): ShellSyntaxError {
    if (token.type === 'eof') return new ShellSyntaxError(undefined, undefined, token.line);
    const text = token.type === 'word' ? token.raw : token.type === 'op' ? token.op : 'newline';
    return new ShellSyntaxError(text, undefined, token.line);
  }
}

/** assignmentOf: `NAME=value` as an assignment (the name unquoted), or undefined. */
function assignmentOf(word: Word): Assignment | undefined {
  const first = word[0];
  if (first?.kind !== 'lit' || first.quoted) return undefined;
  const eq = first.text.indexOf('=');
  if (eq <= 0 || !NAME.test(first.text.slice(0, eq))) return undefined;
  const rest = first.text.slice(eq + 1);
  const value: WordPart[] = rest ? [{ kind: 'lit', text: rest, quoted: false }, ...word.slice(1)] : [...word.slice(1)];
  return { name: first.text.slice(0, eq), value };
}

/** parseScript parses text whose first line is line `firstLine` of the input (an interactive shell
 * numbers lines across what it has read). */
export function parseScript(text: string, firstLine = 1): List {
  return new Parser(new Lexer(text, firstLine)).script();
}
