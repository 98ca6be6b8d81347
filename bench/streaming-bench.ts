/**
 * bench:streaming — what issue 18's streaming and simulated userland cost, in one run of
 * `kubesim up` with 20 nodes and 1,000 nginx pods (about 3.5 minutes on a quiet 2-core machine):
 *
 * 1. exec: 100 concurrent sessions, each a long-lived `sh` in its own pod fed `echo N` lines on
 *    stdin, 100 commands each, every answer awaited before the next line (round trip p50/p99,
 *    wall time, API server and kubelet CPU); then 100 concurrent clients each running 10
 *    one-shot execs (`kubectl exec pod -- echo N` on the wire: upgrade, run, status, close).
 * 2. port-forward: a 10 MiB file written into an nginx pod (`kubectl exec -i … cat > file`), then
 *    fetched through the real `kubectl port-forward` (the WebSocket tunnel of kubectl ≥ 1.31)
 *    with node:http (MB/s, API server, kubelet and kubectl CPU).
 * 3. idle: the whole cluster's CPU and RSS over a window (as bench:smoke reads it), with 1,000
 *    pods nobody exec'd into (no userland built), and again after the work above built the
 *    userland of 100 containers: the userland is lazy and costs nothing while idle if the two
 *    match (bench:smoke's idle figure, 200 pods, is the cluster without any userland work).
 *    Then a second cluster with 1,000 busybox `sleep 3600` pods, whose main process is the
 *    userland's once the kubelet runs containers' commands through it.
 *
 * Prints progress and figures; asserts nothing. Knobs for a quick try: PODS, SESSIONS,
 * COMMANDS, IDLE_S, BUSYBOX=0 (skips the second cluster); KUBECTL picks the kubectl binary;
 * KUBESIM_CLI measures another build's idle figures (below).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type ClusterProcess, startCluster, treePids, treeUsage } from './support/cluster-process.js';
import { execOnce, openExec } from './support/exec-stream.js';
import { percentile, runConcurrent } from './support/http-load.js';
import { download, runKubectl, startPortForward } from './support/kubectl-process.js';
import { deploymentManifest } from './support/pod-manifest.js';
import { waitUntil } from './support/wait-until.js';

const NODES = 20;
const PODS = Number(process.env['PODS'] ?? 1000);
const SESSIONS = Number(process.env['SESSIONS'] ?? 100);
const COMMANDS = Number(process.env['COMMANDS'] ?? 100);
const ONE_SHOTS_PER_CLIENT = 10;
const TRANSFER_BYTES = 10 * 2 ** 20;
const TRANSFERS = 3;
const IDLE_MS = Number(process.env['IDLE_S'] ?? 15) * 1000;
const WITH_BUSYBOX = process.env['BUSYBOX'] !== '0';
const NGINX_ROOT = '/usr/share/nginx/html';
/** KUBESIM_CLI=<another build's dist/cli/main.js> (one from before the userland) measures only
 * the idle figures of that build: the "before" of "no more CPU than before". */
const OTHER_BUILD = process.env['KUBESIM_CLI'] ? resolve(process.env['KUBESIM_CLI']) : undefined;

/** The figures, printed as one table at the end (and each as it is measured). */
const figures: Array<{ figure: string; value: string }> = [];
function report(figure: string, value: string): void {
  figures.push({ figure, value });
  console.log(`  ${figure}: ${value}`);
}

const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
const sleep = (wait: number) => new Promise((done) => setTimeout(done, wait));

interface Cluster extends ClusterProcess {
  dir: string;
  kubeletPid: number;
  /** performance.now() when `kubesim up` was spawned: the origin of its periodic work. */
  spawnedAt: number;
}

/** The cluster's periodic work repeats every minute: informers resync every 60 s (the
 * kubelet's over all its pods), leases and node status every 10 s, all counted from each
 * process's start. An idle window compared with another must sit at the same point of that
 * minute, or one window may catch a resync of 1,000 pods that the other misses. */
const PERIOD_MS = 60_000;
let idlePhaseMs: number | undefined;

async function startBenchCluster(): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-streaming-'));
  const spawnedAt = performance.now();
  // This build's startCluster passes --insecure-http itself; another build is told explicitly.
  const cluster = await startCluster(dir, NODES, OTHER_BUILD ? ['--insecure-http'] : [], OTHER_BUILD);
  const { components } = (await (await fetch(`${cluster.url}/kubesim/v1/components`)).json()) as { components: Array<{ name: string; pid?: number }> };
  const kubeletPid = components.find((c) => c.name === 'kubelet')?.pid ?? 0;
  return { ...cluster, dir, kubeletPid, spawnedAt };
}

async function stopBenchCluster(cluster: Cluster): Promise<void> {
  await cluster.stop();
  rmSync(cluster.dir, { recursive: true, force: true });
}

/** cpuMeter starts counting the CPU of the API server, the kubelet and the whole cluster
 * (plus `extra` processes); the function it returns reads what each used since, in ms. */
function cpuMeter(cluster: Cluster, extra: Record<string, number> = {}): () => Record<string, number> {
  const watched: Record<string, number[]> = {
    'API server': [cluster.apiServerPid],
    kubelet: [cluster.kubeletPid],
    'whole cluster': treePids(cluster.upPid),
    ...Object.fromEntries(Object.entries(extra).map(([name, pid]) => [name, [pid]])),
  };
  const start = Object.fromEntries(Object.entries(watched).map(([name, pids]) => [name, treeUsage(pids).cpuMs]));
  return () => Object.fromEntries(Object.entries(watched).map(([name, pids]) => [name, treeUsage(pids).cpuMs - (start[name] ?? 0)]));
}

function reportCpu(what: string, used: Record<string, number>): void {
  report(
    `${what}: CPU`,
    Object.entries(used)
      .map(([name, cpuMs]) => `${name} ${(cpuMs / 1000).toFixed(2)} s`)
      .join(', '),
  );
}

type PodList = { items: Array<{ metadata: { name: string }; status?: { phase?: string; conditions?: Array<{ type: string; status: string }> } }> };

async function readyPodNames(cluster: Cluster, app: string): Promise<string[]> {
  const list = (await (await fetch(`${cluster.url}/api/v1/namespaces/default/pods?labelSelector=app%3D${app}`)).json()) as PodList;
  return list.items.filter((pod) => pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).map((pod) => pod.metadata.name);
}

/** rollOut creates a Deployment of PODS pods (`command` for its one container, if any) and
 * waits until all are Ready; returns their names. */
async function rollOut(cluster: Cluster, app: string, image: string, command?: string[]): Promise<string[]> {
  const manifest = deploymentManifest(app, PODS);
  const container = manifest.spec.template.spec.containers[0]!;
  Object.assign(container, { image }, command ? { command } : {});
  const started = performance.now();
  const created = await fetch(`${cluster.url}/apis/apps/v1/namespaces/default/deployments`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(manifest),
  });
  if (!created.ok) throw new Error(`create the Deployment ${app}: HTTP ${created.status}: ${await created.text()}`);
  let names: string[] = [];
  await waitUntil(
    () => `${PODS} ${image} pods Ready (${names.length} so far)`,
    async () => (names = await readyPodNames(cluster, app)).length >= PODS,
    240_000,
  );
  report(`${PODS} ${image} pods on ${NODES} nodes Ready`, `${((performance.now() - started) / 1000).toFixed(1)} s`);
  return names;
}

/** measureIdle settles the cluster, lets it rest 2 s, waits for the point of the cluster's
 * minute where the first idle window began, then reads its CPU over IDLE_MS, in two halves:
 * how far the halves differ shows the noise within the same run. */
async function measureIdle(cluster: Cluster, label: string): Promise<number> {
  const settled = await fetch(`${cluster.url}/apis/kubesim.io/v1alpha1/settle`, {
    method: 'POST',
    body: '{}',
    headers: { 'Content-Type': 'application/json' },
  });
  if (!settled.ok) throw new Error(`settle: HTTP ${settled.status}`);
  await sleep(2000);
  const phase = (performance.now() - cluster.spawnedAt) % PERIOD_MS;
  idlePhaseMs ??= phase;
  const wait = (idlePhaseMs - phase + PERIOD_MS) % PERIOD_MS;
  console.log(`idle: ${label} (${IDLE_MS / 1000} s, after ${(wait / 1000).toFixed(0)} s to reach the same point of the cluster's minute)`);
  await sleep(wait);
  const pids = treePids(cluster.upPid);
  const watched = { cluster: pids, 'API server': [cluster.apiServerPid], kubelet: [cluster.kubeletPid] };
  const read = () => Object.fromEntries(Object.entries(watched).map(([name, group]) => [name, treeUsage(group)]));
  const start = read();
  await sleep(IDLE_MS / 2);
  const middle = read();
  await sleep(IDLE_MS / 2);
  const end = read();
  const percent = (name: string, from: typeof start, to: typeof start, window: number) => ((to[name]!.cpuMs - from[name]!.cpuMs) / window) * 100;
  const whole = percent('cluster', start, end, IDLE_MS);
  const halves = [percent('cluster', start, middle, IDLE_MS / 2), percent('cluster', middle, end, IDLE_MS / 2)];
  const mb = (name: string) => (end[name]!.rssBytes / 2 ** 20).toFixed(0);
  report(
    `idle, ${label}`,
    `${whole.toFixed(2)} % of a core (halves ${halves.map((half) => half.toFixed(2)).join(' / ')}; ` +
      `API server ${percent('API server', start, end, IDLE_MS).toFixed(2)}, kubelet ${percent('kubelet', start, end, IDLE_MS).toFixed(2)}); ` +
      `RSS ${mb('cluster')} MB (API server ${mb('API server')}, kubelet ${mb('kubelet')})`,
  );
  return whole;
}

/** The shell sessions: SESSIONS pods, one `sh` each, COMMANDS round trips each, concurrently. */
async function benchShellSessions(cluster: Cluster, pods: string[]): Promise<void> {
  console.log(`exec: ${SESSIONS} concurrent sh sessions × ${COMMANDS} commands`);
  const opened = performance.now();
  const sessions = await Promise.all(pods.slice(0, SESSIONS).map((pod) => openExec(cluster.url, 'default', pod, ['sh'])));
  report(`exec: open ${SESSIONS} sessions at once`, ms(performance.now() - opened));
  const roundTrips: number[] = [];
  const cpu = cpuMeter(cluster);
  const started = performance.now();
  let answered = 0;
  const progress = setInterval(() => console.log(`  ...${answered} of ${SESSIONS * COMMANDS} round trips`), 5000);
  try {
    await Promise.all(
      sessions.map(async (session, s) => {
        for (let i = 0; i < COMMANDS; i++) {
          const sent = performance.now();
          await session.roundTrip(`echo ${s}-${i}\n`, `${s}-${i}\n`);
          roundTrips.push(performance.now() - sent);
          answered++;
        }
      }),
    );
  } finally {
    clearInterval(progress);
  }
  const wall = performance.now() - started;
  const used = cpu();
  const outcomes = await Promise.all(sessions.map((session) => session.finish()));
  const failed = outcomes.filter((outcome) => outcome.status.status !== 'Success');
  if (failed.length > 0) throw new Error(`${failed.length} sessions did not end with Success: ${JSON.stringify(failed[0]?.status)}`);
  roundTrips.sort((a, b) => a - b);
  report(`exec sessions: ${SESSIONS * COMMANDS} round trips, wall`, `${(wall / 1000).toFixed(2)} s (${Math.round((SESSIONS * COMMANDS) / (wall / 1000))}/s)`);
  report('exec sessions: round trip p50 / p99', `${ms(percentile(roundTrips, 50))} / ${ms(percentile(roundTrips, 99))}`);
  reportCpu('exec sessions', used);
  report(
    'exec sessions: CPU per round trip, API server / kubelet',
    `${ms(used['API server']! / roundTrips.length)} / ${ms(used['kubelet']! / roundTrips.length)}`,
  );
}

/** One-shot execs: SESSIONS clients, each running ONE_SHOTS_PER_CLIENT `echo N` execs in turn. */
async function benchOneShotExecs(cluster: Cluster, pods: string[]): Promise<void> {
  const count = SESSIONS * ONE_SHOTS_PER_CLIENT;
  console.log(`exec: ${count} one-shot execs, ${SESSIONS} at a time`);
  const latencies: number[] = [];
  const cpu = cpuMeter(cluster);
  const started = performance.now();
  await runConcurrent({
    count,
    concurrency: SESSIONS,
    task: async (i) => {
      const sent = performance.now();
      const result = await execOnce(cluster.url, 'default', pods[i % SESSIONS]!, ['echo', String(i)]);
      if (result.stdout !== `${i}\n` || result.status.status !== 'Success') throw new Error(`exec echo ${i}: ${JSON.stringify(result)}`);
      latencies.push(performance.now() - sent);
    },
  });
  const wall = performance.now() - started;
  const used = cpu();
  latencies.sort((a, b) => a - b);
  report(`one-shot execs: ${count}, wall`, `${(wall / 1000).toFixed(2)} s (${Math.round(count / (wall / 1000))}/s)`);
  report('one-shot execs: p50 / p99 (upgrade to close)', `${ms(percentile(latencies, 50))} / ${ms(percentile(latencies, 99))}`);
  reportCpu('one-shot execs', used);
}

/** The 10 MiB transfers: written with `kubectl exec -i`, fetched through `kubectl port-forward`. */
async function benchPortForward(cluster: Cluster, pod: string): Promise<void> {
  const kubeconfig = join(cluster.dir, 'kubeconfig');
  const payload = randomBytes(TRANSFER_BYTES);
  const mb = TRANSFER_BYTES / 2 ** 20;
  console.log(`port-forward: ${mb} MiB into ${pod} with kubectl exec -i, then ${TRANSFERS} downloads through kubectl port-forward`);
  const uploadCpu = cpuMeter(cluster);
  const uploaded = performance.now();
  await runKubectl(kubeconfig, ['exec', '-i', pod, '--', 'sh', '-c', `cat > ${NGINX_ROOT}/big.bin`], payload);
  const uploadMs = performance.now() - uploaded;
  report(`kubectl exec -i: ${mb} MiB on stdin into a file`, `${(uploadMs / 1000).toFixed(2)} s (${(mb / (uploadMs / 1000)).toFixed(1)} MB/s)`);
  reportCpu('kubectl exec -i upload', uploadCpu());

  const forward = await startPortForward(kubeconfig, `pod/${pod}`, 80);
  try {
    const cpu = cpuMeter(cluster, { kubectl: forward.pid });
    const rates: number[] = [];
    for (let i = 0; i < TRANSFERS; i++) {
      const started = performance.now();
      const bytes = await download(forward.localPort, '/big.bin');
      if (bytes !== TRANSFER_BYTES) throw new Error(`port-forward download ${i}: ${bytes} bytes, expected ${TRANSFER_BYTES}`);
      rates.push(mb / ((performance.now() - started) / 1000));
    }
    const used = cpu();
    report(`port-forward: ${TRANSFERS} × ${mb} MiB GET from nginx, MB/s each`, rates.map((rate) => rate.toFixed(0)).join(', '));
    reportCpu(`port-forward (${TRANSFERS} transfers)`, used);
  } finally {
    await forward.stop();
  }
}

async function nginxCluster(): Promise<void> {
  const cluster = await startBenchCluster();
  try {
    console.log(`cluster up: ${cluster.url}`);
    const pods = await rollOut(cluster, 'web', 'nginx:1.27');
    const untouched = await measureIdle(cluster, `${PODS} nginx pods, none exec'd into`);
    if (OTHER_BUILD) return;
    await benchShellSessions(cluster, pods);
    await benchOneShotExecs(cluster, pods);
    await benchPortForward(cluster, pods[0]!);
    const touched = await measureIdle(cluster, `${PODS} nginx pods, ${SESSIONS} of them exec'd into (their userland built)`);
    report("idle: exec'd ÷ untouched (same cluster, same pods)", `${(touched / untouched).toFixed(2)}`);
  } finally {
    await stopBenchCluster(cluster);
  }
}

async function busyboxCluster(): Promise<void> {
  const cluster = await startBenchCluster();
  try {
    console.log(`second cluster up: ${cluster.url}`);
    await rollOut(cluster, 'sleeper', 'busybox:1.36', ['sleep', '3600']);
    await measureIdle(cluster, `${PODS} busybox sleep 3600 pods`);
  } finally {
    await stopBenchCluster(cluster);
  }
}

async function main(): Promise<void> {
  if (OTHER_BUILD) console.log(`measuring ${OTHER_BUILD}: idle figures only`);
  console.log(`bench:streaming — kubesim up with ${NODES} nodes and ${PODS} pods; ${SESSIONS} exec sessions × ${COMMANDS} commands (Node ${process.version})`);
  const started = performance.now();
  await nginxCluster();
  if (WITH_BUSYBOX) await busyboxCluster();
  console.table(figures);
  console.log(`bench:streaming took ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

await main();
