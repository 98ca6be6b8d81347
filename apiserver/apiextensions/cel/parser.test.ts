import { describe, expect, it } from 'vitest';
import type { Expr } from './ast.js';
import { CelCompileError } from './errors.js';
import { tokenize } from './lexer.js';
import { parseExpression } from './program.js';

/** A compact rendering of an AST: calls as fn(args), selections as a.b, macros as name[var](...). */
function show(e: Expr): string {
  switch (e.kind) {
    case 'literal':
      return typeof e.value === 'string' ? JSON.stringify(e.value) : String(e.value);
    case 'ident':
      return e.name;
    case 'select':
      return `${e.testOnly ? 'has:' : ''}${show(e.operand)}${e.optional ? '.?' : '.'}${e.field}`;
    case 'call':
      return `${e.target ? `${show(e.target)}.` : ''}${e.fn}(${e.args.map(show).join(', ')})`;
    case 'list':
      return `[${e.elements.map((x, i) => (e.optional[i] ? '?' : '') + show(x)).join(', ')}]`;
    case 'map':
      return `{${e.entries.map((x) => `${x.optional ? '?' : ''}${show(x.key)}: ${show(x.value)}`).join(', ')}}`;
    case 'comprehension':
      return `${show(e.range)}.${e.macro}[${[e.iterVar, e.iterVar2].filter(Boolean).join(',')}](${e.args.map(show).join(', ')})`;
  }
}

describe('lexer', () => {
  it('splits tokens and decodes literals', () => {
    const { tokens, issues } = tokenize("a.b(1u, 2.5e1, 'x', b'y') != -3 // end");
    expect(issues).toEqual([]);
    expect(tokens.map((t) => t.kind)).toEqual([
      'ident',
      'punct',
      'ident',
      'punct',
      'uint',
      'punct',
      'double',
      'punct',
      'string',
      'punct',
      'bytes',
      'punct',
      'punct',
      'punct',
      'int',
      'eof',
    ]);
    expect(tokens[6]?.value).toBe(25);
  });
});

describe('parser', () => {
  it.each<[string, string]>([
    ['a || b && c', '_||_(a, _&&_(b, c))'],
    ['a && b || c', '_||_(_&&_(a, b), c)'],
    ['a ? b : c ? d : e', '_?_:_(a, b, _?_:_(c, d, e))'],
    ['1 + 2 * 3 - 4', '_-_(_+_(1, _*_(2, 3)), 4)'],
    ['!a == b', '_==_(!_(a), b)'],
    ['-a.b', '-_(a.b)'],
    ['-5.size()', '-5.size()'],
    ['x in y && z', '_&&_(@in(x, y), z)'],
    ['a.b.c(d)[e]', '_[_](a.b.c(d), e)'],
    ['a.?b[?c]', '_[?_](a.?b, c)'],
    ['has(a.b)', 'has:a.b'],
    ['[?a, b]', '[?a, b]'],
    ['{?"k": v}', '{?"k": v}'],
    ['l.all(x, x > 0)', 'l.all[x](_>_(x, 0))'],
    ['l.exists(i, v, v)', 'l.exists[i,v](v)'],
    ['l.existsOne(x, x)', 'l.exists_one[x](x)'],
    ['l.map(x, x > 1, x)', 'l.map[x](_>_(x, 1), x)'],
    ['l.map(x)', 'l.map(x)'],
    ['optional.none()', 'optional.none()'],
    ['sets.contains(a, b)', 'sets.contains(a, b)'],
    ['google.protobuf.Timestamp', 'google.protobuf.Timestamp'],
    ['google.protobuf.Other', 'google.protobuf.Other'],
    ['.a', 'a'],
  ])('%s', (source, ast) => expect(show(parseExpression(source))).toBe(ast));

  it.each<[string, string]>([
    [
      'a +',
      "ERROR: <input>:1:4: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | a +\n | ...^",
    ],
    ['(a', "ERROR: <input>:1:3: Syntax error: mismatched input '<EOF>' expecting ')'"],
    ['a b', "ERROR: <input>:1:3: Syntax error: extraneous input 'b' expecting <EOF>"],
    ['a.1', "ERROR: <input>:1:2: Syntax error: extraneous input '.1' expecting <EOF>"],
    ['a.(b)', "ERROR: <input>:1:3: Syntax error: mismatched input '(' expecting IDENTIFIER"],
    ['if', 'ERROR: <input>:1:1: reserved identifier: if'],
    ['a.all(x.y, true)', 'ERROR: <input>:1:8: argument must be a simple name'],
    ['has(a)', 'invalid argument to has() macro'],
    ['Msg{a: 1}', 'unsupported syntax: message construction'],
    ['x\n  + &', "ERROR: <input>:2:5: Syntax error: token recognition error at: '&'\n |   + &\n | ....^"],
    ["'👑' + #", "ERROR: <input>:1:7: Syntax error: token recognition error at: '#'\n | '👑' + #\n | .．....^"],
  ])('rejects %j', (source, message) => {
    expect(() => parseExpression(source)).toThrow(CelCompileError);
    expect(() => parseExpression(source)).toThrow(message);
  });

  it('limits nesting depth', () => {
    expect(() => parseExpression(`${'('.repeat(300)}1${')'.repeat(300)}`)).toThrow('expression recursion limit exceeded');
  });
});
