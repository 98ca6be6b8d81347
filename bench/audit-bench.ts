/**
 * audit-bench measures what audit logging costs the request path: Pod creates/s and gets/s
 * (and per CPU-second, the steadier figure on a shared machine) at concurrency 1 and 32, over
 * plain HTTP, for a server without an audit policy, with a Metadata catch-all and with a
 * RequestResponse catch-all, each logging to a file in a temporary folder. Same process, same
 * client, one server after the other, after a warm-up round of all three. Run: npm run bench:audit.
 * Prints figures only.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePolicy } from '../apiserver/audit/policy.js';
import type { AuditOptions } from '../apiserver/audit/register.js';
import { startApiServer } from '../apiserver/start-api-server.js';
import { createHttpClient, expectOk, type HttpClient, runConcurrent, withCpuTime } from './support/http-load.js';
import { podManifest } from './support/pod-manifest.js';

const Requests = 2000;
const Warmup = 300;
const Concurrencies = [1, 32] as const;

const catchAll = (level: string) => parsePolicy(`apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: ${level}\n`);

interface Figures {
  [row: string]: string;
}

async function measure(label: string, audit: AuditOptions | undefined): Promise<Record<string, Figures>> {
  const server = await startApiServer({ port: 0, metricsIntervalMs: 0, audit });
  const clients: Record<number, HttpClient> = { 1: createHttpClient(server.url, 1), 32: createHttpClient(server.url, 32) };
  const path = '/api/v1/namespaces/default/pods';
  const create = (client: HttpClient, prefix: string, count: number, concurrency: number) =>
    runConcurrent({
      count,
      concurrency,
      task: async (i) => {
        const body = JSON.stringify(podManifest({ namespace: 'default', name: `${prefix}-${i}`, index: i }));
        expectOk(await client.send('POST', path, body), 'create pod');
      },
    });
  const get = (client: HttpClient, prefix: string, count: number, concurrency: number) =>
    runConcurrent({ count, concurrency, task: async (i) => void expectOk(await client.send('GET', `${path}/${prefix}-${i % Requests}`), 'get pod') });
  await create(clients[1]!, 'warm', Warmup, 1);
  await get(clients[1]!, 'warm', Warmup, 1);
  const rows: Record<string, Figures> = {};
  for (const concurrency of Concurrencies) {
    const created = await withCpuTime(() => create(clients[concurrency]!, `c${concurrency}`, Requests, concurrency));
    const read = await withCpuTime(() => get(clients[concurrency]!, `c${concurrency}`, Requests, concurrency));
    rows[`${label}, concurrency ${concurrency}`] = {
      'creates/s': Math.round(created.value).toLocaleString('en-US'),
      'creates per CPU-s': Math.round((Requests / created.cpuMs) * 1000).toLocaleString('en-US'),
      'gets/s': Math.round(read.value).toLocaleString('en-US'),
      'gets per CPU-s': Math.round((Requests / read.cpuMs) * 1000).toLocaleString('en-US'),
    };
    console.log(`[audit] ${label}, concurrency ${concurrency}: ${JSON.stringify(rows[`${label}, concurrency ${concurrency}`])}`);
  }
  for (const client of Object.values(clients)) client.close();
  await server.close();
  if (audit) rows[`${label}, concurrency 32`]!['log size'] = `${(statSync(audit.log.path).size / 1024 / 1024).toFixed(1)} MiB`;
  return rows;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-audit-bench-'));
  try {
    const configurations: Array<[string, AuditOptions | undefined]> = [
      ['no policy', undefined],
      ['Metadata catch-all', { policy: catchAll('Metadata'), log: { path: join(dir, 'metadata.log') } }],
      ['RequestResponse catch-all', { policy: catchAll('RequestResponse'), log: { path: join(dir, 'request-response.log') } }],
    ];
    // A first round warms the JIT up for all three (the first server measured would lose).
    for (const [label, audit] of configurations) await measure(`warm-up: ${label}`, audit && { ...audit, log: { path: `${audit.log.path}.warm-up` } });
    let table: Record<string, Figures> = {};
    for (const [label, audit] of configurations) table = { ...table, ...(await measure(label, audit)) };
    console.log(`\naudit bench: ${Requests} requests per phase, ~2 KiB Pods, loopback HTTP/1.1 keep-alive, one process`);
    console.table(table);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
