/**
 * The CEL parser: recursive descent over cel-spec's grammar
 *
 *   Expr     = Or ["?" Or ":" Expr]            Or  = And {"||" And}     And = Rel {"&&" Rel}
 *   Rel      = Add {("<"|"<="|">="|">"|"=="|"!="|"in") Add}
 *   Add      = Mul {("+"|"-") Mul}             Mul = Unary {("*"|"/"|"%") Unary}
 *   Unary    = Member | "!"{"!"} Member | "-"{"-"} Member
 *   Member   = Primary {"." ["?"] IDENT ["(" [Exprs] ")"] | "[" ["?"] Expr "]"}
 *   Primary  = ["."] IDENT ["(" [Exprs] ")"] | "(" Expr ")" | "[" [ListElems] [","] "]"
 *            | "{" [MapInits] [","] "}" | LITERAL
 *
 * with cel-go's optional syntax (`a.?b`, `a[?k]`, `[?e]`, `{?k: v}`) and macro recognition
 * (has, all, exists, exists_one/existsOne, map, filter, transformList, transformMap,
 * transformMapEntry, sortBy, optMap, optFlatMap). Message construction (`Msg{f: 1}`) is not
 * supported: there are no protobuf messages here.
 */
import type { ComprehensionExpr, Expr, MacroName, MapEntry } from './ast.js';
import { CelCompileError, type CelIssue } from './errors.js';
import { type Token, tokenize } from './lexer.js';
import { CelUint, INT64_MAX, UINT64_MAX } from './values.js';

/** ParseOptions tells the parser which dotted names are functions or constants of the
 * environment (`optional.none`, `sets.contains`, `google.protobuf.Timestamp`), so that
 * `optional.none()` is a call of `optional.none` rather than of `none` on a variable `optional`. */
export interface ParseOptions {
  isQualifiedName?: (name: string) => boolean;
}

/** Reserved identifiers the grammar refuses (CEL's language definition); escaping.ts adds the literals. */
export const RESERVED_WORDS: readonly string[] = [
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
];
const RESERVED = new Set(RESERVED_WORDS);

const EXPR_START = "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
const MAX_DEPTH = 250;

/** parse turns source into an AST, or throws CelCompileError with cel-go-style issues. */
export function parse(source: string, options: ParseOptions = {}): Expr {
  const { tokens, issues } = tokenize(source);
  if (issues.length > 0) throw new CelCompileError(source, issues);
  const parser = new Parser(tokens, options);
  try {
    const expr = parser.expr();
    parser.expectEnd();
    return expr;
  } catch (err) {
    if (err instanceof ParseFailure) throw new CelCompileError(source, [err.issue]);
    throw err;
  }
}

class ParseFailure extends Error {
  constructor(readonly issue: CelIssue) {
    super(issue.message);
  }
}

const BINARY_LEVELS: ReadonlyArray<ReadonlyMap<string, string>> = [
  new Map([
    ['<', '_<_'],
    ['<=', '_<=_'],
    ['>=', '_>=_'],
    ['>', '_>_'],
    ['==', '_==_'],
    ['!=', '_!=_'],
    ['in', '@in'],
  ]),
  new Map([
    ['+', '_+_'],
    ['-', '_-_'],
  ]),
  new Map([
    ['*', '_*_'],
    ['/', '_/_'],
    ['%', '_%_'],
  ]),
];

class Parser {
  private pos = 0;
  private nextId = 1;
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly options: ParseOptions,
  ) {}

  expectEnd(): void {
    const t = this.peek();
    if (t.kind !== 'eof') this.fail(t, `Syntax error: extraneous input '${t.text}' expecting <EOF>`);
  }

  expr(): Expr {
    if (++this.depth > MAX_DEPTH) this.fail(this.peek(), 'expression recursion limit exceeded');
    try {
      const cond = this.logical('||', '_||_', () => this.logical('&&', '_&&_', () => this.binary(0)));
      if (!this.isPunct('?')) return cond;
      const op = this.take();
      const ifTrue = this.logical('||', '_||_', () => this.logical('&&', '_&&_', () => this.binary(0)));
      this.expectPunct(':');
      const ifFalse = this.expr();
      return this.call(op.offset, '_?_:_', [cond, ifTrue, ifFalse]);
    } finally {
      this.depth--;
    }
  }

  private logical(text: string, fn: string, operand: () => Expr): Expr {
    let left = operand();
    while (this.isPunct(text)) {
      const op = this.take();
      left = this.call(op.offset, fn, [left, operand()]);
    }
    return left;
  }

  private binary(level: number): Expr {
    if (level >= BINARY_LEVELS.length) return this.unary();
    const ops = BINARY_LEVELS[level]!;
    let left = this.binary(level + 1);
    for (;;) {
      const t = this.peek();
      const fn = t.kind === 'punct' || (t.kind === 'ident' && t.text === 'in') ? ops.get(t.text) : undefined;
      if (fn === undefined) return left;
      this.take();
      left = this.call(t.offset, fn, [left, this.binary(level + 1)]);
    }
  }

  private unary(): Expr {
    const t = this.peek();
    if (this.isPunct('!') || (this.isPunct('-') && !this.isNumberAt(this.pos + 1))) {
      const ops: Token[] = [];
      while (this.isPunct(t.text)) ops.push(this.take());
      let operand = this.member();
      const fn = t.text === '!' ? '!_' : '-_';
      for (const op of ops.reverse()) operand = this.call(op.offset, fn, [operand]);
      return operand;
    }
    return this.member();
  }

  private member(): Expr {
    let expr = this.primary();
    for (;;) {
      if (this.isPunct('.')) expr = this.selectOrCall(expr);
      else if (this.isPunct('[')) {
        const open = this.take();
        const optional = this.isPunct('?') && this.take() !== undefined;
        const index = this.expr();
        this.expectPunct(']');
        expr = this.call(open.offset, optional ? '_[?_]' : '_[_]', [expr, index]);
      } else return expr;
    }
  }

  private selectOrCall(operand: Expr): Expr {
    const dot = this.take();
    const optional = this.isPunct('?') && this.take() !== undefined;
    const name = this.identifier();
    if (!optional && this.isPunct('(')) {
      const open = this.take();
      const args = this.exprList(')');
      return this.receiverCall(open.offset, name.text, operand, args);
    }
    const qualified = qualifiedName(operand);
    if (!optional && qualified !== undefined && this.options.isQualifiedName?.(`${qualified}.${name.text}`)) {
      return { kind: 'ident', id: this.id(), offset: operand.offset, name: `${qualified}.${name.text}` };
    }
    return { kind: 'select', id: this.id(), offset: dot.offset, operand, field: name.text, testOnly: false, optional };
  }

  private receiverCall(offset: number, fn: string, target: Expr, args: Expr[]): Expr {
    const qualified = qualifiedName(target);
    if (qualified !== undefined && this.options.isQualifiedName?.(`${qualified}.${fn}`)) {
      return this.call(offset, `${qualified}.${fn}`, args);
    }
    return this.macro(offset, fn, target, args) ?? { kind: 'call', id: this.id(), offset, fn, target, args };
  }

  private primary(): Expr {
    const t = this.peek();
    switch (t.kind) {
      case 'int':
      case 'uint':
      case 'double':
      case 'string':
      case 'bytes':
        return this.literal(this.take(), false);
      case 'ident':
        return this.identOrCall();
      case 'eof':
        return this.fail(t, `Syntax error: mismatched input '<EOF>' expecting ${EXPR_START}`);
    }
    if (t.text === '-' && this.isNumberAt(this.pos + 1)) {
      this.take();
      return this.literal(this.take(), true);
    }
    if (t.text === '(') {
      this.take();
      const inner = this.expr();
      this.expectPunct(')');
      return inner;
    }
    if (t.text === '[') return this.list();
    if (t.text === '{') return this.map();
    if (t.text === '.' && this.tokens[this.pos + 1]?.kind === 'ident') {
      this.take();
      return this.identOrCall();
    }
    return this.fail(t, `Syntax error: mismatched input '${t.text}' expecting ${EXPR_START}`);
  }

  private identOrCall(): Expr {
    const t = this.take();
    if (t.text === 'true' || t.text === 'false') return { kind: 'literal', id: this.id(), offset: t.offset, value: t.text === 'true' };
    if (t.text === 'null') return { kind: 'literal', id: this.id(), offset: t.offset, value: null };
    if (t.text === 'in') return this.fail(t, `Syntax error: mismatched input 'in' expecting ${EXPR_START}`);
    if (RESERVED.has(t.text)) return this.fail(t, `reserved identifier: ${t.text}`);
    if (this.isPunct('(')) {
      const open = this.take();
      const args = this.exprList(')');
      if (t.text === 'has') return this.hasMacro(open.offset, args);
      return this.call(open.offset, t.text, args);
    }
    if (this.isPunct('{')) return this.fail(this.peek(), 'unsupported syntax: message construction');
    return { kind: 'ident', id: this.id(), offset: t.offset, name: t.text };
  }

  private hasMacro(offset: number, args: Expr[]): Expr {
    const arg = args[0];
    if (args.length !== 1 || arg === undefined || arg.kind !== 'select' || arg.optional) {
      return this.fail({ kind: 'punct', text: '(', offset: arg?.offset ?? offset }, 'invalid argument to has() macro');
    }
    return { ...arg, testOnly: true };
  }

  private literal(t: Token, negative: boolean): Expr {
    const base = { kind: 'literal' as const, id: this.id(), offset: t.offset };
    switch (t.kind) {
      case 'int': {
        const v = negative ? -(t.value as bigint) : (t.value as bigint);
        if (v > INT64_MAX || v < -INT64_MAX - 1n) this.fail(t, 'invalid int literal');
        return { ...base, value: v };
      }
      case 'uint':
        if ((t.value as bigint) > UINT64_MAX) this.fail(t, 'invalid uint literal');
        return { ...base, value: new CelUint(t.value as bigint) };
      case 'double':
        return { ...base, value: negative ? -(t.value as number) : (t.value as number) };
      default:
        return { ...base, value: t.value as string | Uint8Array };
    }
  }

  private list(): Expr {
    const open = this.take();
    const elements: Expr[] = [];
    const optional: boolean[] = [];
    while (!this.isPunct(']')) {
      optional.push(this.isPunct('?') && this.take() !== undefined);
      elements.push(this.expr());
      if (!this.isPunct(',')) break;
      this.take();
    }
    this.expectPunct(']');
    return { kind: 'list', id: this.id(), offset: open.offset, elements, optional };
  }

  private map(): Expr {
    const open = this.take();
    const entries: MapEntry[] = [];
    while (!this.isPunct('}')) {
      const optional = this.isPunct('?') && this.take() !== undefined;
      const key = this.expr();
      const colon = this.expectPunct(':');
      entries.push({ key, value: this.expr(), optional, offset: colon.offset });
      if (!this.isPunct(',')) break;
      this.take();
    }
    this.expectPunct('}');
    return { kind: 'map', id: this.id(), offset: open.offset, entries };
  }

  private exprList(close: string): Expr[] {
    const args: Expr[] = [];
    while (!this.isPunct(close)) {
      args.push(this.expr());
      if (!this.isPunct(',')) break;
      this.take();
    }
    this.expectPunct(close);
    return args;
  }

  /** A comprehension node when `target.fn(args)` is a macro, else undefined (a plain call). */
  private macro(offset: number, fn: string, range: Expr, args: Expr[]): ComprehensionExpr | undefined {
    const shape = macroShape(fn, args.length);
    if (shape === undefined) return undefined;
    const vars = args.slice(0, shape.vars).map((a) => {
      if (a.kind !== 'ident' || a.name.includes('.')) this.fail({ kind: 'punct', text: '', offset: a.offset }, 'argument must be a simple name');
      return (a as { name: string }).name;
    });
    const [iterVar, iterVar2] = vars as [string, string | undefined];
    if (iterVar2 !== undefined && iterVar === iterVar2) {
      this.fail({ kind: 'punct', text: '', offset: args[1]!.offset }, `duplicate variable name: ${iterVar}`);
    }
    const node: ComprehensionExpr = { kind: 'comprehension', id: this.id(), offset, macro: shape.macro, range, iterVar, args: args.slice(shape.vars) };
    if (iterVar2 !== undefined) node.iterVar2 = iterVar2;
    return node;
  }

  private call(offset: number, fn: string, args: Expr[]): Expr {
    return { kind: 'call', id: this.id(), offset, fn, args };
  }

  private identifier(): Token {
    const t = this.peek();
    if (t.kind !== 'ident') return this.fail(t, `Syntax error: mismatched input '${t.text}' expecting IDENTIFIER`);
    return this.take();
  }

  private expectPunct(text: string): Token {
    const t = this.peek();
    if (t.kind !== 'punct' || t.text !== text) this.fail(t, `Syntax error: mismatched input '${t.text}' expecting '${text}'`);
    return this.take();
  }

  private isPunct(text: string): boolean {
    const t = this.peek();
    return t.kind === 'punct' && t.text === text;
  }

  private isNumberAt(index: number): boolean {
    const kind = this.tokens[index]?.kind;
    return kind === 'int' || kind === 'double';
  }

  private peek(): Token {
    return this.tokens[this.pos]!;
  }

  private take(): Token {
    const t = this.tokens[this.pos]!;
    if (t.kind !== 'eof') this.pos++;
    return t;
  }

  private id(): number {
    return this.nextId++;
  }

  private fail(t: Token, message: string): never {
    throw new ParseFailure({ offset: t.offset, message });
  }
}

/** The dotted name an expression spells (`a.b.c`), if it is a chain of plain identifiers. */
function qualifiedName(expr: Expr): string | undefined {
  if (expr.kind === 'ident') return expr.name;
  if (expr.kind === 'select' && !expr.optional && !expr.testOnly) {
    const base = qualifiedName(expr.operand);
    return base === undefined ? undefined : `${base}.${expr.field}`;
  }
  return undefined;
}

/** The macro a receiver call denotes, with how many leading arguments are variable names. */
function macroShape(fn: string, argc: number): { macro: MacroName; vars: number } | undefined {
  switch (fn) {
    case 'all':
    case 'exists':
      return argc === 2 || argc === 3 ? { macro: fn, vars: argc - 1 } : undefined;
    case 'exists_one':
    case 'existsOne':
      return argc === 2 || argc === 3 ? { macro: 'exists_one', vars: argc - 1 } : undefined;
    case 'map':
      return argc === 2 || argc === 3 ? { macro: 'map', vars: 1 } : undefined;
    case 'filter':
    case 'sortBy':
    case 'optMap':
    case 'optFlatMap':
      return argc === 2 ? { macro: fn, vars: 1 } : undefined;
    case 'transformList':
    case 'transformMap':
    case 'transformMapEntry':
      return argc === 3 || argc === 4 ? { macro: fn, vars: 2 } : undefined;
    default:
      return undefined;
  }
}
