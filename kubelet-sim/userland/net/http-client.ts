/** A small HTTP/1.1 client over a UserlandConnection, for wget and curl: it sends one request
 * and reads one response (its head, then Content-Length bytes, or up to the server's close). */
import type { UserlandConnection } from '../contract.js';
import { textOf } from '../shell/streams.js';
import { bytesOf, concat } from '../vfs.js';

export interface Url {
  readonly scheme: 'http' | 'https';
  readonly host: string;
  readonly port: number;
  /** Path and query, starting with `/`. */
  readonly path: string;
  /** host, or host:port when the port is not the scheme's. */
  readonly authority: string;
}

/** parseUrl reads `http://host[:port][/path]` (no scheme means http); undefined when it is not one. */
export function parseUrl(text: string): Url | undefined {
  const match = /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):\/\/)?([^/:?#\s]+)(?::(\d+))?([/?][^#\s]*)?(?:#.*)?$/.exec(text);
  if (!match) return undefined;
  const scheme = (match[1] ?? 'http').toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return undefined;
  const defaultPort = scheme === 'https' ? 443 : 80;
  const port = match[3] ? Number(match[3]) : defaultPort;
  const host = match[2]!;
  let path = match[4] ?? '/';
  if (path.startsWith('?')) path = `/${path}`;
  return { scheme, host, port, path, authority: port === defaultPort ? host : `${host}:${port}` };
}

export interface HttpResponse {
  /** The status line, e.g. `HTTP/1.1 200 OK`. */
  readonly statusLine: string;
  readonly status: number;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: Uint8Array;
}

/** exchange sends `request` and resolves to the response, or undefined when the connection
 * ends (or the signal aborts) before a whole response came. */
export function exchange(connection: UserlandConnection, request: string | Uint8Array, head: boolean, signal: AbortSignal): Promise<HttpResponse | undefined> {
  return new Promise((resolve) => {
    let buffer: Uint8Array = new Uint8Array(0);
    let done = false;
    const finish = (response: HttpResponse | undefined) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      connection.end();
      resolve(response);
    };
    const onAbort = () => finish(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    const complete = (ended: boolean): HttpResponse | undefined => {
      const text = textOf(buffer);
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return undefined;
      const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
      const headers = lines.map((line): [string, string] => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]);
      const bodyStart = bytesOf(text.slice(0, end + 4)).length;
      const length = headers.find(([name]) => name.toLowerCase() === 'content-length')?.[1];
      const wanted = head ? 0 : length !== undefined ? Number(length) : undefined;
      if (wanted === undefined && !ended) return undefined;
      if (wanted !== undefined && buffer.length - bodyStart < wanted) return undefined;
      const body = buffer.subarray(bodyStart, wanted === undefined ? buffer.length : bodyStart + wanted);
      return { statusLine, status: Number(statusLine.split(' ')[1] ?? 0), headers, body };
    };
    connection.onData((data) => {
      buffer = concat(buffer, data);
      const response = complete(false);
      if (response) finish(response);
    });
    connection.onEnd(() => finish(complete(true)));
    connection.write(bytesOf(request));
  });
}
