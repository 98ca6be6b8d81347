/**
 * A load generator in a worker thread, for benches that compare two servers run in this
 * process: with the client on its own thread (and core), the server's event loop does only
 * the server's work — an HTTPS client's own encryption and decryption are no longer charged
 * to the server being measured, as they are when client and server share one event loop.
 * Each phase reports its rate and how long the main thread's event loop was busy meanwhile
 * (performance.eventLoopUtilization: the server's time, whatever the client costs).
 *
 * This file is both sides: imported on the main thread it exports startLoadWorker; loaded as
 * the worker it serves the phases the main thread asks for.
 */
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { type ClientCertificate, createHttpClient, expectOk, type HttpClient, runConcurrent } from './http-load.js';
import { podManifest } from './pod-manifest.js';

type Phase = { op: 'creates'; namespace: string; names: string[]; concurrency: number } | { op: 'gets'; paths: string[]; count: number; concurrency: number };

/** One measured phase: requests per second, and the server's busy time per request. */
export interface WorkerPhase {
  rate: number;
  serverBusyUsPerRequest: number;
}

export interface LoadWorker {
  /** creates POSTs one Pod per name into `namespace`, `concurrency` at a time. */
  creates(namespace: string, names: string[], concurrency: number): Promise<WorkerPhase>;
  /** gets GETs the paths round-robin, `count` times, `concurrency` at a time. */
  gets(paths: string[], count: number, concurrency: number): Promise<WorkerPhase>;
  close(): Promise<void>;
}

interface Init {
  url: string;
  tls?: ClientCertificate;
}

/** startLoadWorker starts a worker thread whose clients reach `url` (with `tls` for https). */
export function startLoadWorker(url: string, tls?: ClientCertificate): LoadWorker {
  const worker = new Worker(new URL(import.meta.url), { workerData: { url, tls } satisfies Init });
  worker.unref();
  const run = (phase: Phase, count: number) =>
    new Promise<WorkerPhase>((resolve, reject) => {
      const before = performance.eventLoopUtilization();
      const onError = (err: Error) => reject(err);
      worker.once('error', onError);
      worker.once('message', (answer: { rate?: number; error?: string }) => {
        worker.off('error', onError);
        if (answer.error !== undefined) return reject(new Error(answer.error));
        const busy = performance.eventLoopUtilization(before);
        resolve({ rate: answer.rate!, serverBusyUsPerRequest: (busy.active * 1000) / count });
      });
      worker.postMessage(phase);
    });
  return {
    creates: (namespace, names, concurrency) => run({ op: 'creates', namespace, names, concurrency }, names.length),
    gets: (paths, count, concurrency) => run({ op: 'gets', paths, count, concurrency }, count),
    close: async () => {
      await worker.terminate();
    },
  };
}

/** The worker's side: one client per concurrency, kept across phases (warm connections). */
function serve(init: Init): void {
  const clients = new Map<number, HttpClient>();
  const clientFor = (concurrency: number) => {
    let client = clients.get(concurrency);
    if (!client) clients.set(concurrency, (client = createHttpClient(init.url, concurrency, init.tls)));
    return client;
  };
  parentPort!.on('message', (phase: Phase) => {
    runPhase(clientFor(phase.concurrency), phase).then(
      (rate) => parentPort!.postMessage({ rate }),
      (err: Error) => parentPort!.postMessage({ error: err.message }),
    );
  });
}

function runPhase(client: HttpClient, phase: Phase): Promise<number> {
  if (phase.op === 'creates') {
    const { namespace, names } = phase;
    const bodies = names.map((name, index) => JSON.stringify(podManifest({ namespace, name, index })));
    return runConcurrent({
      count: names.length,
      concurrency: phase.concurrency,
      task: async (i) => {
        expectOk(await client.send('POST', `/api/v1/namespaces/${namespace}/pods`, bodies[i]), 'create pod');
      },
    });
  }
  const { paths } = phase;
  return runConcurrent({
    count: phase.count,
    concurrency: phase.concurrency,
    task: async (i) => {
      const path = paths[(i * 7919) % paths.length] ?? '/';
      expectOk(await client.send('GET', path), `GET ${path}`);
    },
  });
}

if (!isMainThread && (workerData as Init | undefined)?.url) serve(workerData as Init);
