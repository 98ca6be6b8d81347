import { describe, it } from 'vitest';
import { expectError, expectValue } from './testing/expect-cel.js';

describe('strings', () => {
  const s = 'Rook takes 👑';
  it.each<[string, unknown]>([
    ['size(s)', 12n],
    ['s.size()', 12n],
    ["s.startsWith('Rook') && s.endsWith('👑') && s.contains('takes')", true],
    ['s.charAt(3)', 'k'],
    ['s.charAt(11)', '👑'],
    ['s.charAt(12)', ''],
    ["s.indexOf('o')", 1n],
    ["s.indexOf('o', 2)", 2n],
    ["s.indexOf('👑')", 11n],
    ["s.indexOf('')", 0n],
    ["s.indexOf('x')", -1n],
    ["s.lastIndexOf('o')", 2n],
    ["s.lastIndexOf('o', 1)", 1n],
    ["s.lastIndexOf('')", 12n],
    ["s.replace(' ', 'x')", 'Rookxtakesx👑'],
    ["s.replace(' ', 'x', 1)", 'Rookxtakes 👑'],
    ["'abc'.replace('', '-')", '-a-b-c-'],
    ["s.split(' ')", ['Rook', 'takes', '👑']],
    ["s.split(' ', 2)", ['Rook', 'takes 👑']],
    ["s.split(' ', 0)", []],
    ["'a👑b'.split('')", ['a', '👑', 'b']],
    ['s.substring(5)', 'takes 👑'],
    ['s.substring(0, 4)', 'Rook'],
    ['s.substring(11, 12)', '👑'],
    ["'  \\t x \\n'.trim()", 'x'],
    ['s.upperAscii()', 'ROOK TAKES 👑'],
    ["'ÀB'.lowerAscii()", 'Àb'],
    ["['a', 'b', 'c'].join('-')", 'a-b-c'],
    ["['a', 'b'].join()", 'ab'],
    ["[].join(',')", ''],
    ["strings.quote('a\"b\\n')", '"a\\"b\\n"'],
    ["'%d %s %f %s %s'.format([1, 'abc', 1.0, duration('1m'), timestamp('2000-01-01T00:00:00.000Z')])", '1 abc 1.000000 60s 2000-01-01T00:00:00Z'],
    ["'%.2f|%e|%x|%X|%o|%b|%%'.format([3.14159, 3.14, 255, 'hi', 8, 5])", '3.14|3.140000×10⁰⁰|ff|6869|10|101|%'],
    ["'%s %s %s'.format([[1, 'a'], null, true])", '[1, "a"] null true'],
  ])('%s', (expression, expected) => expectValue(expression, expected, { s }));

  it.each<[string, string]>([
    ['s.charAt(13)', 'index out of range: 13'],
    ['s.charAt(-1)', 'index out of range: -1'],
    ["s.indexOf('o', 20)", 'index out of range: 20'],
    ['s.substring(13)', 'index out of range: 13'],
    ['s.substring(4, 2)', 'invalid substring range. start: 4, end: 2'],
    ["'%d'.format(['x'])", 'error during formatting'],
    ["'%d %d'.format([1])", 'error during formatting'],
    ["'%q'.format([1])", 'unrecognized formatting clause'],
    ["'abc'.startsWith(1)", "found no matching overload for 'startsWith' applied to 'string.(int)'"],
    ['s.startsWith(1)', "found no matching overload for 'startsWith' applied to 'dyn.(int)'"],
    ["dyn('abc').startsWith(dyn(1))", 'no such overload'],
  ])('%s fails with %s', (expression, fragment) => expectError(expression, fragment, { s }));
});

describe('regular expressions', () => {
  it.each<[string, unknown]>([
    ["'hello'.matches('^h.*o$')", true],
    ["'hello'.matches('ell')", true],
    ["matches('hello', 'x')", false],
    ["'abc123'.matches('[[:alpha:]]+[[:digit:]]+')", true],
    ["'ABC'.matches('(?i)abc')", true],
    ["'a.b'.matches('a\\\\.b') && !'axb'.matches('a\\\\.b')", true],
    ["'x-y'.matches('^x\\\\-y$')", true],
    ["'Ωmega'.matches('^\\\\pL+$')", true],
    ["'ab'.matches('\\\\Aab\\\\z') && !'ab\\n'.matches('\\\\Aab\\\\z')", true],
    ["'50%'.matches(r'(\\d+(\\.\\d+)?%)')", true],
    ["'👑'.matches('^.$')", true],
    ["'a{b'.matches('a{b')", true],
    ["'abc 123 def 456'.find('[0-9]+')", '123'],
    ["'abc'.find('[0-9]+')", ''],
    ["'abc 123 def 456'.findAll('[0-9]+')", ['123', '456']],
    ["'abc 123 def 456'.findAll('[0-9]+', 1)", ['123']],
    ["'(?P<year>\\\\d{4})'.size() > 0 && '2024'.matches('(?P<year>\\\\d{4})')", true],
  ])('%s', (expression, expected) => expectValue(expression, expected));

  it.each<[string, string]>([
    ["'x'.matches(')')", 'ERROR: <input>:1:13: invalid matches argument'],
    ["'x'.matches('(?=x)')", 'invalid matches argument'],
    ["'x'.matches(p)", 'error parsing regexp'],
    ["'aa'.matches('(a)\\\\1')", 'invalid matches argument'],
    ["'x'.find(p)", 'error parsing regexp'],
  ])('%s fails with %s', (expression, fragment) => expectError(expression, fragment, { p: '[' }));
});

describe('lists and sets', () => {
  it.each<[string, unknown]>([
    ['[1, 2, 3].isSorted() && !([2, 1].isSorted()) && ["a", "b"].isSorted()', true],
    ['[1, 2, 3].sum()', 6n],
    ['[1.5, 2.5].sum()', 4],
    ['[].sum()', 0n],
    ["[duration('1s'), duration('2s')].sum() == duration('3s')", true],
    ['[3, 1, 2].min()', 1n],
    ['[3, 1, 2].max()', 3n],
    ["['b', 'a'].min()", 'a'],
    ['[1, 2, 1].indexOf(1)', 0n],
    ['[1, 2, 1].lastIndexOf(1)', 2n],
    ['[1, 2].indexOf(5)', -1n],
    ['[1, 2, 3, 4].slice(1, 3)', [2n, 3n]],
    ['[1, 2, 3, 4].slice(4, 4)', []],
    ['[[1], [2, dyn([3])]].flatten()', [1n, 2n, [3n]]],
    ['[[1], [2, dyn([3])]].flatten(2)', [1n, 2n, 3n]],
    ['[[1], [2], [3, 4]].flatten()', [1n, 2n, 3n, 4n]],
    ['[-2, 5, -2, 1, 1, 5].distinct()', [-2n, 5n, 1n]],
    ['[[1], [1], [2]].distinct()', [[1n], [2n]]],
    ['[5, 1, 2].reverse()', [2n, 1n, 5n]],
    ["['d', 'a', 'c'].sort()", ['a', 'c', 'd']],
    ['lists.range(4)', [0n, 1n, 2n, 3n]],
    ['[1, 2].first()', { optional: 1n }],
    ['[].first()', { optional: null }],
    ['[1, 2].last().value()', 2n],
    ["sets.contains(['a', 'b'], [])", true],
    ["sets.contains(['a', 'b'], ['b'])", true],
    ["sets.contains(['a', 'b'], ['c'])", false],
    ["sets.equivalent(['c', 'b', 'a'], ['b', 'c', 'a', 'a'])", true],
    ['sets.intersects([1, 2], [dyn(2.0)])', true],
    ['sets.intersects([], [])', false],
    ["sets.contains([{'a': 1}], [{'a': 1}])", true],
  ])('%s', (expression, expected) => expectValue(expression, expected));

  it.each<[string, string]>([
    ['[].min()', 'min called on empty list'],
    ['[].max()', 'max called on empty list'],
    ['[1, 2, 3, 4].slice(3, 0)', 'cannot slice(3, 0), start index must be less than or equal to end index'],
    ['[1, 2, 3, 4].slice(0, 10)', 'cannot slice(0, 10), list is length 4'],
    ['[1, 2, 3, 4].slice(-5, 10)', 'cannot slice(-5, 10), negative indexes not supported'],
    ['[[1]].flatten(-1)', 'level must be non-negative'],
    ['sets.intersects([1, 2], [2.0])', "found no matching overload for 'sets.intersects' applied to '(list(int), list(double))'"],
    ['[[1], [2, [3]]]', "expected type 'int' but found 'list(int)'"],
    ["[dyn('d'), 3].sort()", "expected type 'string' but found 'int'"],
    ['[9223372036854775807, 1].sum()', 'integer overflow'],
  ])('%s fails with %s', (expression, fragment) => expectError(expression, fragment));
});

describe('durations and timestamps', () => {
  it.each<[string, unknown]>([
    ["duration('1h2m3s4ms') == duration('1h2m') + duration('3s4ms')", true],
    ["duration('1h2m3s4ms').getHours()", 1n],
    ["duration('1h2m3s4ms').getMinutes()", 62n],
    ["duration('1h2m3s4ms').getSeconds()", 3723n],
    ["duration('1h2m3s4ms').getMilliseconds()", 3723004n],
    ["string(duration('3723.004s'))", '3723.004s'],
    ["string(duration('-1.5h'))", '-5400s'],
    ["string(duration('1ns'))", '0.000000001s'],
    ["duration('1us') == duration('1000ns') && duration('1µs') == duration('1us')", true],
    ["int(duration('1s'))", 1000000000n],
    ["-duration('1s') == duration('-1s')", true],
    ["timestamp('2011-08-18T19:03:37.010+01:00') == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')", true],
    ["timestamp('2011-08-18T19:03:37.01+01:00').getHours()", 18n],
    ["timestamp('2011-08-18T19:03:37.01+01:00').getHours('01:00')", 19n],
    ["timestamp('2011-08-18T19:03:37.01+01:00').getHours('-02:30')", 15n],
    ["timestamp('2011-08-18T19:03:37.01+01:00').getMinutes('-02:30')", 33n],
    ["timestamp('2011-08-18T19:03:37.01+01:00').getHours('America/New_York')", 14n],
    ["timestamp('2011-08-18T19:03:37.01+01:00').getMilliseconds()", 10n],
    ["timestamp('1997-07-16T00:00:00Z').getMonth()", 6n],
    ["timestamp('1997-07-16T00:00:00Z').getDate()", 16n],
    ["timestamp('1997-07-16T00:00:00Z').getDayOfMonth()", 15n],
    ["timestamp('1997-07-16T00:00:00Z').getDayOfWeek()", 3n],
    ["timestamp('1997-02-01T00:00:00Z').getDayOfYear()", 31n],
    ["timestamp('1997-07-16T00:00:00Z').getFullYear()", 1997n],
    ["timestamp('0001-01-01T00:00:00Z').getFullYear()", 1n],
    ["string(timestamp('2011-08-18T19:03:37.01+01:00'))", '2011-08-18T19:03:37.01+01:00'],
    ["string(timestamp('2011-08-18T19:03:37Z') + duration('1h'))", '2011-08-18T20:03:37Z'],
    ['string(timestamp(0))', '1970-01-01T00:00:00Z'],
    ["int(timestamp('1970-01-01T00:01:40Z'))", 100n],
    ["timestamp('2000-01-02T00:00:00Z') - timestamp('2000-01-01T00:00:00Z') == duration('24h')", true],
    ["timestamp('2000-01-01T00:00:00Z') - duration('1s') < timestamp('2000-01-01T00:00:00Z')", true],
    ["timestamp('2000-01-01T00:00:00+00:00') == timestamp('1999-12-31T23:00:00-01:00')", true],
  ])('%s', (expression, expected) => expectValue(expression, expected));

  it.each<[string, string]>([
    ["duration('1')", 'ERROR: <input>:1:10: invalid duration argument'],
    ["duration('1d')", 'invalid duration argument'],
    ["duration('1us') < duration('1nns')", 'ERROR: <input>:1:28: invalid duration argument'],
    ["timestamp('1000-00-00T00:00:00Z')", 'ERROR: <input>:1:11: invalid timestamp'],
    ["timestamp('1000-01-01T00:00:00ZZ')", 'invalid timestamp'],
    ['timestamp(-62135596801)', 'invalid timestamp'],
    ['duration(d)', "type conversion error from 'string' to 'google.protobuf.Duration'"],
    ['timestamp(t)', "type conversion error from 'string' to 'google.protobuf.Timestamp'"],
    ["timestamp('9999-12-31T23:59:59Z') + duration('1s')", 'timestamp overflow'],
    ["timestamp('2000-01-01T00:00:00Z').getHours('Nowhere/Special')", 'unknown time zone Nowhere/Special'],
    ["duration('2562047h') + duration('2562047h')", 'duration overflow'],
  ])('%s fails with %s', (expression, fragment) => expectError(expression, fragment, { d: '1x', t: '2020-13-01T00:00:00Z' }));
});

describe('optionals', () => {
  const m = { a: 1, nested: { b: 'x' } };
  it.each<[string, unknown]>([
    ['m.?a', { optional: 1n }],
    ['m.?z', { optional: null }],
    ['m.?z.orValue(5)', 5n],
    ['m.?nested.b', { optional: 'x' }],
    ['m.?missing.b', { optional: null }],
    ["m[?'a'].value()", 1n],
    ["m[?'z'].hasValue()", false],
    ['[1, 2][?5].hasValue()', false],
    ['[1, 2][?1]', { optional: 2n }],
    ['optional.of(1).value()', 1n],
    ['optional.none().or(optional.of(2)).value()', 2n],
    ['optional.of(1).or(optional.of(2)).value()', 1n],
    ['optional.ofNonZeroValue(0).hasValue() || optional.ofNonZeroValue("").hasValue()', false],
    ['optional.ofNonZeroValue([1]).hasValue()', true],
    ['[?m.?a, ?m.?z, 3]', [1n, 3n]],
    ["{?'x': m.?a, ?'y': m.?z}", { x: 1n }],
    ['m.?a.optMap(v, v * 2).value()', 2n],
    ['m.?z.optMap(v, v * 2).hasValue()', false],
    ['m.?a.optFlatMap(v, optional.none()).hasValue()', false],
    ['optional.of(1).orValue(1 / 0)', 1n],
  ])('%s', (expression, expected) => expectValue(expression, expected, { m }));

  it.each<[string, string]>([
    ['optional.none().value()', 'optional.none() dereference'],
    ['[?1]', 'no such overload'],
  ])('%s fails with %s', (expression, fragment) => expectError(expression, fragment, { m }));
});

describe('quantities', () => {
  it.each<[string, unknown]>([
    ["quantity('200M') == quantity('0.2G')", true],
    ["quantity('200M') == quantity('0.3G')", false],
    ["quantity('50M').isLessThan(quantity('50Mi'))", true],
    ["quantity('150Mi').isGreaterThan(quantity('100Mi'))", true],
    ["quantity('50Mi').compareTo(quantity('50M'))", 1n],
    ["quantity('50k').add(quantity('20')) == quantity('50.02k')", true],
    ["quantity('50k').sub(20) == quantity('49980')", true],
    ["quantity('50k').add(20).sub(quantity('100k')).sub(-50000).asInteger()", 20n],
    ["quantity('50k').asInteger()", 50000n],
    ["quantity('1.5').isInteger()", false],
    ["quantity('9999999999999999999999999999999999999G').isInteger()", false],
    ["quantity('50.703k').asApproximateFloat()", 50703],
    ["sign(quantity('-1m'))", -1n],
    ["quantity('0').sign()", 0n],
    ["isQuantity('1.3Gi') && !isQuantity('200K') && !isQuantity('Mi') && !isQuantity('.') && isQuantity('1.')", true],
    ["type(quantity('1')) == kubernetes.Quantity", true],
  ])('%s', (expression, expected) => expectValue(expression, expected));

  it.each<[string, string]>([
    ["quantity('10Mo')", 'quantities must match the regular expression'],
    ["quantity('Mi')", "unable to parse quantity's numeric value"],
    ["quantity('9999999999999999999999999999999999999G').asInteger()", 'cannot convert value to integer'],
    ["quantity('1').add('1')", "found no matching overload for 'add' applied to 'kubernetes.Quantity.(string)'"],
  ])('%s fails with %s', (expression, fragment) => expectError(expression, fragment));
});

describe('URLs', () => {
  it.each<[string, unknown]>([
    ["url('https://user@example.com:8443/a%20b/c?x=1&x=2&y=').getScheme()", 'https'],
    ["url('https://user@example.com:8443/a%20b/c?x=1&x=2&y=').getHost()", 'example.com:8443'],
    ["url('https://user@example.com:8443/a%20b/c?x=1&x=2&y=').getHostname()", 'example.com'],
    ["url('https://user@example.com:8443/a%20b/c?x=1&x=2&y=').getPort()", '8443'],
    ["url('https://user@example.com:8443/a%20b/c?x=1&x=2&y=').getEscapedPath()", '/a%20b/c'],
    ["url('https://example.com/?x=1&x=2&y=').getQuery()", { x: ['1', '2'], y: [''] }],
    ["url('https://[::1]:80/').getHostname()", '::1'],
    ["url('https://[::1]/').getPort()", ''],
    ["url('/absolute/path').getHost()", ''],
    ["isURL('https://example.com') && isURL('/path') && !isURL('example.com') && !isURL('')", true],
    ["!isURL('https://exa mple.com') && !isURL('http://x:port/')", true],
    ["url('https://a.com') == url('https://a.com')", true],
  ])('%s', (expression, expected) => expectValue(expression, expected));

  it('rejects relative URLs', () => expectError("url('relative')", 'URL parse error during conversion from string'));
});

describe('IPs and CIDRs', () => {
  it.each<[string, unknown]>([
    ["ip('192.168.0.1').family()", 4n],
    ["ip('2001:db8::1').family()", 6n],
    ["string(ip('2001:0DB8:0:0:0:0:0:1'))", '2001:db8::1'],
    ["string(ip('1:0:0:2:0:0:0:3'))", '1:0:0:2::3'],
    ["string(ip('::ffff:0:1.2.3.4'))", '::ffff:0:102:304'],
    ["ip.isCanonical('2001:db8::1') && !ip.isCanonical('2001:DB8::1')", true],
    ["isIP('1.2.3.4') && !isIP('1.2.3') && !isIP('01.2.3.4') && !isIP('fe80::1%eth0')", true],
    ["ip('127.0.0.1').isLoopback() && ip('::1').isLoopback()", true],
    ["ip('0.0.0.0').isUnspecified() && ip('::').isUnspecified()", true],
    ["ip('169.254.1.1').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast()", true],
    ["ip('224.0.0.1').isLinkLocalMulticast() && ip('ff02::1').isLinkLocalMulticast()", true],
    ["ip('8.8.8.8').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast()", true],
    ["cidr('10.0.0.0/8').containsIP('10.1.2.3') && !cidr('10.0.0.0/8').containsIP(ip('11.0.0.1'))", true],
    ["cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16') && !cidr('10.1.0.0/16').containsCIDR(cidr('10.0.0.0/8'))", true],
    ["cidr('10.1.2.3/8').masked() == cidr('10.0.0.0/8')", true],
    ["string(cidr('10.1.2.3/8').ip())", '10.1.2.3'],
    ["cidr('2001:db8::/32').prefixLength()", 32n],
    ["isCIDR('10.0.0.0/8') && !isCIDR('10.0.0.0/33') && !isCIDR('10.0.0.0')", true],
    ["string(cidr('2001:db8::/32'))", '2001:db8::/32'],
  ])('%s', (expression, expected) => expectValue(expression, expected));

  it.each<[string, string]>([
    ["ip('1.2.3')", 'parse error during conversion from string'],
    ["ip('::ffff:1.2.3.4')", 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed'],
    ["ip('fe80::1%eth0')", 'with zone value is not allowed'],
    ["cidr('10.0.0.0/99')", 'network address parse error during conversion from string'],
  ])('%s fails with %s', (expression, fragment) => expectError(expression, fragment));
});
