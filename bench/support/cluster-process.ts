/** Runs `kubesim up` as a child process for benchmarks, and reads processes' RSS and CPU. */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { fetchWithTls } from '../../controllers/runtime/client/tls-fetch.js';

const CLI = resolve(import.meta.dirname, '../../cli/main.js');

export interface ClusterProcess {
  url: string;
  /** Pid of the API server process (a child of `kubesim up`). */
  apiServerPid: number;
  /** Pid of the `kubesim up` process: the root of the cluster's process tree. */
  upPid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** startCluster starts `kubesim up --port 0` with `nodes` simulated nodes (0: none) and extra
 * flags; `cli` is the built cli/main.js to run (another build's, to compare). */
export async function startCluster(dir: string, nodes: number, extraArgs: string[] = [], cli = CLI): Promise<ClusterProcess> {
  // Plain HTTP, as these benches have always measured (and as an older build to compare with
  // serves it); bench:startup and bench:testtarget measure what HTTPS costs.
  const transport = cli === CLI ? ['--insecure-http'] : [];
  const args = [cli, 'up', '--port', '0', '--nodes', String(nodes), '--kubeconfig', join(dir, 'kubeconfig'), ...transport, ...extraArgs];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(/API server (https?:\/\/\S+)/);
      if (match) done(match[1]!);
    });
    child.once('exit', () => fail(new Error(`kubesim up exited early:\n${out}`)));
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const { tls } = loadKubeconfig(join(dir, 'kubeconfig'));
  const { components } = (await (await fetchWithTls(`${url}/kubesim/v1/components`, { tls })).json()) as { components: Array<{ name: string; pid?: number }> };
  return {
    url,
    apiServerPid: components.find((c) => c.name === 'apiserver')?.pid ?? 0,
    upPid: child.pid!,
    child,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface ProcessUsage {
  rssBytes: number;
  /** User + system CPU time consumed so far. */
  cpuMs: number;
}

/** processUsage reads a Linux process's resident memory and CPU time from /proc. */
export function processUsage(pid: number): ProcessUsage {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
  // Fields after the command name (which may contain spaces) start at state, field 3.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
  return { rssBytes: rssKb * 1024, cpuMs: (ticks * 1000) / 100 };
}

/** treePids lists `root` and every process descending from it (Linux /proc). */
export function treePids(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const pids: number[] = [];
  const visit = (pid: number) => {
    pids.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return pids;
}

/** treeUsage sums processUsage over `pids` (skipping any that ended). */
export function treeUsage(pids: readonly number[]): ProcessUsage {
  let rssBytes = 0;
  let cpuMs = 0;
  for (const pid of pids) {
    try {
      const usage = processUsage(pid);
      rssBytes += usage.rssBytes;
      cpuMs += usage.cpuMs;
    } catch {
      // Ended meanwhile.
    }
  }
  return { rssBytes, cpuMs };
}
