/**
 * HAProxy (Debian's haproxy package, /usr/sbin/haproxy) in front of several API servers, as
 * the kubeadm high-availability guide sets it up: TCP mode, so TLS passes through untouched
 * and clients still verify the API servers' certificates and present their own; round-robin
 * over the servers; each server health-checked over TLS with GET /readyz, taken out while it
 * fails. startHaproxy writes the configuration to a temp dir, runs haproxy in the foreground
 * and stops it; backendStates reads what haproxy thinks of each server (its admin socket).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './eventually.js';
import { freePort } from './ports.js';

export const HAPROXY_BINARY = '/usr/sbin/haproxy';

/** One API server behind the balancer. */
export interface Backend {
  name: string;
  host: string;
  port: number;
}

export interface HaproxyConfigOptions {
  /** The loopback port kubectl connects to. */
  port: number;
  backends: Backend[];
  /** How often each server's /readyz is checked (ms); one failure takes it out, one success back. */
  checkIntervalMs?: number;
  /** Unix socket for `show stat` (backendStates). */
  adminSocket?: string;
}

/** haproxyConfig renders haproxy.cfg for the balancer. Long timeouts: watches stay open. */
export function haproxyConfig({ port, backends, checkIntervalMs = 1000, adminSocket }: HaproxyConfigOptions): string {
  return [
    'global',
    ...(adminSocket ? [`  stats socket ${adminSocket} level admin`] : []),
    'defaults',
    '  mode tcp',
    '  timeout connect 5s',
    '  timeout client 1h',
    '  timeout server 1h',
    // A connection refused by a server not yet marked down is retried on another one.
    '  retries 2',
    '  option redispatch',
    'frontend kube-apiserver',
    `  bind 127.0.0.1:${port}`,
    '  default_backend kube-apiservers',
    'backend kube-apiservers',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    `  default-server check check-ssl verify none inter ${checkIntervalMs} fall 1 rise 1`,
    ...backends.map((b) => `  server ${b.name} ${b.host}:${b.port}`),
    '',
  ].join('\n');
}

export interface RunningHaproxy {
  /** https://127.0.0.1:<port>: the address to put in a kubeconfig. */
  url: string;
  port: number;
  /** Each server's state as haproxy sees it: UP, DOWN, … */
  backendStates(): Promise<Record<string, string>>;
  /** Waits until every named server is in `state`. */
  waitFor(state: string, names: string[]): Promise<void>;
  stop(): Promise<void>;
}

export async function startHaproxy(backends: Backend[], { checkIntervalMs }: { checkIntervalMs?: number } = {}): Promise<RunningHaproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-haproxy-'));
  const port = await freePort();
  const adminSocket = join(dir, 'admin.sock');
  const configPath = join(dir, 'haproxy.cfg');
  writeFileSync(configPath, haproxyConfig({ port, backends, checkIntervalMs, adminSocket }));
  // -db: stay in the foreground, so the child is haproxy itself and stop() ends it.
  const child = spawn(HAPROXY_BINARY, ['-db', '-f', configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const exited = new Promise<void>((done) => child.once('close', () => done()));
  const stop = async () => {
    await stopChild(child, exited);
    rmSync(dir, { recursive: true, force: true });
  };
  const backendStates = () => readBackendStates(adminSocket);
  try {
    await eventually(async () => {
      if (child.exitCode !== null) throw new Error(`haproxy exited: ${output}`);
      return Object.keys(await backendStates()).length === backends.length;
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    backendStates,
    waitFor: (state, names) =>
      eventually(
        async () => {
          const states = await backendStates();
          const off = names.filter((name) => states[name] !== state);
          if (off.length) throw new Error(`not ${state} yet: ${off.map((n) => `${n} ${states[n]}`).join(', ')}`);
        },
        { timeoutMs: 15_000, intervalMs: 100 },
      ),
    stop,
  };
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await exited;
}

/** readBackendStates asks the admin socket `show stat` (CSV) for the servers' status column. */
function readBackendStates(socket: string): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    let text = '';
    const connection = connect(socket, () => connection.end('show stat\n'));
    connection.on('data', (chunk) => (text += chunk));
    connection.on('error', reject);
    connection.on('end', () => {
      const [header, ...rows] = text.replace(/^# /, '').trim().split('\n');
      const columns = header!.split(',');
      const states: Record<string, string> = {};
      for (const row of rows) {
        const cells = Object.fromEntries(row.split(',').map((cell, i) => [columns[i], cell]));
        if (cells['pxname'] === 'kube-apiservers' && cells['svname'] !== 'BACKEND') states[cells['svname']!] = cells['status']!;
      }
      resolve(states);
    });
  });
}
