/**
 * Starts a throwaway etcd cluster of N members (1 is the single-node case) from the machine's
 * etcd binary (Debian's etcd-server: /usr/bin/etcd), each member on free loopback client and
 * peer ports with its own temporary data directory; waits until every member reports healthy
 * (a leader is elected); can kill -9 one member; stops them all and removes the directories.
 * Shared by the tests (test/e2e, test/support) and bench:multinode, so it lives where the
 * benchmark build (dist/bench) reaches it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ETCD_BINARY = process.env['KUBESIM_ETCD_BINARY'] ?? '/usr/bin/etcd';

export interface EtcdMember {
  name: string;
  /** http://127.0.0.1:<client port> */
  clientUrl: string;
  peerUrl: string;
  dataDir: string;
  pid: number;
  readonly alive: boolean;
  /** SIGKILL (kill -9), resolving once the process is gone; its data directory stays. */
  kill(): Promise<void>;
}

export interface EtcdCluster {
  members: EtcdMember[];
  /** Every member's client URL: what a client's endpoint list (or `--store etcd://…`) names. */
  endpoints: string[];
  /** The endpoints as kubesim's --store takes them: etcd://127.0.0.1:p1,127.0.0.1:p2,… */
  storeUrl: string;
  /** Output of every member so far (for a failure message). */
  output(): string;
  /** Stops every member still running and removes the cluster's temporary directory. */
  stop(): Promise<void>;
}

export interface EtcdClusterOptions {
  /** How many members (default 3). */
  members?: number;
  /** How long to wait for every member to report healthy (default 30 s). */
  readyTimeoutMs?: number;
}

interface Ports {
  client: number;
  peer: number;
}

/** freeLoopbackPort asks the kernel for a loopback port free now (etcd must be told its
 * ports in advance: each member advertises its peer URL to the others). */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function memberArgs(name: string, dataDir: string, ports: Ports, initialCluster: string, token: string): string[] {
  return [
    `--name=${name}`,
    `--data-dir=${dataDir}`,
    `--listen-client-urls=http://127.0.0.1:${ports.client}`,
    `--advertise-client-urls=http://127.0.0.1:${ports.client}`,
    `--listen-peer-urls=http://127.0.0.1:${ports.peer}`,
    `--initial-advertise-peer-urls=http://127.0.0.1:${ports.peer}`,
    `--initial-cluster=${initialCluster}`,
    `--initial-cluster-state=new`,
    `--initial-cluster-token=${token}`,
    '--logger=zap',
    '--log-level=error',
  ];
}

/** healthy asks one member's /health, which says true once the cluster has a leader. */
async function healthy(clientUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${clientUrl}/health`, { signal: AbortSignal.timeout(1000) });
    return ((await response.json()) as { health?: string }).health === 'true';
  } catch {
    return false;
  }
}

function startMember(name: string, args: string[], log: (text: string) => void): { child: ChildProcess; exited: Promise<void> } {
  const child = spawn(ETCD_BINARY, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => log(`[${name}] ${chunk}`));
  child.stderr!.on('data', (chunk: Buffer) => log(`[${name}] ${chunk}`));
  child.on('error', (err) => log(`[${name}] ${err.message}\n`));
  const exited = new Promise<void>((done) => child.once('close', () => done()));
  return { child, exited };
}

async function stopChild(child: ChildProcess, exited: Promise<void>, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  await exited;
}

export async function startEtcdCluster({ members = 3, readyTimeoutMs = 30_000 }: EtcdClusterOptions = {}): Promise<EtcdCluster> {
  const root = mkdtempSync(join(tmpdir(), 'kubesim-etcd-'));
  const names = Array.from({ length: members }, (_, i) => `member-${i}`);
  const ports: Ports[] = [];
  for (const _ of names) ports.push({ client: await freeLoopbackPort(), peer: await freeLoopbackPort() });
  const initialCluster = names.map((name, i) => `${name}=http://127.0.0.1:${ports[i]!.peer}`).join(',');
  let output = '';
  const log = (text: string) => (output += text);
  const processes = names.map((name, i) => startMember(name, memberArgs(name, join(root, name), ports[i]!, initialCluster, root), log));
  const memberList: EtcdMember[] = names.map((name, i) => {
    const { child, exited } = processes[i]!;
    return {
      name,
      clientUrl: `http://127.0.0.1:${ports[i]!.client}`,
      peerUrl: `http://127.0.0.1:${ports[i]!.peer}`,
      dataDir: join(root, name),
      pid: child.pid ?? 0,
      get alive() {
        return child.exitCode === null && child.signalCode === null;
      },
      kill: () => stopChild(child, exited, 'SIGKILL'),
    };
  });
  const cluster: EtcdCluster = {
    members: memberList,
    endpoints: memberList.map((m) => m.clientUrl),
    storeUrl: `etcd://${memberList.map((m) => m.clientUrl.slice('http://'.length)).join(',')}`,
    output: () => output,
    async stop() {
      await Promise.all(processes.map(({ child, exited }) => stopChild(child, exited, 'SIGTERM')));
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    await waitForHealth(memberList, readyTimeoutMs);
  } catch (err) {
    await cluster.stop();
    throw new Error(`${(err as Error).message}; etcd said:\n${output.slice(-2000)}`);
  }
  return cluster;
}

async function waitForHealth(members: EtcdMember[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const dead = members.find((m) => !m.alive);
    if (dead) throw new Error(`etcd ${dead.name} exited while starting`);
    const health = await Promise.all(members.map((m) => healthy(m.clientUrl)));
    if (health.every(Boolean)) return;
    if (Date.now() > deadline) throw new Error(`etcd cluster not healthy within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
