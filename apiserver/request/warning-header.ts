/**
 * The Warning response header as kube-apiserver writes it: `299 - "<text>"`, the text quoted
 * with `\` and `"` escaped and control characters dropped, and non-ASCII text sent as UTF-8
 * bytes. Node refuses header values with characters past U+00FF (it writes Latin-1), so the
 * UTF-8 bytes are handed over one character per byte: clients read them back as UTF-8, as they
 * do from kube-apiserver. Encoding never throws, so a write can never be committed and then
 * fail while its answer is being written.
 */

/** MAX_WARNING_BYTES caps one warning's text, as kube-apiserver truncates long warnings. */
export const MAX_WARNING_BYTES = 4096;

/** warningHeaderValue renders one warning as the value of a Warning header. */
export function warningHeaderValue(text: string): string {
  let quoted = '"';
  for (const char of truncateUtf8(text, MAX_WARNING_BYTES)) {
    const code = char.codePointAt(0)!;
    if (char === '\\' || char === '"') quoted += `\\${char}`;
    else if ((code < 0x20 && char !== '\t') || code === 0x7f) continue;
    else quoted += char;
  }
  quoted += '"';
  return `299 - ${Buffer.from(quoted, 'utf8').toString('latin1')}`;
}

function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  let out = '';
  let bytes = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(char, 'utf8');
    if (bytes > maxBytes) break;
    out += char;
  }
  return out;
}
