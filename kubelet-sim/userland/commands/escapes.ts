/** Octal and hex escapes name bytes, not characters: they are kept as code points in a private-use
 * range until bytesOfEscaped writes them out as the raw bytes they are (`printf '\377'` is 0xff). */
const RAW_BYTE_BASE = 0xf700;
const rawByte = (value: number): string => String.fromCharCode(RAW_BYTE_BASE + (value & 0xff));

/** bytesOfEscaped: text as UTF-8, with the escaped bytes as themselves. */
export function bytesOfEscaped(text: string): Uint8Array {
  const encoder = new TextEncoder();
  const parts: number[] = [];
  let run = '';
  const flush = () => {
    for (const byte of encoder.encode(run)) parts.push(byte);
    run = '';
  };
  for (const c of text) {
    const code = c.charCodeAt(0);
    if (code >= RAW_BYTE_BASE && code <= RAW_BYTE_BASE + 0xff) {
      flush();
      parts.push(code - RAW_BYTE_BASE);
    } else run += c;
  }
  flush();
  return new Uint8Array(parts);
}

/** interpretEscapes interprets backslash escapes as `echo -e` and printf's format do; `\c` stops output. */
export function interpretEscapes(text: string): { text: string; stop: boolean } {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== '\\' || i === text.length - 1) {
      out += c;
      continue;
    }
    const next = text[++i]!;
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', e: '\x1b', '\\': '\\' };
    if (next in simple) out += simple[next];
    else if (next === 'c') return { text: out, stop: true };
    else if (next === '0' || /[1-7]/.test(next)) {
      const digits = /^[0-7]{1,3}/.exec(text.slice(next === '0' ? i + 1 : i))?.[0] ?? '';
      out += rawByte(Number.parseInt(digits || '0', 8));
      i += next === '0' ? digits.length : digits.length - 1;
    } else if (next === 'x') {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 1))?.[0] ?? '';
      out += hex ? rawByte(Number.parseInt(hex, 16)) : '\\x';
      i += hex.length;
    } else out += `\\${next}`;
  }
  return { text: out, stop: false };
}
