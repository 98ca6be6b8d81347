/**
 * PEM blocks (RFC 7468) as Go's encoding/pem reads them: `-----BEGIN TYPE-----`, optional
 * `Key: value` headers, base64 body, `-----END TYPE-----`; text around blocks is ignored.
 */

export interface PemBlock {
  type: string;
  headers: Record<string, string>;
  bytes: Buffer;
}

const BLOCK = /-----BEGIN ([^-\r\n]*)-----\r?\n([\s\S]*?)-----END \1-----/g;

/** decodePemBlocks returns every well-formed block of `text`, in order. */
export function decodePemBlocks(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  for (const match of text.matchAll(BLOCK)) {
    const block = parseBody(match[1]!, match[2]!);
    if (block) blocks.push(block);
  }
  return blocks;
}

function parseBody(type: string, body: string): PemBlock | undefined {
  const lines = body.split(/\r?\n/);
  const headers: Record<string, string> = {};
  let index = 0;
  for (; index < lines.length; index++) {
    const header = /^([^:\s]+):\s*(.*)$/.exec(lines[index]!);
    if (!header) break;
    headers[header[1]!] = header[2]!;
  }
  // A blank line ends the headers, when there are some.
  if (Object.keys(headers).length > 0 && lines[index]?.trim() === '') index++;
  const base64 = lines.slice(index).join('').replace(/\s/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return undefined;
  return { type, headers, bytes: Buffer.from(base64, 'base64') };
}

/** encodePem writes one block, 64 base64 characters a line. */
export function encodePem(type: string, bytes: Uint8Array): string {
  const base64 = Buffer.from(bytes).toString('base64');
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${type}-----\n${lines.join('\n')}\n-----END ${type}-----\n`;
}
