/**
 * `pattern` keywords are Go (RE2) regular expressions. compileGoRegexp translates the RE2
 * spellings JavaScript lacks (leading `(?i)` flags, `(?P<name>`, `\A`, `\z`, POSIX classes),
 * rejects what RE2 rejects (lookaround, backreferences) and words compile errors as Go's
 * regexp package (`error parsing regexp: missing argument to repetition operator: `+``).
 */

const POSIX_CLASSES: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

const cache = new Map<string, RegExp | string>();

/** compileGoRegexp returns the compiled pattern, or Go's error message when it is invalid. */
export function compileGoRegexp(pattern: string): RegExp | string {
  let compiled = cache.get(pattern);
  if (compiled === undefined) {
    compiled = compile(pattern);
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, compiled);
  }
  return compiled;
}

function compile(pattern: string): RegExp | string {
  const translated = translate(pattern);
  if (typeof translated === 'string') return `error parsing regexp: ${translated}`;
  for (const unicode of [true, false]) {
    try {
      return new RegExp(translated.source, translated.flags + (unicode ? 'u' : ''));
    } catch (err) {
      if (!unicode) return `error parsing regexp: ${goMessage(pattern, (err as Error).message)}`;
    }
  }
  return 'error parsing regexp: invalid pattern';
}

/** translate rewrites RE2-only syntax, or returns Go's complaint about unsupported syntax.
 * Flag groups (`(?i)`, `(?i:...)`) apply to the whole pattern: JavaScript has no scoped flags. */
function translate(pattern: string): { source: string; flags: string } | string {
  const flags = new Set<string>();
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const rest = pattern.slice(i);
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next)) return `invalid escape sequence: \`\\${next}\``;
      out += next === 'A' ? '^' : next === 'z' ? '$' : `\\${next}`;
      i++;
    } else if (inClass && rest.startsWith('[:')) {
      const end = pattern.indexOf(':]', i + 2);
      const name = end > 0 ? pattern.slice(i + 2, end) : '';
      const chars = POSIX_CLASSES[name];
      if (chars === undefined) return `invalid character class range: \`${pattern.slice(i, end + 2)}\``;
      out += chars;
      i = end + 1;
    } else if (c === '[' && !inClass) {
      inClass = true;
      out += c;
      if (pattern[i + 1] === '^') out += pattern[++i];
      if (pattern[i + 1] === ']') out += `\\${pattern[++i]}`;
    } else if (c === ']' && inClass) {
      inClass = false;
      out += c;
    } else if (c === '(' && !inClass && pattern[i + 1] === '?') {
      const unsupported = /^\(\?(=|!|<=|<!)/.exec(rest);
      if (unsupported) return `invalid or unsupported Perl syntax: \`${unsupported[0].slice(0, 3)}\``;
      const flagGroup = /^\(\?([imsU]*)(?:-[imsU]*)?([:)])/.exec(rest);
      if (flagGroup && (flagGroup[1] || flagGroup[0].includes('-'))) {
        for (const flag of flagGroup[1]!) if (flag !== 'U') flags.add(flag);
        if (flagGroup[2] === ':') out += '(?:';
        i += flagGroup[0].length - 1;
      } else if (rest.startsWith('(?P<')) {
        out += '(?<';
        i += 3;
      } else {
        out += c;
      }
    } else {
      out += c;
    }
  }
  return { source: out, flags: [...flags].join('') };
}

/** goMessage maps a JavaScript RegExp SyntaxError onto the wording of Go's regexp/syntax. */
function goMessage(pattern: string, jsMessage: string): string {
  const reason = jsMessage.slice(jsMessage.lastIndexOf(': ') + 2);
  const nested = /(?:[*+?]|\{\d+(?:,\d*)?\})(?:[*+]|\{\d+(?:,\d*)?\})/.exec(pattern);
  if (/nothing to repeat/i.test(reason) && nested) return `invalid nested repetition operator: \`${nested[0]}\``;
  if (/numbers out of order/i.test(reason)) return `invalid repeat count: \`${/\{\d+(?:,\d*)?\}/.exec(pattern)?.[0] ?? pattern}\``;
  if (/nothing to repeat/i.test(reason)) {
    const op = /(?:^|[(|])([*+?]|\{\d+(?:,\d*)?\})/.exec(pattern)?.[1] ?? pattern;
    return `missing argument to repetition operator: \`${op}\``;
  }
  if (/unterminated group/i.test(reason)) return `missing closing ): \`${pattern}\``;
  if (/unmatched '\)'/i.test(reason)) return `unexpected ): \`${pattern}\``;
  if (/unterminated character class/i.test(reason)) return `missing closing ]: \`${pattern.slice(pattern.indexOf('['))}\``;
  if (/range out of order/i.test(reason)) {
    const range = [...pattern.matchAll(/([^\\])-([^\]])/g)].find((m) => m[1]! > m[2]!)?.[0] ?? pattern;
    return `invalid character class range: \`${range}\``;
  }
  if (/escape/i.test(reason)) return `invalid escape sequence: \`${pattern}\``;
  return reason;
}
