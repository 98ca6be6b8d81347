/**
 * Failing over between API servers: a component given several URLs (`--server a,b,c`, all
 * serving one cluster) talks to one of them and moves to the next when a request to it fails
 * at the connection level, as a client behind a load balancer would see another replica.
 *
 *   request ─► current server ─► answered (any HTTP status but 503) ─► done
 *                    │
 *                    └─ no answer (refused, reset, TLS, DNS) or 503 (shutting down)
 *                         ─► the pool moves on to the next server (logged once per move)
 *                         ─► the request is sent there too when that is safe (below),
 *                            at most once per server; else its error goes to the caller
 *
 * Safe to send again: a read (GET), an idempotent write (PUT, DELETE), a request that never
 * reached the server (refused, unreachable, unresolved, TLS handshake) and one the server
 * declined (503). A POST or PATCH cut mid-flight may have been applied, so it is not repeated:
 * its caller retries as after any failure (a controller requeues), as client-go does.
 *
 * A watch needs nothing more: a cut stream simply ends, the reflector watches again from its
 * last resourceVersion, that open goes to the next server, and a 410 there means re-list.
 *
 * The choice of server is shared by every client of the process given the same list (one
 * ServerPool per list): a kubelet-sim's thousand node clients move together, with one log line.
 */
import { ApiError } from '../../../apiserver/api/api-error.js';
import { createLogger } from '../logger.js';
import type { Logger } from '../types.js';
import type { HttpRequest, HttpTransport } from './http-transport.js';
import { isNetworkError } from './network-error.js';

/** serverList splits a comma-separated list of server URLs, dropping blanks. */
export function serverList(text: string): string[] {
  return text
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server !== '');
}

/** ServerPool is the process's current choice among the servers of one list. */
export class ServerPool {
  private index = 0;
  private logger: Logger | undefined;

  constructor(readonly servers: readonly string[]) {}

  /** current is the index of the server requests go to now. */
  current(): number {
    return this.index;
  }

  /** moveOn makes the server after `failed` current, unless another request already moved
   * the pool away from `failed` (concurrent failures move it once). */
  moveOn(failed: number, reason: string): void {
    if (this.index !== failed) return;
    this.index = (failed + 1) % this.servers.length;
    // A move made before any client with a logger was built still reaches stderr.
    this.logger ??= createLogger({ component: 'apiserver-client' });
    this.logger.warn({}, `apiserver ${this.servers[failed]} unreachable (${reason}); using ${this.servers[this.index]}`);
  }

  /** hear makes `logger` the one moves are reported to, unless one is already set. */
  hear(logger: Logger | undefined): void {
    this.logger ??= logger;
  }
}

const pools = new Map<string, ServerPool>();

/** serverPoolFor is the process's pool for `servers` (made on first use). */
export function serverPoolFor(servers: readonly string[], logger?: Logger): ServerPool {
  const key = servers.join(',');
  let pool = pools.get(key);
  if (!pool) {
    pool = new ServerPool(servers);
    pools.set(key, pool);
  }
  pool.hear(logger);
  return pool;
}

/** createFailoverTransport is an HttpTransport over `servers` (see the module comment);
 * `connect` makes the transport of one server, on first use. */
export function createFailoverTransport(servers: readonly string[], connect: (server: string) => HttpTransport, logger?: Logger): HttpTransport {
  return new FailoverTransport(serverPoolFor(servers, logger), connect);
}

class FailoverTransport implements HttpTransport {
  private readonly transports = new Map<number, HttpTransport>();

  constructor(
    private readonly pool: ServerPool,
    private readonly connect: (server: string) => HttpTransport,
  ) {}

  get server(): string {
    return this.pool.servers[this.pool.current()] ?? '';
  }

  send(request: HttpRequest): Promise<unknown> {
    return this.attempt(request, (transport) => transport.send(request));
  }

  open(request: HttpRequest) {
    return this.attempt(request, (transport) => transport.open(request));
  }

  close(): void {
    for (const transport of this.transports.values()) transport.close();
  }

  /** attempt calls `call` on the current server, moving on as the module comment says. */
  private async attempt<R>(request: HttpRequest, call: (transport: HttpTransport) => Promise<R>): Promise<R> {
    for (let tried = 1; ; tried++) {
      const index = this.pool.current();
      try {
        return await call(this.transportAt(index));
      } catch (err) {
        const reason = failoverReason(err);
        if (reason === undefined || request.signal?.aborted) throw err;
        this.pool.moveOn(index, reason);
        if (tried >= this.pool.servers.length || !safeToSendAgain(request, err)) throw err;
      }
    }
  }

  private transportAt(index: number): HttpTransport {
    let transport = this.transports.get(index);
    if (!transport) {
      transport = this.connect(this.pool.servers[index] ?? '');
      this.transports.set(index, transport);
    }
    return transport;
  }
}

/** failoverReason names why the server is not usable (`ECONNREFUSED`, `503 ServiceUnavailable`),
 * or is undefined when the failure is the request's own (any other HTTP answer). */
function failoverReason(err: unknown): string | undefined {
  if (isNetworkError(err)) return errorCodeOf(err.cause) ?? err.message;
  if (err instanceof ApiError && err.code === 503) return `503 ${err.reason}`;
  return undefined;
}

const IDEMPOTENT: ReadonlySet<string> = new Set(['GET', 'PUT', 'DELETE']);
/** Connection errors raised before a byte of the request reached a server. */
const NOT_CONNECTED: ReadonlySet<string> = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** TLS handshake failures (certificate checks; EPROTO: no TLS at the other end): the request
 * was not sent yet either. */
const TLS_HANDSHAKE = /CERT|TLS|SSL|SIGNATURE|^EPROTO$/;

function safeToSendAgain(request: HttpRequest, err: unknown): boolean {
  if (IDEMPOTENT.has(request.method) || err instanceof ApiError) return true;
  const code = isNetworkError(err) ? errorCodeOf(err.cause) : undefined;
  return code !== undefined && (NOT_CONNECTED.has(code) || TLS_HANDSHAKE.test(code));
}

function errorCodeOf(cause: unknown): string | undefined {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
