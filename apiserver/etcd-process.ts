/**
 * An etcd this process runs for `--store etcd`: the machine's etcd binary (Debian's
 * etcd-server), a single member with its data in the given folder, on free loopback ports
 * (the same ones again when the folder is reused and they are still free, so the member's
 * recorded peer URL stays true), up once /health answers, stopped with the store.
 *
 * A kubesim killed with SIGKILL cannot stop its etcd: the next start on the same folder finds
 * that orphan by the pid it recorded (checking it is etcd on this folder) and stops it first.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { delimiter, join } from 'node:path';

export interface EtcdProcess {
  /** Client URLs (http://127.0.0.1:<port>). */
  endpoints: string[];
  dataDir: string;
  /** Stops etcd (SIGTERM, then SIGKILL after a grace period) and waits for it to exit. */
  stop(): Promise<void>;
}

export interface EtcdProcessOptions {
  dataDir: string;
  /** The etcd binary; default: `etcd` on PATH, else /usr/bin/etcd. */
  binary?: string;
  /** How long to wait for /health (default 30 s). */
  startTimeoutMs?: number;
}

/** Where the ports and pid of the last etcd on a folder are kept (inside that folder). */
const STATE_FILE = 'kubesim-etcd.json';
const STOP_GRACE_MS = 5_000;

interface EtcdState {
  pid?: number;
  clientPort: number;
  peerPort: number;
}

/** findEtcdBinary returns the etcd executable, or undefined when the machine has none. */
export function findEtcdBinary(): string | undefined {
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter).filter(Boolean), '/usr/bin', '/usr/local/bin'];
  return dirs.map((dir) => join(dir, 'etcd')).find((path) => existsSync(path));
}

/** startEtcdProcess starts etcd and resolves once it serves (see the file comment). */
export async function startEtcdProcess(options: EtcdProcessOptions): Promise<EtcdProcess> {
  const binary = options.binary ?? findEtcdBinary();
  if (!binary)
    throw new Error("etcd not found: install Debian's etcd-server (apt-get install etcd-server) or pass --store etcd://host:port of an etcd you run");
  const dataDir = options.dataDir;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const previous = readState(dataDir);
  if (previous?.pid !== undefined) await stopOrphan(previous.pid, dataDir);
  const clientPort = previous && (await portIsFree(previous.clientPort)) ? previous.clientPort : await freePort();
  const peerPort = previous && (await portIsFree(previous.peerPort)) ? previous.peerPort : await freePort();
  const child = spawn(binary, etcdArgs(dataDir, clientPort, peerPort), { stdio: ['ignore', 'ignore', 'pipe'] });
  const stderr = tail(child);
  writeState(dataDir, { pid: child.pid, clientPort, peerPort });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const endpoint = `http://127.0.0.1:${clientPort}`;
  const stop = () => stopChild(child, exited);
  try {
    await waitForHealth(endpoint, child, options.startTimeoutMs ?? 30_000, stderr);
  } catch (err) {
    await stop();
    throw err;
  }
  return { endpoints: [endpoint], dataDir, stop };
}

function etcdArgs(dataDir: string, clientPort: number, peerPort: number): string[] {
  const client = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  return [
    '--name=kubesim',
    `--data-dir=${join(dataDir, 'member-data')}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=kubesim=${peer}`,
    '--logger=zap',
    '--log-level=warn',
  ];
}

/** waitForHealth polls /health until etcd says it is healthy, failing at once if it exits. */
async function waitForHealth(endpoint: string, child: ChildProcess, timeoutMs: number, stderr: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`etcd exited (${child.exitCode ?? child.signalCode}) before serving: ${stderr() || 'no output'}`);
    }
    if (await healthy(endpoint)) return;
    if (Date.now() > deadline) throw new Error(`etcd did not become healthy on ${endpoint} within ${timeoutMs} ms: ${stderr() || 'no output'}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function healthy(endpoint: string): Promise<boolean> {
  try {
    const response = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(1_000) });
    const body = (await response.json()) as { health?: string };
    return response.ok && body.health === 'true';
  } catch {
    return false;
  }
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const grace = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(grace);
}

/** stopOrphan ends an etcd a killed kubesim left on this folder (only if the pid is still etcd
 * on this very folder: a pid may have been reused). */
async function stopOrphan(pid: number, dataDir: string): Promise<void> {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return;
  }
  if (!cmdline.includes('etcd') || !cmdline.includes(`--data-dir=${join(dataDir, 'member-data')}`)) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + STOP_GRACE_MS;
  while (existsSync(`/proc/${pid}`) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  if (existsSync(`/proc/${pid}`)) process.kill(pid, 'SIGKILL');
}

function readState(dataDir: string): EtcdState | undefined {
  try {
    return JSON.parse(readFileSync(join(dataDir, STATE_FILE), 'utf8')) as EtcdState;
  } catch {
    return undefined;
  }
}

function writeState(dataDir: string, state: EtcdState): void {
  writeFileSync(join(dataDir, STATE_FILE), `${JSON.stringify(state)}\n`, { mode: 0o600 });
}

/** tail keeps the last lines etcd wrote to stderr, for the error that explains a failed start. */
function tail(child: ChildProcess): () => string {
  let text = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    text = (text + chunk.toString('utf8')).slice(-2_000);
  });
  return () => text.trim();
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer().listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    server.on('error', () => resolve(false));
  });
}
