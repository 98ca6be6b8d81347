/**
 * A raw client of the streaming endpoints for tests that look at the wire itself: a WebSocket
 * with chosen subprotocols (frames collected per channel), or an upgrade request whose
 * refusal is read back as status and body.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import WebSocket from 'ws';
import { credentialsFor } from '../support/http.js';

/** What one WebSocket session received. */
export interface StreamSession {
  protocol: string;
  /** Every data message in order, decoded to its channel and bytes. */
  messages: Array<{ channel: number; data: Buffer }>;
  /** The concatenated text of one channel. */
  text(channel: number): string;
  /** Sends bytes on a channel (binary framing). */
  send(channel: number, data: string | Buffer): void;
  /** Resolves with the close code once the server closed the socket. */
  closed: Promise<number>;
}

/** openStream upgrades `path` on the cluster to a WebSocket offering `protocols`; rejects
 * with the refusal (status and body) when the server does not switch protocols. */
export function openStream(base: string, path: string, protocols: string[], headers: Record<string, string> = {}): Promise<StreamSession> {
  const tls = credentialsFor(base);
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}${path}`, protocols, { headers, ca: tls?.ca, cert: tls?.cert, key: tls?.key });
  const messages: StreamSession['messages'] = [];
  const base64 = () => ws.protocol.includes('base64.');
  ws.on('message', (raw: Buffer, isBinary) => {
    if (raw.length === 0) return;
    if (base64() && !isBinary) messages.push({ channel: raw[0]! - 48, data: Buffer.from(raw.subarray(1).toString('latin1'), 'base64') });
    else messages.push({ channel: raw[0]!, data: raw.subarray(1) });
  });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => reject(new UpgradeRefused(res.statusCode ?? 0, res.headers['content-type'] ?? '', body, res.headers['audit-id'])));
    });
    ws.on('error', reject);
    ws.on('open', () =>
      resolve({
        protocol: ws.protocol,
        messages,
        text: (channel) => Buffer.concat(messages.filter((m) => m.channel === channel).map((m) => m.data)).toString('utf8'),
        send: (channel, data) => ws.send(Buffer.concat([Buffer.of(channel), Buffer.from(data)])),
        closed,
      }),
    );
  });
}

/** The server's answer to an upgrade it did not perform. */
export class UpgradeRefused extends Error {
  constructor(
    readonly status: number,
    readonly contentType: string,
    readonly body: string,
    /** The Audit-Id header of the answer. */
    readonly auditId?: string | string[],
  ) {
    super(`upgrade refused: ${status} ${body}`);
  }

  json(): any {
    return JSON.parse(this.body);
  }
}

/** refusalOf opens a stream expected to be refused and returns the refusal. */
export async function refusalOf(base: string, path: string, protocols: string[], headers: Record<string, string> = {}): Promise<UpgradeRefused> {
  try {
    const session = await openStream(base, path, protocols, headers);
    throw new Error(`the server switched protocols to ${session.protocol}`);
  } catch (err) {
    if (err instanceof UpgradeRefused) return err;
    throw err;
  }
}

/** rawUpgrade sends an upgrade request with arbitrary headers (an SPDY client's) and returns
 * the answer; fails if the server switches protocols or closes without answering. */
export function rawUpgrade(base: string, path: string, method: string, headers: Record<string, string>): Promise<UpgradeRefused> {
  const tls = credentialsFor(base);
  const url = new URL(path, base);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method, headers: { Connection: 'Upgrade', ...headers }, ca: tls?.ca, cert: tls?.cert, key: tls?.key });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      reject(new Error('the server switched protocols'));
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve(new UpgradeRefused(res.statusCode ?? 0, res.headers['content-type'] ?? '', body, res.headers['audit-id'])));
    });
    req.on('error', reject);
    req.end();
  });
}
