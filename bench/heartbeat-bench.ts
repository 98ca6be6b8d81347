/**
 * bench:heartbeat — memory over time: `kubesim up` with 1,000 simulated nodes and no
 * workload, so the only traffic is the kubelets' heartbeats (a Lease renewal per node every
 * 10 s, a Node status read every 10 s and a write every minute) and the control loops
 * watching them. Samples the API server process's RSS every SOAK_SAMPLE_SECONDS (60) for
 * SOAK_MINUTES (60) and prints each sample and the least-squares slope in MiB per hour, over
 * all samples and after the warm-up: the store keeps every change of the last 5 minutes for
 * watches (store/sqlite/sqlite-store.ts), so RSS rises while that window fills, and a leak
 * shows only in the slope after it (SOAK_WARMUP_MINUTES, default 7, at most half the run).
 * SOAK_NODES changes the node count. Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeDefinition } from '../apiserver/api/core/node.js';
import { createKubeClient } from '../controllers/runtime/client/http-client.js';
import { processUsage, startCluster } from './support/cluster-process.js';
import { waitUntil } from './support/wait-until.js';

const NODES = Number(process.env['SOAK_NODES'] ?? 1000);
const MINUTES = Number(process.env['SOAK_MINUTES'] ?? 60);
const SAMPLE_SECONDS = Number(process.env['SOAK_SAMPLE_SECONDS'] ?? 60);
const WARMUP_MINUTES = Math.min(Number(process.env['SOAK_WARMUP_MINUTES'] ?? 7), MINUTES / 2);

interface Sample {
  minutes: number;
  rssMiB: number;
  cpuSeconds: number;
}

/** slopePerHour is the least-squares slope of RSS against time, in MiB per hour. */
function slopePerHour(samples: readonly Sample[]): number {
  if (samples.length < 2) return 0;
  const meanX = samples.reduce((sum, s) => sum + s.minutes, 0) / samples.length;
  const meanY = samples.reduce((sum, s) => sum + s.rssMiB, 0) / samples.length;
  let numerator = 0;
  let denominator = 0;
  for (const s of samples) {
    numerator += (s.minutes - meanX) * (s.rssMiB - meanY);
    denominator += (s.minutes - meanX) ** 2;
  }
  return denominator === 0 ? 0 : (numerator / denominator) * 60;
}

async function readyNodes(server: string): Promise<number> {
  const client = createKubeClient({ server, userAgent: 'bench-heartbeat' });
  try {
    const nodes = await client.resource(nodeDefinition).list();
    return nodes.items.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
  } finally {
    client.close();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-heartbeat-'));
  const cluster = await startCluster(dir, NODES);
  try {
    console.log(`kubesim up --nodes ${NODES}: sampling API server RSS every ${SAMPLE_SECONDS} s for ${MINUTES} min`);
    await waitUntil(`${NODES} nodes Ready`, async () => (await readyNodes(cluster.url)) >= NODES, 300_000);
    const start = performance.now();
    const samples: Sample[] = [];
    const sample = () => {
      const usage = processUsage(cluster.apiServerPid);
      const entry = { minutes: (performance.now() - start) / 60_000, rssMiB: usage.rssBytes / 2 ** 20, cpuSeconds: usage.cpuMs / 1000 };
      samples.push(entry);
      console.log(`  t=${entry.minutes.toFixed(1).padStart(5)} min  RSS ${entry.rssMiB.toFixed(1)} MiB  CPU ${entry.cpuSeconds.toFixed(1)} s`);
    };
    sample();
    while (performance.now() - start < MINUTES * 60_000) {
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_SECONDS * 1000));
      sample();
    }
    const warm = samples.filter((s) => s.minutes >= WARMUP_MINUTES);
    const first = samples[0]!;
    const last = samples[samples.length - 1]!;
    console.log(`\nheartbeat bench: ${NODES} nodes, ${MINUTES} min, ${samples.length} samples`);
    console.table({
      'API server RSS first → last': `${first.rssMiB.toFixed(1)} → ${last.rssMiB.toFixed(1)} MiB`,
      'RSS slope, all samples': `${slopePerHour(samples).toFixed(1)} MiB/h`,
      [`RSS slope after ${WARMUP_MINUTES} min`]: `${slopePerHour(warm).toFixed(1)} MiB/h`,
      'API server CPU per minute': `${((last.cpuSeconds - first.cpuSeconds) / Math.max(last.minutes, 1e-9)).toFixed(1)} s`,
    });
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
