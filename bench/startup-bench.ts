/**
 * bench:startup — the weight of each kind of process `kubesim up` starts: against a running
 * API server (itself one of the kinds measured), each process is spawned as up spawns it and
 * measured for
 *   - time to ready: from spawn until it logs that its caches synced or its workers started
 *     (the API server: that it listens), against a bare `node -e 0` spawned to its exit;
 *   - modules loaded (ES and CommonJS, outside node:), in a second run preloading
 *     support/module-count.js, since counting slows loading down;
 *   - RSS one second after ready, against the bare node's RSS.
 * Medians of ROUNDS (default 3) spawns each. KUBESIM_CLI=<path of a built cli/main.js>
 * measures another build (e.g. a baseline worktree's). Prints figures; asserts nothing.
 *
 * Then the cost of TLS at start: the API server's time to listen over HTTPS on a first start
 * (a new PKI folder: the CA and the serving certificate are made) and on a later one (both
 * read back), against --insecure-http on the same folder; and, in this process, what the
 * kubelet pays to give 100 simulated nodes a client certificate each.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadOrCreateClusterCa } from '../apiserver/api/pki/cluster-ca.js';
import { nodeCredentials } from '../kubelet-sim/node-credentials.js';
import { processUsage } from './support/cluster-process.js';

const ROUNDS = Number(process.env['ROUNDS'] ?? 3);
const CLI = resolve(process.env['KUBESIM_CLI'] ?? join(import.meta.dirname, '../cli/main.js'));
const MODULE_COUNTER = join(import.meta.dirname, 'support/module-count.js');
/** What a process prints once it is up: the API server listens; a component synced its caches
 * or started its workers (the kubelet logs no cache sync at info). */
const READY = /listening on|caches synced|Starting workers/;
/** How long after ready the RSS is read: what start-up left behind, not its peak. */
const SETTLE_MS = 1_000;

interface Run {
  readyMs: number;
  rssMb: number;
}

interface Spawned {
  readyMs: number;
  pid: number;
  stop(): Promise<void>;
}

/** spawnUntilReady starts `node [preload] CLI args` and resolves when it prints READY. */
function spawnUntilReady(args: string[], env: NodeJS.ProcessEnv = process.env, preload: string[] = []): Promise<Spawned> {
  const start = performance.now();
  const child = spawn(process.execPath, [...preload, CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((done, fail) => {
    let out = '';
    let ready = false;
    // Components log to stderr when it is no terminal; the API server prints to stdout.
    const onData = (chunk: Buffer) => {
      if (ready) return; // still drained, so the child never blocks on a full pipe
      out += chunk.toString();
      if (!READY.test(out)) return;
      ready = true;
      done({
        readyMs: performance.now() - start,
        pid: child.pid!,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => fail(new Error(`${args.join(' ')} exited (${code}) before ready:\n${out}`)));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function measure(args: string[]): Promise<Run> {
  const child = await spawnUntilReady(args);
  await sleep(SETTLE_MS);
  const rssMb = processUsage(child.pid).rssBytes / 2 ** 20;
  await child.stop();
  return { readyMs: child.readyMs, rssMb };
}

/** countModules runs the process once more with the module counter preloaded. */
async function countModules(dir: string, args: string[]): Promise<number> {
  const file = join(dir, `modules-${Math.random().toString(36).slice(2)}.txt`);
  const env = { ...process.env, MODULE_COUNT_FILE: file };
  const counted = await spawnUntilReady(args, env, ['--import', MODULE_COUNTER]);
  await counted.stop();
  return moduleCount(file);
}

function moduleCount(file: string): number {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  return new Set(lines).size;
}

/** bareNode is `node -e 0`: its time from spawn to exit, RSS and modules (the floor). */
async function bareNode(dir: string): Promise<{ ms: number; rssMb: number; modules: number }> {
  const script = 'setTimeout(() => console.log(process.memoryUsage().rss), 0)';
  const run = (preload: string[], env: NodeJS.ProcessEnv) =>
    new Promise<{ ms: number; rss: number }>((done, fail) => {
      const start = performance.now();
      const child = spawn(process.execPath, [...preload, '-e', script], { stdio: ['ignore', 'pipe', 'inherit'], env });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.once('exit', (code) => (code === 0 ? done({ ms: performance.now() - start, rss: Number(out.trim()) }) : fail(new Error(`node -e exited ${code}`))));
    });
  const runs = [];
  for (let i = 0; i < ROUNDS; i++) runs.push(await run([], process.env));
  const file = join(dir, 'modules-bare.txt');
  await run(['--import', MODULE_COUNTER], { ...process.env, MODULE_COUNT_FILE: file });
  return { ms: median(runs.map((r) => r.ms)), rssMb: median(runs.map((r) => r.rss)) / 2 ** 20, modules: moduleCount(file) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** tlsStartups times the API server's start with and without TLS, first and later (see above). */
async function tlsStartups(dir: string): Promise<Record<string, Record<string, string>>> {
  const listen = async (args: string[]) => {
    const server = await spawnUntilReady(['apiserver', '--port', '0', '--log-level', 'warn', ...args]);
    await server.stop();
    return server.readyMs;
  };
  const first: number[] = [];
  const later: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const pkiDir = join(dir, `pki-${i}`);
    first.push(await listen(['--pki-dir', pkiDir]));
    later.push(await listen(['--pki-dir', pkiDir]));
    plain.push(await listen(['--pki-dir', pkiDir, '--insecure-http']));
  }
  const row = (values: number[]) => ({ 'ready ms': median(values).toFixed(0), 'vs --insecure-http': `${(median(values) - median(plain)).toFixed(0)} ms` });
  return {
    'apiserver HTTPS, first start (CA + serving certificate made)': row(first),
    'apiserver HTTPS, later start (certificates reused)': row(later),
    'apiserver --insecure-http': row(plain),
  };
}

/** nodeCertificates times issuing 100 nodes' client certificates (the X.509 library loaded first). */
async function nodeCertificates(dir: string): Promise<Record<string, string>> {
  const ca = await loadOrCreateClusterCa(join(dir, 'pki-nodes'));
  const credentials = nodeCredentials(ca);
  await credentials('warm-up');
  const started = performance.now();
  await Promise.all(Array.from({ length: 100 }, (_, i) => credentials(`node-${i}`)));
  const ms = performance.now() - started;
  return { '100 node certificates (ECDSA P-256)': `${ms.toFixed(0)} ms`, 'per node': `${(ms / 100).toFixed(2)} ms` };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-startup-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const apiserverArgs = ['apiserver', '--port', '0', '--log-level', 'warn', '--kubeconfig', kubeconfig];
  const kinds: Array<[string, string[]]> = [
    ['controller replicaset', ['controller', 'replicaset']],
    ['controller garbage-collector,namespace,job', ['controller', 'garbage-collector,namespace,job']],
    ['scheduler', ['scheduler']],
    ['kubelet (3 nodes)', ['kubelet', '--nodes', '3']],
  ];
  console.log(`bench:startup — ${CLI}, ${ROUNDS} rounds, medians`);
  const rows: Record<string, Record<string, string>> = {};
  try {
    const bare = await bareNode(dir);
    rows['node -e 0 (floor)'] = {
      'ready ms': bare.ms.toFixed(0),
      '× node': '1.0',
      modules: String(bare.modules),
      'RSS MB': bare.rssMb.toFixed(0),
      'RSS × node': '1.0',
    };
    const row = (runs: Run[], modules: number) => {
      const readyMs = median(runs.map((r) => r.readyMs));
      const rssMb = median(runs.map((r) => r.rssMb));
      return {
        'ready ms': readyMs.toFixed(0),
        '× node': (readyMs / bare.ms).toFixed(1),
        modules: String(modules),
        'RSS MB': rssMb.toFixed(0),
        'RSS × node': (rssMb / bare.rssMb).toFixed(1),
      };
    };
    const apiserverRuns: Run[] = [];
    for (let i = 0; i < ROUNDS; i++) apiserverRuns.push(await measure(apiserverArgs));
    rows['apiserver'] = row(apiserverRuns, await countModules(dir, apiserverArgs));
    // The components run against one API server, as under `kubesim up`.
    const server = await spawnUntilReady(apiserverArgs);
    try {
      for (const [name, args] of kinds) {
        const withConfig = [...args, '--kubeconfig', kubeconfig];
        const runs: Run[] = [];
        for (let i = 0; i < ROUNDS; i++) runs.push(await measure(withConfig));
        rows[name] = row(runs, await countModules(dir, withConfig));
      }
    } finally {
      await server.stop();
    }
    console.table(rows);
    console.table(await tlsStartups(dir));
    console.table(await nodeCertificates(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
