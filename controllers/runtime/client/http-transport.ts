/**
 * HttpTransport is the one place kubesim components touch node:http: it sends requests to
 * the API server over a keep-alive agent, decodes JSON bodies, and turns every failure into
 * one of two errors — ApiError (the server answered with an error status) or NetworkError
 * (it could not be reached or the connection broke). Nothing above it sees raw sockets.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, type AgentOptions as HttpsAgentOptions, request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import { createSecureContext, type SecureContext } from 'node:tls';
import { ApiError, type StatusReason } from '../../../apiserver/api/api-error.js';
import { CAUSE_HEADER, currentCause, encodeCause } from '../../../apiserver/api/machinery/cause.js';
import { RestClientMetrics } from '../metrics/rest-client-metrics.js';
import type { Logger } from '../types.js';
import { withInProcessChannel } from './in-process-agent.js';
import { isNetworkError, NetworkError } from './network-error.js';
import { createFailoverTransport, serverList } from './server-pool.js';
import { SessionSharingAgent } from './tls-sessions.js';

export { isNetworkError, NetworkError };

/** QueryParams are query-string values; undefined ones are left out. */
export type QueryParams = Record<string, string | number | boolean | undefined>;

/** HttpRequest is one call to the API server. `body` is sent as-is with `contentType`. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: QueryParams;
  body?: string;
  contentType?: string;
  signal?: AbortSignal;
  /** Extra headers of this request alone. */
  headers?: Record<string, string>;
}

/** ClientTls is what an HTTPS client needs from a kubeconfig: the CA that signed the server's
 * certificate, and this client's certificate and key when it authenticates with one (all PEM). */
export interface ClientTls {
  ca?: string;
  cert?: string;
  key?: string;
  /** insecure-skip-tls-verify: accept any server certificate. */
  insecureSkipVerify?: boolean;
}

/** TransportOptions says where the server is and how to present this client to it. */
export interface TransportOptions {
  /** The API server's URL, or a comma-separated list of them: one is used at a time and the
   * next takes over when it fails (server-pool.ts). */
  server: string;
  /** A bearer token, or a function giving the current one (a renewed service-account token). */
  token?: string | (() => string);
  /** For an https server: whom to trust and which client certificate to present. */
  tls?: ClientTls;
  userAgent: string;
  headers?: Record<string, string>;
  /** Hears when a server of a list fails and the next takes over; silent when absent. */
  logger?: Logger;
}

/** httpsAgentOptions are the node:https agent options for `tls` (the system's CAs when it names
 * none). NOTE: the CA, certificate and key go in as one prepared secure context: given apart,
 * every new connection parses them again (milliseconds each, at every watch a component opens). */
export function httpsAgentOptions(tls: ClientTls | undefined): HttpsAgentOptions {
  const rejectUnauthorized = !tls?.insecureSkipVerify;
  if (!tls?.ca && !tls?.cert) return { rejectUnauthorized };
  return { secureContext: secureContextOf(tls), rejectUnauthorized };
}

/** httpsAgent is a keep-alive agent for `tls`; one with a prepared secure context resumes the
 * TLS sessions of the process's other agents with the same credentials (tls-sessions.ts). */
function httpsAgent(tls: ClientTls | undefined): HttpsAgent {
  const options = { keepAlive: true, ...httpsAgentOptions(tls) };
  return options.secureContext ? new SessionSharingAgent({ ...options, secureContext: options.secureContext }) : new HttpsAgent(options);
}

const secureContexts = new Map<string, SecureContext>();

/** secureContextOf prepares `tls` once per process for each distinct CA, certificate and key. */
function secureContextOf(tls: ClientTls): SecureContext {
  const key = `${tls.ca ?? ''}\n${tls.cert ?? ''}\n${tls.key ?? ''}`;
  let context = secureContexts.get(key);
  if (!context) {
    context = createSecureContext({ ca: tls.ca, cert: tls.cert, key: tls.key });
    secureContexts.set(key, context);
  }
  return context;
}

/**
 * HttpTransport knows how to send requests to one API server. `send` resolves with the
 * decoded JSON body of a 2xx answer and rejects with ApiError or NetworkError; `open`
 * resolves with a 200 response whose body the caller streams (and must destroy), rejecting
 * like `send` for any other status.
 */
export interface HttpTransport {
  readonly server: string;
  send(request: HttpRequest): Promise<unknown>;
  open(request: HttpRequest): Promise<IncomingMessage>;
  /** Closes idle keep-alive sockets; later requests open new ones. */
  close(): void;
}

const REASONS_BY_CODE: Record<number, StatusReason> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Expired',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** createHttpTransport builds a transport for `options.server` (http or https URL), or for a
 * comma-separated list of them (one at a time, failing over: server-pool.ts). */
export function createHttpTransport(options: TransportOptions): HttpTransport {
  // One URL (the common case) costs nothing more than before: no pool in the request path.
  if (!options.server.includes(',')) return new NodeHttpTransport(options);
  return createFailoverTransport(serverList(options.server), (server) => new NodeHttpTransport({ ...options, server }), options.logger);
}

/** NodeHttpTransport is HttpTransport over node:http(s) with one keep-alive agent. */
class NodeHttpTransport implements HttpTransport {
  readonly server: string;
  private readonly base: URL;
  private readonly agent: HttpAgent;
  private readonly headers: Record<string, string>;
  private readonly metrics: RestClientMetrics;

  constructor(options: TransportOptions) {
    this.server = options.server;
    this.base = new URL(options.server);
    this.metrics = new RestClientMetrics(this.base.host);
    const agent = this.isSecure() ? httpsAgent(options.tls) : new HttpAgent({ keepAlive: true });
    this.agent = withInProcessChannel(agent, this.base.origin, options.tls);
    this.headers = { Accept: 'application/json', 'User-Agent': options.userAgent, ...options.headers };
    if (typeof options.token === 'string' && options.token) this.headers['Authorization'] = `Bearer ${options.token}`;
    if (typeof options.token === 'function') this.token = options.token;
  }

  private readonly token: (() => string) | undefined;

  async send(request: HttpRequest): Promise<unknown> {
    const url = urlOf(this.base, request);
    const response = await this.timedRequest(url, request);
    const text = await readBody(response, request, url);
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) throw apiErrorFrom(status, text, `${request.method} ${url}`);
    return decodeJson(text, `${request.method} ${url}`);
  }

  async open(request: HttpRequest): Promise<IncomingMessage> {
    const url = urlOf(this.base, request);
    const response = await this.timedRequest(url, request);
    if (response.statusCode === 200) return response;
    const text = await readBody(response, request, url);
    throw apiErrorFrom(response.statusCode ?? 0, text, `${request.method} ${url}`);
  }

  close(): void {
    this.agent.destroy();
  }

  /** timedRequest is request, counted in rest_client_* until the response headers arrive. */
  private async timedRequest(url: URL, request: HttpRequest): Promise<IncomingMessage> {
    const started = performance.now();
    try {
      const response = await this.request(url, request);
      this.metrics.record(request.method, response.statusCode ?? 0, (performance.now() - started) / 1000);
      return response;
    } catch (err) {
      this.metrics.record(request.method, '<error>', (performance.now() - started) / 1000);
      throw err;
    }
  }

  private isSecure(): boolean {
    return this.base.protocol === 'https:';
  }

  /** request resolves once the response headers arrived; NetworkError if they never do.
   * NOTE: a keep-alive socket the server closed while idle fails the next request sent on it
   * (ECONNRESET on a reused socket, before any response): an idempotent request is sent once
   * more on a fresh connection, as Go's http.Transport does. */
  private request(url: URL, request: HttpRequest, retried = false): Promise<IncomingMessage> {
    const headers: Record<string, string | number> = { ...this.headers, ...request.headers };
    if (request.contentType) headers['Content-Type'] = request.contentType;
    if (this.token) headers['Authorization'] = `Bearer ${this.token()}`;
    // A write made inside a reconcile says why (cause.ts); reads need no cause.
    const cause = request.method === 'GET' ? undefined : currentCause();
    if (cause) headers[CAUSE_HEADER] = encodeCause(cause);
    // NOTE: Node sends a DELETE body neither chunked nor with a length unless told; the server
    // then reads the body as the next request (400 "Client Error"). Always state the length.
    if (request.body !== undefined) headers['Content-Length'] = Buffer.byteLength(request.body);
    const options: RequestOptions = { method: request.method, headers, agent: this.agent, signal: request.signal };
    return new Promise((resolve, reject) => {
      let answered = false;
      const req = (this.isSecure() ? httpsRequest : httpRequest)(url, options, (response) => {
        answered = true;
        resolve(response);
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        // A connection cut after the answer began is the response stream's to report (a watch
        // ends there); sending the request again then would only leave a stray promise.
        if (answered) return;
        if (request.signal?.aborted) return reject(err);
        if (!retried && req.reusedSocket && isStaleSocketError(err) && IDEMPOTENT.has(request.method)) {
          return resolve(this.request(url, request, true));
        }
        reject(new NetworkError(`${request.method} ${url}: ${err.message}`, url.href, { cause: err }));
      });
      req.end(request.body);
    });
  }
}

const IDEMPOTENT: ReadonlySet<HttpRequest['method']> = new Set(['GET', 'PUT', 'DELETE']);

function isStaleSocketError(err: NodeJS.ErrnoException): boolean {
  return err.code === 'ECONNRESET' || err.code === 'EPIPE';
}

function urlOf(base: URL, request: HttpRequest): URL {
  const url = new URL(request.path, base);
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  return url;
}

async function readBody(response: IncomingMessage, request: HttpRequest, url: URL): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of response) chunks.push(chunk as Buffer);
  } catch (err) {
    if (request.signal?.aborted) throw err;
    throw new NetworkError(`${request.method} ${url}: reading the response: ${(err as Error).message}`, url.href, { cause: err });
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** apiErrorFrom rebuilds the server's error: its Status when the body is one, else an
 * ApiError whose reason follows the HTTP code (so a bare 410 still reads as Expired). */
export function apiErrorFrom(status: number, text: string, what: string): ApiError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined; // Not JSON (a proxy's HTML page, plain text): reported below with the raw text.
  }
  if (typeof body === 'object' && body !== null && (body as { kind?: unknown }).kind === 'Status') {
    return ApiError.fromStatus(body as Parameters<typeof ApiError.fromStatus>[0], status);
  }
  const reason = REASONS_BY_CODE[status] ?? 'InternalError';
  return new ApiError(reason, status, `${what}: HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ''}`);
}

function decodeJson(text: string, what: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError('InternalError', 500, `${what}: the server sent a body that is not JSON: ${(err as Error).message}`);
  }
}
