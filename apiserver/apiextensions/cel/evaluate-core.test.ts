import { describe, it } from 'vitest';
import { expectError, expectValue } from './testing/expect-cel.js';

describe('literals', () => {
  it.each<[string, unknown]>([
    ['42', 42n],
    ['0x1F', 31n],
    ['-9223372036854775808', -9223372036854775808n],
    ['9223372036854775807', 9223372036854775807n],
    ['18446744073709551615u', { uint: 18446744073709551615n }],
    ['0x10u', { uint: 16n }],
    ['1.5', 1.5],
    ['.5', 0.5],
    ['1e3', 1000],
    ['2.5e-1', 0.25],
    ['true', true],
    ['null', null],
    ['"double"', 'double'],
    ["'single'", 'single'],
    ['"""triple\n"quoted" """', 'triple\n"quoted" '],
    ["'''it's'''", "it's"],
    [String.raw`'\a\b\f\n\r\t\v\\\'\"\`\?'`, '\x07\b\f\n\r\t\v\\\'"`?'],
    [String.raw`'\x41\101\u00e9\U0001F451'`, 'AAé👑'],
    [String.raw`r'\d+\n'`, String.raw`\d+\n`],
    [String.raw`R"\x"`, String.raw`\x`],
    ["'// not a comment' // a comment", '// not a comment'],
    ['size(b"abc")', 3n],
    [String.raw`b'\xff' == bytes("ÿ")`, false],
    [String.raw`size(b'\xff\377')`, 2n],
    ["size(b'ÿ')", 2n],
    [String.raw`br'\x41' == b'\\x41'`, true],
  ])('%s', (expression, expected) => expectValue(expression, expected));

  it.each<[string, string]>([
    ['9223372036854775808', 'invalid int literal'],
    ['-9223372036854775809', 'invalid int literal'],
    ['18446744073709551616u', 'invalid uint literal'],
    ["'unterminated", 'Syntax error: token recognition error'],
    [String.raw`'\q'`, 'Syntax error: token recognition error'],
    [String.raw`'\uD800'`, 'Syntax error: token recognition error'],
    ["'line\nbreak'", 'Syntax error: token recognition error'],
    ['1 # 2', "token recognition error at: '#'"],
  ])('rejects %s', (expression, fragment) => expectError(expression, fragment));
});

describe('operator precedence and associativity', () => {
  it.each<[string, unknown]>([
    ['1 + 2 * 3', 7n],
    ['(1 + 2) * 3', 9n],
    ['10 - 4 - 3', 3n],
    ['100 / 10 / 5', 2n],
    ['7 % 4 * 2', 6n],
    ['-2 * 3', -6n],
    ['- -2', 2n],
    ['!true || true', true],
    ['!!true', true],
    ['true || false && false', true],
    ['(true || false) && false', false],
    ['1 < 2 == true', true],
    ['1 + 1 == 2 && 2 * 2 == 4', true],
    ['true ? 1 : 2', 1n],
    ['false ? 1 : true ? 2 : 3', 2n],
    ['1 in [1, 2] && !(3 in [1, 2])', true],
    ["'b' in {'a': 1, 'b': 2}", true],
    ['[1, 2, 3][1]', 2n],
    ["{'a': {'b': 5}}.a.b", 5n],
    ["{'a': [dyn(1), {'c': 'x'}]}['a'][1].c", 'x'],
    ['[1,2,][0]', 1n],
    ["{'k': 1,}.k", 1n],
    ['[].size()', 0n],
    ['{}.size()', 0n],
  ])('%s', (expression, expected) => expectValue(expression, expected));
});

describe('integer, uint and double arithmetic', () => {
  it.each<[string, unknown]>([
    ['7 / 2', 3n],
    ['-7 / 2', -3n],
    ['-7 % 3', -1n],
    ['7u / 2u', { uint: 3n }],
    ['7u % 4u', { uint: 3n }],
    ['3u - 2u', { uint: 1n }],
    ['7.0 / 2.0', 3.5],
    ['1.0 / 0.0', Infinity],
    ['-1.0 / 0.0', -Infinity],
    ['0.1 + 0.2', 0.30000000000000004],
    ['-9223372036854775807 - 1', -9223372036854775808n],
    ['9223372036854775806 + 1', 9223372036854775807n],
  ])('%s', (expression, expected) => expectValue(expression, expected));

  it.each<[string, string]>([
    ['9223372036854775807 + 1', 'integer overflow'],
    ['-9223372036854775808 - 1', 'integer overflow'],
    ['-(-9223372036854775808)', 'integer overflow'],
    ['4611686018427387904 * 2', 'integer overflow'],
    ['-9223372036854775808 / -1', 'integer overflow'],
    ['-9223372036854775808 % -1', 'integer overflow'],
    ['1 / 0', 'division by zero'],
    ['1 % 0', 'modulus by zero'],
    ['1u / 0u', 'division by zero'],
    ['0u - 1u', 'unsigned integer overflow'],
    ['18446744073709551615u + 1u', 'unsigned integer overflow'],
    ['1 + 1u', "found no matching overload for '_+_' applied to '(int, uint)'"],
    ['1 + 1.0', "found no matching overload for '_+_' applied to '(int, double)'"],
    ["1 + 'a'", "found no matching overload for '_+_' applied to '(int, string)'"],
    ['-1u', "found no matching overload for '-_' applied to '(uint)'"],
    ['5.0 % 2.0', "found no matching overload for '_%_' applied to '(double, double)'"],
    ['dyn(1) + dyn(1u)', 'no such overload'],
  ])('%s fails with %s', (expression, fragment) => expectError(expression, fragment));
});

describe('equality and ordering', () => {
  it.each<string>([
    '1 == 1',
    'dyn(1) == 1u',
    'dyn(1) == 1.0',
    'dyn(1u) == 1.0',
    "dyn(1) != 'a'",
    'dyn(null) != 0',
    '[1, 2] == [1, 2]',
    '[1, 2] != [2, 1]',
    "{'a': 1, 'b': 2} == {'b': 2, 'a': 1}",
    "{'a': 1} != {'a': 2}",
    "dyn({'a': 1}) != {'a': 1, 'b': 2}",
    '[[1], [2]] == [[1], [2]]',
    'dyn([1]) == [1.0]',
    "b'abc' == b'abc'",
    'null == null',
    '0.0 / 0.0 != 0.0 / 0.0',
    '1 < 2.5',
    '2.5 > 1',
    '1u < 2',
    '-1 < 1u',
    '9223372036854775807 < 18446744073709551615u',
    "'a' < 'b'",
    "'abc' < 'abd'",
    "'a' < 'aa'",
    "'\uffff' < '👑'",
    "b'a' < b'b'",
    'false < true',
    '1 <= 1 && 1 >= 1',
    '!(0.0 / 0.0 < 1.0) && !(0.0 / 0.0 >= 1.0)',
    "{1: 'int key'}[dyn(1u)] == 'int key'",
    "{1: 'int key'}[dyn(1.0)] == 'int key'",
    'dyn(1.0) in [1, 2]',
    "duration('1s') < duration('2s')",
    "timestamp('2020-01-01T00:00:00Z') < timestamp('2021-01-01T00:00:00Z')",
  ])('%s', (expression) => expectValue(expression, true));

  it.each<[string, string]>([
    ["1 == 'a'", "found no matching overload for '_==_' applied to '(int, string)'"],
    ["'a' < 1", "found no matching overload for '_<_' applied to '(string, int)'"],
    ['[1] < [2]', "found no matching overload for '_<_'"],
    ["dyn('a') < 1", 'no such overload'],
    ["{'a': 1}['b']", 'no such key: b'],
    ['[1, 2][2]', 'index out of bounds: 2'],
    ['[1, 2][-1]', 'index out of bounds: -1'],
    ['[1][dyn(0.5)]', 'unsupported index value'],
    ['{1: 2, 1: 3}', 'repeated key'],
    ['{1.5: 2}', 'unsupported key type'],
  ])('%s fails with %s', (expression, fragment) => expectError(expression, fragment));
});

describe('logical operators absorb errors commutatively', () => {
  it.each<[string, unknown]>([
    ['1 / 0 == 1 || true', true],
    ['true || 1 / 0 == 1', true],
    ['1 / 0 == 1 && false', false],
    ['false && 1 / 0 == 1', false],
    ["{'a': 1}.b == 1 || {'a': 1}.a == 1", true],
    ['dyn(1) && false', false],
    ['false ? 1 / 0 : 2', 2n],
    ['true ? 2 : 1 / 0', 2n],
  ])('%s', (expression, expected) => expectValue(expression, expected));

  it.each<[string, string]>([
    ['1 / 0 == 1 || false', 'division by zero'],
    ['false || 1 / 0 == 1', 'division by zero'],
    ['true && 1 / 0 == 1', 'division by zero'],
    ['1 / 0 == 1 && 1 % 0 == 1', 'division by zero'],
    ['dyn(1) || false', 'no such overload'],
    ['dyn(1) ? 1 : 2', 'no such overload'],
  ])('%s fails with %s', (expression, fragment) => expectError(expression, fragment));
});

describe('has() and field selection', () => {
  const vars = { obj: { a: { b: 1 }, n: null } };
  it.each<[string, unknown]>([
    ['has(obj.a)', true],
    ['has(obj.a.b)', true],
    ['has(obj.z)', false],
    ['has(obj.n)', true],
    ['obj.a.b', 1n],
    ["has({'x': 1}.x)", true],
  ])('%s', (expression, expected) => expectValue(expression, expected, vars));

  it.each<[string, string]>([
    ['obj.z', 'no such key: z'],
    ['has(obj.z.y)', 'no such key: z'],
    ['has(obj)', 'invalid argument to has() macro'],
    ["has(obj['a'])", 'invalid argument to has() macro'],
    ['obj.a.b.c', 'no such overload'],
    ['undeclared', "undeclared reference to 'undeclared' (in container '')"],
    ['nosuchfn(1)', "undeclared reference to 'nosuchfn'"],
  ])('%s fails with %s', (expression, fragment) => expectError(expression, fragment, vars));
});

describe('comprehension macros', () => {
  const vars = { list: [1, 2, 3, 4], m: { a: 1, b: 2 }, objs: [{ k: 'x' }, { k: 'y', v: 'z' }] };
  it.each<[string, unknown]>([
    ['list.all(x, x > 0)', true],
    ['list.all(x, x > 1)', false],
    ['list.exists(x, x == 3)', true],
    ['list.exists(x, x > 10)', false],
    ['list.exists_one(x, x > 3)', true],
    ['list.existsOne(x, x > 2)', false],
    ['list.map(x, x * x)', [1n, 4n, 9n, 16n]],
    ['list.map(x, x % 2 == 0, x * 10)', [20n, 40n]],
    ['list.filter(x, x % 2 == 1)', [1n, 3n]],
    ['m.all(k, m[k] > 0)', true],
    ['m.map(k, k + "!")', ['a!', 'b!']],
    ['m.filter(k, m[k] > 1)', ['b']],
    ['list.all(i, x, x == i + 1)', true],
    ['list.exists(i, x, i == 3 && x == 4)', true],
    ['list.existsOne(i, x, x > 3)', true],
    ['m.all(k, v, v > 0 && k != "")', true],
    ['list.transformList(i, x, x * i)', [0n, 2n, 6n, 12n]],
    ['list.transformList(i, x, i < 2, x)', [1n, 2n]],
    ['m.transformMap(k, v, v * 10)', { a: 10n, b: 20n }],
    ['m.transformMap(k, v, v > 1, v)', { b: 2n }],
    ['m.transformMapEntry(k, v, {k + k: v})', { aa: 1n, bb: 2n }],
    ['[3, 1, 2].sortBy(x, x)', [1n, 2n, 3n]],
    ['[-3, 1, -5, -2, 4].sortBy(e, -(e * e))', [-5n, 4n, -3n, -2n, 1n]],
    ['list.map(x, list.filter(y, y < x).size())', [0n, 1n, 2n, 3n]],
    [
      '[1, 2].map(x, [3, 4].map(y, x * y))',
      [
        [3n, 4n],
        [6n, 8n],
      ],
    ],
    ["objs.exists(o, o.v == 'z')", true],
    ["!objs.all(o, o.v != 'z')", true],
    ['[].all(x, x)', true],
    ['[].exists(x, x)', false],
  ])('%s', (expression, expected) => expectValue(expression, expected, vars));

  it.each<[string, string]>([
    ["objs.all(o, o.v == 'z')", 'no such key: v'],
    ["objs.exists_one(o, o.v == 'z')", 'no such key: v'],
    ["objs.filter(o, o.v == 'z')", 'no such key: v'],
    ['objs.map(o, o.v)', 'no such key: v'],
    ['list.all(1, true)', 'argument must be a simple name'],
    ['list.all(x, x)', 'no such overload'],
    ['list.all(x, 1)', "found no matching overload for '_&&_'"],
    ['1.all(x, true)', 'cannot be range of a comprehension'],
    ["m.transformMapEntry(k, v, {'same': v})", 'insert failed: key same already exists'],
    ['list.all(x, y, x == y, 1)', "undeclared reference to 'all'"],
  ])('%s fails with %s', (expression, fragment) => expectError(expression, fragment, vars));

  it('inner variables shadow outer ones', () => expectValue('[1].all(x, [2].all(x, x == 2))', true, { x: 'outer' }));
});

describe('conversions and types', () => {
  it.each<[string, unknown]>([
    ['int(1.9)', 1n],
    ['int(-1.9)', -1n],
    ["int('-42')", -42n],
    ['int(42u)', 42n],
    ["uint('42')", { uint: 42n }],
    ['uint(42)', { uint: 42n }],
    ['double(1)', 1],
    ["double('2.5e3')", 2500],
    ["double('inf')", Infinity],
    ['string(10)', '10'],
    ['string(10u)', '10'],
    ['string(10.0)', '10'],
    ['string(10.49)', '10.49'],
    ['string(1e6)', '1e+06'],
    ['string(123456.0)', '123456'],
    ['string(0.0001)', '0.0001'],
    ['string(0.00001)', '1e-05'],
    ['string(-2.5)', '-2.5'],
    ['string(true)', 'true'],
    ["string(b'abc')", 'abc'],
    ["bytes('é') == b'\\xc3\\xa9'", true],
    ["bool('true') && !bool('F')", true],
    ['type(1) == int && type(1u) == uint && type(1.0) == double', true],
    ["type('') == string && type(b'') == bytes && type(true) == bool && type(null) == null_type", true],
    ['type([]) == list && type({}) == map && type(int) == type', true],
    ["type(duration('1s')) == google.protobuf.Duration", true],
    ["type(timestamp('2020-01-01T00:00:00Z')) == google.protobuf.Timestamp", true],
    ['type(dyn(1)) == int', true],
    ['[dyn(1), "a"].size()', 2n],
    ['type(optional.none()) == optional_type', true],
  ])('%s', (expression, expected) => expectValue(expression, expected));

  it.each<[string, string]>([
    ['int(9.3e18)', 'integer overflow'],
    ["int(double('nan'))", 'integer overflow'],
    ['uint(-1)', 'unsigned integer overflow'],
    ['uint(-1.0)', 'unsigned integer overflow'],
    ['int(18446744073709551615u)', 'integer overflow'],
    ["int('1.5')", "type conversion error from 'string' to 'int'"],
    ["int('99999999999999999999')", "type conversion error from 'string' to 'int'"],
    ["double('abc')", "type conversion error from 'string' to 'double'"],
    ["bool('yes')", "type conversion error from 'string' to 'bool'"],
    ["string(b'\\xff')", 'invalid UTF-8'],
    ['int([1])', "found no matching overload for 'int' applied to '(list(int))'"],
    ['dyn([1, "a"])', "ERROR: <input>:1:9: expected type 'int' but found 'string'"],
    ["{'a': 1, 'b': 'x'}", "expected type 'int' but found 'string'"],
  ])('%s fails with %s', (expression, fragment) => expectError(expression, fragment));
});

describe('variables', () => {
  it('maps plain JS values to CEL values', () => {
    expectValue('a + 1 == 3 && b == 2.5 && c == "x" && d[1] == 2 && e.f == true && g == null', true, {
      a: 2,
      b: 2.5,
      c: 'x',
      d: [1, 2],
      e: { f: true },
      g: null,
    });
    expectValue('x', 9007199254740993n, { x: 9007199254740993n });
  });
});

describe('cost limit', () => {
  it('stops runaway comprehensions', () => {
    const big = Array.from({ length: 200 }, (_, i) => i);
    expectError('l.all(a, l.all(b, l.all(c, a + b + c >= 0)))', 'operation cancelled: actual cost limit exceeded', { l: big });
  });
  it('is not absorbed by || or exists', () => {
    const big = Array.from({ length: 200 }, (_, i) => i);
    expectError('true && (l.exists(a, l.exists(b, l.exists(c, a + b + c < 0))) || true)', 'actual cost limit exceeded', { l: big });
  });
  it('charges lists.range before allocating', () => expectError('lists.range(100000000).size() > 0', 'actual cost limit exceeded'));
  it('charges string growth before allocating', () => {
    const s = 'x'.repeat(100_000);
    expectError("s.replace('', s).size() > 0", 'actual cost limit exceeded', { s });
    expectError('lists.range(100).map(i, s + s).size() > 0', 'actual cost limit exceeded', { s });
    expectValue('(s + s).size()', 200_000n, { s });
  });
});
