/** What wget and curl share: connect to a URL's host and port and make one HTTP request. */

import { exchange, type HttpResponse, type Url } from '../../net/http-client.js';
import { openTcp, type TcpOutcome } from '../../net/tcp.js';
import type { ProgramContext } from '../../process.js';

export interface FetchRequest {
  readonly url: Url;
  readonly method: string;
  /** Header lines after Host, in order. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body?: string;
  /** The client's own timeout in ms (undefined: none). */
  readonly timeoutMs?: number;
}

export type FetchOutcome =
  | Exclude<TcpOutcome, { kind: 'connected' }>
  | { readonly kind: 'response'; readonly ip: string; readonly response: HttpResponse; readonly request: string }
  | { readonly kind: 'no-response'; readonly ip: string }
  /** The connection was made but the client's timeout ran out before the response came. */
  | { readonly kind: 'read-timeout'; readonly ip: string }
  | { readonly kind: 'tls'; readonly ip: string };

/** requestText: the request's bytes as the client sends them. */
export function requestText(request: FetchRequest): string {
  const lines = [`${request.method} ${request.url.path} HTTP/1.1`, `Host: ${request.url.authority}`, ...request.headers.map(([k, v]) => `${k}: ${v}`)];
  if (request.body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(request.body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${request.body ?? ''}`;
}

/** What a client says along the way: the address it connects to, and the connection made. */
export interface FetchHooks {
  readonly resolved?: (ip: string) => void;
  readonly connected?: (ip: string) => void;
}

/** fetchUrl connects and exchanges one request. */
export async function fetchUrl(context: ProgramContext, request: FetchRequest, hooks: FetchHooks = {}): Promise<FetchOutcome> {
  const started = context.container.clock.now();
  const { url, timeoutMs } = request;
  const opened = await openTcp(context.container, url.host, url.port, { timeoutMs, signal: context.signal, onResolved: hooks.resolved });
  if (opened.kind !== 'connected') return opened;
  hooks.connected?.(opened.ip);
  // The simulated servers speak plain HTTP: a TLS client gets no handshake from them.
  if (request.url.scheme === 'https') {
    opened.connection.end();
    return { kind: 'tls', ip: opened.ip };
  }
  const text = requestText(request);
  const stop = new AbortController();
  const signal = AbortSignal.any([context.signal, stop.signal]);
  const left = request.timeoutMs === undefined ? undefined : request.timeoutMs - (context.container.clock.now() - started);
  const timer =
    left === undefined
      ? undefined
      : context.container.clock.sleep(Math.max(0, left), signal).then(
          () => 'timeout' as const,
          () => undefined,
        );
  const response = await Promise.race([exchange(opened.connection, text, request.method === 'HEAD', signal), ...(timer ? [timer] : [])]);
  stop.abort();
  if (response === 'timeout') return { kind: 'read-timeout', ip: opened.ip };
  return response ? { kind: 'response', ip: opened.ip, response, request: text } : { kind: 'no-response', ip: opened.ip };
}
