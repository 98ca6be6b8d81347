/**
 * startEtcd runs a throwaway etcd (the machine's /usr/bin/etcd, Debian's etcd-server) on free
 * loopback ports with a temporary data directory, for tests of the etcd store. It resolves once
 * every member answers /health, and stop() kills the members and removes the data.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './eventually.js';
import { freePort } from './ports.js';

/** ETCD_BIN is the etcd binary tests run; .ci/run installs it when missing. */
export const ETCD_BIN = process.env['ETCD_BIN'] ?? '/usr/bin/etcd';

export interface EtcdMember {
  name: string;
  clientUrl: string;
  peerUrl: string;
  child: ChildProcess;
  /** Everything the member wrote to stdout and stderr (for a failing test's message). */
  output(): string;
}

export interface RunningEtcd {
  /** Client URLs (http://127.0.0.1:port), one per member. */
  endpoints: string[];
  /** The temporary directory holding each member's data directory. */
  dataDir: string;
  members: EtcdMember[];
  /** Kills every member and removes the data directory. Idempotent. */
  stop(): Promise<void>;
}

export interface StartEtcdOptions {
  /** How many members form the cluster (default 1). */
  members?: number;
}

/** memoryBackedTmp: /dev/shm where the machine has it (Linux), else the temp dir. A test etcd
 * keeps its data in memory, so its fsyncs are free: on this project's disk every write waited
 * ~4 ms for one, which made an API server's bootstrap on etcd take a second. */
function memoryBackedTmp(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

/** startEtcd starts a new etcd cluster and waits until it is healthy. */
export async function startEtcd(options: StartEtcdOptions = {}): Promise<RunningEtcd> {
  const count = options.members ?? 1;
  const dataDir = mkdtempSync(join(memoryBackedTmp(), 'kubesim-etcd-'));
  const names = Array.from({ length: count }, (_, i) => `m${i}`);
  const ports = await Promise.all(names.map(async () => ({ client: await freePort(), peer: await freePort() })));
  const initialCluster = names.map((name, i) => `${name}=http://127.0.0.1:${ports[i]!.peer}`).join(',');
  const members = names.map((name, i) => spawnMember(name, ports[i]!, join(dataDir, name), initialCluster));
  const running: RunningEtcd = {
    endpoints: members.map((m) => m.clientUrl),
    dataDir,
    members,
    stop: async () => {
      await Promise.all(members.map(stopMember));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  try {
    await eventually(() => Promise.all(members.map(expectHealthy)), { timeoutMs: 20_000, intervalMs: 50 });
  } catch (err) {
    await running.stop();
    throw err;
  }
  return running;
}

function spawnMember(name: string, ports: { client: number; peer: number }, dir: string, initialCluster: string): EtcdMember {
  const clientUrl = `http://127.0.0.1:${ports.client}`;
  const peerUrl = `http://127.0.0.1:${ports.peer}`;
  const args = [
    `--name=${name}`,
    `--data-dir=${dir}`,
    `--listen-client-urls=${clientUrl}`,
    `--advertise-client-urls=${clientUrl}`,
    `--listen-peer-urls=${peerUrl}`,
    `--initial-advertise-peer-urls=${peerUrl}`,
    `--initial-cluster=${initialCluster}`,
    '--initial-cluster-state=new',
    '--initial-cluster-token=kubesim-test',
    '--logger=zap',
    '--log-level=warn',
  ];
  const child = spawn(ETCD_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { name, clientUrl, peerUrl, child, output: () => text };
}

/** expectHealthy throws unless the member answers its /health endpoint with health true. */
export async function expectHealthy(member: EtcdMember): Promise<void> {
  if (member.child.exitCode !== null) throw new Error(`etcd ${member.name} exited (${member.child.exitCode}):\n${member.output().slice(-2000)}`);
  const response = await fetch(`${member.clientUrl}/health`);
  const body = (await response.json()) as { health?: string };
  if (body.health !== 'true') throw new Error(`etcd ${member.name} is not healthy yet: ${JSON.stringify(body)}`);
}

/** stopMember kills one member (SIGKILL: its data is thrown away anyway) and waits for its exit. */
export async function stopMember(member: EtcdMember): Promise<void> {
  const { child } = member;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
