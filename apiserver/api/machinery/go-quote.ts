/** Go's strconv.Quote (and the %q verb), which Kubernetes' messages and CEL's strings.quote use. */

/** goQuote renders a string as Go's strconv.Quote does (used by strings.quote and %q-style text). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    out += quoteChar(ch, cp);
  }
  return `${out}"`;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
};

function quoteChar(ch: string, cp: number): string {
  const simple = SIMPLE_ESCAPES[ch];
  if (simple !== undefined) return simple;
  if (cp < 0x20 || cp === 0x7f) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp >= 0xd800 && cp <= 0xdfff) return '\\ufffd';
  return ch;
}
