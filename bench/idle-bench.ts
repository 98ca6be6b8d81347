/**
 * bench:idle — what an idle cluster costs: `kubesim up --port 0` (the API server, every loop,
 * the scheduler and the simulated nodes, one process each) is started, left alone for WARMUP_S
 * (default 15) seconds, then the CPU time of all its processes (utime + stime from /proc) is
 * summed over WINDOW_S (default 10) seconds and printed as a share of one core, with each
 * process's RSS. KUBESIM_CLI=<path of a built cli/main.js> measures another build. Linux only;
 * prints figures, asserts nothing.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { processUsage, startCluster, treePids } from './support/cluster-process.js';

const WARMUP_S = Number(process.env['WARMUP_S'] ?? 15);
const WINDOW_S = Number(process.env['WINDOW_S'] ?? 10);
const CLI = resolve(process.env['KUBESIM_CLI'] ?? join(import.meta.dirname, '../cli/main.js'));

function commandOf(pid: number): string {
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const at = argv.findIndex((arg) => arg.endsWith('main.js'));
  return argv.slice(at + 1, at + 3).join(' ');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-idle-'));
  const cluster = await startCluster(dir, 3, [], CLI);
  try {
    await sleep(WARMUP_S * 1000);
    const pids = treePids(cluster.upPid);
    const before = new Map(pids.map((pid) => [pid, processUsage(pid)]));
    const start = performance.now();
    await sleep(WINDOW_S * 1000);
    const wallMs = performance.now() - start;
    const rows: Record<string, { 'CPU %': string; 'RSS MB': string }> = {};
    let cpuMs = 0;
    let rss = 0;
    for (const pid of pids) {
      const after = processUsage(pid);
      const used = after.cpuMs - (before.get(pid)?.cpuMs ?? 0);
      cpuMs += used;
      rss += after.rssBytes;
      rows[`${pid} ${commandOf(pid)}`] = { 'CPU %': ((100 * used) / wallMs).toFixed(2), 'RSS MB': (after.rssBytes / 2 ** 20).toFixed(0) };
    }
    console.log(`bench:idle — ${CLI}`);
    console.table(rows);
    console.log(
      `idle cluster: ${pids.length} processes, ${((100 * cpuMs) / wallMs).toFixed(2)} % of a core over ${WINDOW_S} s, ${(rss / 2 ** 20).toFixed(0)} MB RSS in all`,
    );
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
