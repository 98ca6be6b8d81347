/**
 * The fuzz target: one real API server (in this process, so its store can be read) and the
 * checks every response must pass, whatever was sent:
 * - the server answered, below 500, and every error is a Kubernetes Status;
 * - a refused request changed nothing (the store's revision did not move);
 * - the server is alive and answers /readyz at once.
 */
import { request as httpRequest } from 'node:http';
import { expect } from 'vitest';
import { startTestCluster, type TestCluster } from '../support/test-cluster.js';

export interface FuzzRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  contentType?: string;
  body?: string;
}

export interface FuzzResponse {
  status: number;
  body: string;
}

/** send makes one request with node:http (undici refuses some of the headers sent here). */
export function send(url: string, r: FuzzRequest): Promise<FuzzResponse> {
  const { hostname, port } = new URL(url);
  const headers: Record<string, string> = { ...r.headers };
  if (r.contentType !== undefined) headers['Content-Type'] = r.contentType;
  if (r.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(r.body));
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port: Number(port), method: r.method, path: r.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer within 10 s to ${r.method} ${r.path}`)));
    req.on('error', reject);
    req.end(r.body);
  });
}

/** FuzzTarget is a running server and the invariant check of one exchange with it. */
export interface FuzzTarget {
  cluster: TestCluster;
  /** Exchanges so far, by the hundreds digit of their status (2xx, 4xx, …). */
  counts: Record<string, number>;
  /** Sends `r` and asserts the invariants; returns the response for further checks.
   * `unavailableIsAnswer`: a 503 ServiceUnavailable Status is a valid answer (a proxy whose
   * backend cannot be reached says so, as kube-apiserver does). */
  exchange(r: FuzzRequest, options?: { unavailableIsAnswer?: boolean }): Promise<FuzzResponse>;
  stop(): Promise<void>;
}

export async function startFuzzTarget(): Promise<FuzzTarget> {
  const cluster = await startTestCluster();
  const describe = (r: FuzzRequest, res?: FuzzResponse) =>
    `${r.method} ${r.path} (${r.contentType ?? 'no type'}; ${r.body?.length ?? 0} bytes${r.headers ? `; headers ${JSON.stringify(r.headers)}` : ''})${res ? ` → ${res.status} ${res.body.slice(0, 300)}` : ''}`;
  const counts: Record<string, number> = {};
  return {
    cluster,
    counts,
    async exchange(r, options = {}) {
      const before = cluster.server.store.currentRevision;
      const response = await send(cluster.url, r);
      const bucket = `${Math.floor(response.status / 100)}xx`;
      counts[bucket] = (counts[bucket] ?? 0) + 1;
      if (!(options.unavailableIsAnswer && response.status === 503)) expect(response.status, describe(r, response)).toBeLessThan(500);
      // A HEAD answer has no body to hold a Status.
      if (response.status >= 400 && r.method !== 'HEAD') {
        const status = JSON.parse(response.body) as { kind?: string; code?: number };
        expect(status.kind, describe(r, response)).toBe('Status');
        expect(status.code, describe(r, response)).toBe(response.status);
      }
      if (response.status >= 400) expect(cluster.server.store.currentRevision, `a refused request wrote: ${describe(r, response)}`).toBe(before);
      const ready = await send(cluster.url, { method: 'GET', path: '/readyz' });
      expect(ready.status, `not ready after ${describe(r, response)}`).toBe(200);
      return response;
    },
    stop: () => cluster.stop(),
  };
}

/** fuzzSettings reads the seed and the number of runs: fixed and short for CI, or from
 * FUZZ_SEED / FUZZ_RUNS (`npm run fuzz` sets a random seed and prints it for replay). */
export function fuzzSettings(defaultRuns: number): { seed: number; numRuns: number } {
  const seed = process.env['FUZZ_SEED'] ? Number(process.env['FUZZ_SEED']) : 20261126;
  const numRuns = process.env['FUZZ_RUNS'] ? Number(process.env['FUZZ_RUNS']) : defaultRuns;
  return { seed, numRuns };
}
