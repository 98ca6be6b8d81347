/**
 * fetch, with a kubeconfig's CA and client certificate. The platform's fetch cannot be given
 * either without a dependency (undici's Agent), so an https request that needs them goes
 * through node:https and its answer comes back as a standard Response, streamed: a watch's
 * body reads the same either way. Anything else is the platform's fetch.
 */
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { type ClientTls, httpsAgentOptions } from './http-transport.js';

/** TlsFetchInit is RequestInit limited to what the callers send, plus the TLS material. */
export interface TlsFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
  tls?: ClientTls;
  /** A bearer token, sent as the Authorization header. */
  token?: string;
}

/** fetchWithTls sends one request (see the module comment). */
export async function fetchWithTls(url: string, init: TlsFetchInit = {}): Promise<Response> {
  const headers = init.token ? { ...init.headers, Authorization: `Bearer ${init.token}` } : { ...init.headers };
  if (!url.startsWith('https:') || !init.tls) return fetch(url, { method: init.method, headers, body: init.body, signal: init.signal });
  return new Promise((resolve, reject) => {
    // NOTE: a connection of its own (agent: false). The shared agent pools connections by host
    // and port but not by secure context, so a request could go out on another certificate's
    // kept-alive connection, as another user.
    const options = { method: init.method ?? 'GET', headers, signal: init.signal, agent: false, ...httpsAgentOptions(init.tls) };
    const request = httpsRequest(url, options, (response) => {
      const status = response.statusCode ?? 0;
      const answerHeaders = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) answerHeaders.append(name, one);
      }
      // A Response for 204/304 must have no body.
      const body = status === 204 || status === 304 ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>);
      resolve(new Response(body, { status, statusText: response.statusMessage, headers: answerHeaders }));
    });
    request.on('error', reject);
    request.end(init.body);
  });
}
