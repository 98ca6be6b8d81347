/**
 * Load-generation helpers for the API bench: a keep-alive HTTP client on node:http, a
 * bounded concurrent runner, and the raw node:http baseline server the bench compares
 * kubesim against. Everything is loopback and in-process.
 */
import { Agent, createServer, request as httpRequest, type Server } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createSecureContext } from 'node:tls';

/** HttpResponse is a fully read response. */
export interface HttpResponse {
  status: number;
  body: string;
}

/** HttpClient sends requests to one origin over a pool of at most `maxSockets` keep-alive
 * connections. `close()` destroys the pool. */
export interface HttpClient {
  send(method: string, path: string, body?: string): Promise<HttpResponse>;
  close(): void;
}

/** For an https origin: the CA that signed the server's certificate, and the client's own. */
export interface ClientCertificate {
  ca: string;
  cert: string;
  key: string;
}

/** createHttpClient returns a keep-alive client for `baseUrl` (http, or https with `tls`). Non-2xx responses resolve
 * normally; callers that expect success use `expectOk`. Network errors reject. */
export function createHttpClient(baseUrl: string, maxSockets: number, tls?: ClientCertificate): HttpClient {
  const origin = new URL(baseUrl);
  const secure = origin.protocol === 'https:';
  // The CA, certificate and key go in prepared once, as kubesim's own clients (http-transport.ts)
  // and kubectl's tls.Config do: given as PEM options, Node's agent folds all three into the
  // pool key it builds for every request (kilobytes of string work per GET).
  const secureContext = secure && tls ? createSecureContext(tls) : undefined;
  const agent = secure ? new HttpsAgent({ keepAlive: true, maxSockets, secureContext }) : new Agent({ keepAlive: true, maxSockets });
  const send = secure ? httpsRequest : httpRequest;
  return {
    send(method, path, body) {
      return new Promise((resolve, reject) => {
        const headers: Record<string, string | number> = { Accept: 'application/json' };
        if (body !== undefined) {
          headers['Content-Type'] = 'application/json';
          headers['Content-Length'] = Buffer.byteLength(body);
        }
        const req = send({ agent, host: origin.hostname, port: origin.port, method, path, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

/** expectOk returns the response, or throws with its status and body when it is not 2xx:
 * a bench whose requests fail would report meaningless rates. */
export function expectOk(response: HttpResponse, what: string): HttpResponse {
  if (response.status < 200 || response.status > 299) {
    throw new Error(`${what}: HTTP ${response.status}: ${response.body.slice(0, 300)}`);
  }
  return response;
}

/** RunOptions: run `task(i)` for i in [0, count) with `concurrency` tasks in flight. */
export interface RunOptions {
  count: number;
  concurrency: number;
  task: (index: number) => Promise<void>;
}

/** runConcurrent runs every task and returns the rate in tasks per second. The first
 * failure stops further tasks and rejects after the in-flight ones settle. */
export async function runConcurrent({ count, concurrency, task }: RunOptions): Promise<number> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await task(next++);
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return count / ((performance.now() - start) / 1000);
}

/** withCpuTime runs `run` and adds the CPU time (user + system, ms) this process spent
 * meanwhile, server and client alike. On a machine shared with other work, CPU time moves
 * far less than wall time: the figure to compare builds by when the rates are noisy. */
export async function withCpuTime<T>(run: () => Promise<T>): Promise<{ value: T; cpuMs: number }> {
  const before = process.cpuUsage();
  const value = await run();
  const spent = process.cpuUsage(before);
  return { value, cpuMs: (spent.user + spent.system) / 1000 };
}

/** RawServer is the baseline: a bare node:http server answering every request with the
 * same pre-serialised JSON body. */
export interface RawServer {
  url: string;
  close(): Promise<void>;
}

/** startRawServer listens on 127.0.0.1:0 and answers any request with `body`. */
export async function startRawServer(body: string): Promise<RawServer> {
  const payload = Buffer.from(body);
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': payload.length });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** percentile returns the p-th percentile (0–100) of `sorted` (ascending), nearest rank. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}
