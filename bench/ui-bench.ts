/**
 * bench:ui — the live view under churn: `kubesim up --nodes 20` with the page open in headless
 * Chromium, then a Deployment of 1,000 replicas rolled out, scaled to 500 and back, and 100 of
 * its pods deleted. For each phase: the store events the server folded into its pushes and the
 * object updates it sent (after coalescing) per second, the updates the page drew (after its
 * per-frame coalescing), and the page's frame times (interval between animation frames, and
 * the time its own drawing took). Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { type Deployment, deploymentDefinition } from '../apiserver/api/apps/deployment.js';
import { nodeDefinition } from '../apiserver/api/core/node.js';
import { podDefinition } from '../apiserver/api/core/pod.js';
import { createKubeClient, type KubeClient } from '../controllers/runtime/client/http-client.js';
import { type Chromium, launchChromium } from './support/chromium.js';
import { type ClusterProcess, processUsage, startCluster } from './support/cluster-process.js';
import { deploymentManifest } from './support/pod-manifest.js';
import { waitUntil } from './support/wait-until.js';

const NODES = 20;
const REPLICAS = Number(process.env['UI_BENCH_PODS'] ?? 1000);
const NAME = 'ui-bench';

/** The page's counters (app.js `window.kubesimLiveView.stats`). */
interface PageStats {
  messages: number;
  storeEvents: number;
  changesReceived: number;
  changesRendered: number;
  frames: number;
  renderMsTotal: number;
  maxRenderMs: number;
  frameIntervals: number[];
}

// The page's own context has the DOM; this file's types do not, so these run as expressions.
const inPage = <T>(page: Page, expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;
const readStats = (page: Page) => inPage<PageStats>(page, 'structuredClone(window.kubesimLiveView.stats)');
const chipCount = (page: Page, selector: string) =>
  inPage<number>(page, `document.querySelectorAll('.card.deployments[data-name="${NAME}"] ${selector}').length`);
/** readyChips counts the pods the page draws as ready under the bench's Deployment. */
const readyChips = (page: Page) => chipCount(page, '.pod.phase-ready');
const allChips = (page: Page) => chipCount(page, '.pod');

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Chromium's own accounting of the page's main thread (seconds), from the DevTools protocol. */
type BrowserMetrics = Record<'ScriptDuration' | 'LayoutDuration' | 'RecalcStyleDuration' | 'TaskDuration', number>;

async function browserMetrics(cdp: CDPSession): Promise<BrowserMetrics> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const value = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  return {
    ScriptDuration: value('ScriptDuration'),
    LayoutDuration: value('LayoutDuration'),
    RecalcStyleDuration: value('RecalcStyleDuration'),
    TaskDuration: value('TaskDuration'),
  };
}

/** measure runs one phase and turns the page's counters over it into figures. */
async function measure(page: Page, cdp: CDPSession, cluster: ClusterProcess, phase: () => Promise<void>): Promise<Record<string, string>> {
  await inPage(page, 'window.kubesimLiveView.startFrameMeter(), window.kubesimLiveView.stats.maxRenderMs = 0');
  const before = await readStats(page);
  const threadBefore = await browserMetrics(cdp);
  const cpuBefore = processUsage(cluster.apiServerPid).cpuMs;
  const started = performance.now();
  await phase();
  const seconds = (performance.now() - started) / 1000;
  const intervals = await inPage<number[]>(page, 'window.kubesimLiveView.stopFrameMeter()');
  const after = await readStats(page);
  const thread = await browserMetrics(cdp);
  const busy = (key: keyof BrowserMetrics) => `${(((thread[key] - threadBefore[key]) / seconds) * 100).toFixed(0)}%`;
  const rate = (key: 'storeEvents' | 'changesReceived' | 'changesRendered') => ((after[key] - before[key]) / seconds).toFixed(0);
  const frames = after.frames - before.frames;
  return {
    duration: `${seconds.toFixed(1)} s`,
    'store events/s pushed': rate('storeEvents'),
    'updates/s sent (server-coalesced)': rate('changesReceived'),
    'updates/s drawn (per-frame coalesced)': rate('changesRendered'),
    'WebSocket messages/s': ((after.messages - before.messages) / seconds).toFixed(0),
    'frame interval p50 / p95 / max': `${percentile(intervals, 50).toFixed(0)} / ${percentile(intervals, 95).toFixed(0)} / ${Math.max(0, ...intervals).toFixed(0)} ms`,
    'draw time per frame (mean / max)': `${frames ? ((after.renderMsTotal - before.renderMsTotal) / frames).toFixed(1) : '0'} / ${after.maxRenderMs.toFixed(1)} ms`,
    'page main thread busy (script / style / layout)': `${busy('TaskDuration')} (${busy('ScriptDuration')} / ${busy('RecalcStyleDuration')} / ${busy('LayoutDuration')})`,
    'API server CPU': `${((processUsage(cluster.apiServerPid).cpuMs - cpuBefore) / 1000).toFixed(1)} s`,
  };
}

async function nodesReady(client: KubeClient): Promise<boolean> {
  const nodes = await client.resource(nodeDefinition).list();
  return nodes.items.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length >= NODES;
}

async function scale(client: KubeClient, replicas: number): Promise<void> {
  const deployments = client.resource(deploymentDefinition);
  const current = await deployments.get('default', NAME);
  await deployments.update({ ...current, spec: { ...current.spec!, replicas } });
}

async function deleteSome(client: KubeClient, count: number): Promise<void> {
  const pods = (await client.resource(podDefinition).list({ namespace: 'default', labelSelector: `app=${NAME}` })).items.slice(0, count);
  const queue = [...pods];
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      for (let pod = queue.shift(); pod; pod = queue.shift()) await client.resource(podDefinition).delete('default', pod.metadata.name!);
    }),
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-ui-bench-'));
  let cluster: ClusterProcess | undefined;
  let browser: Chromium | undefined;
  try {
    console.log(`starting kubesim up --nodes ${NODES}`);
    cluster = await startCluster(dir, NODES);
    const client = createKubeClient({ server: cluster.url, userAgent: 'bench-ui' });
    await waitUntil(`${NODES} nodes Ready`, () => nodesReady(client), 120_000);
    browser = await launchChromium();
    const page = browser.page;
    await page.goto(`${cluster.url}/kubesim/ui/`);
    await page.locator('#connection[data-state="live"]').waitFor({ timeout: 30_000 });
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const until = (label: string, check: (page: Page) => Promise<boolean>) => waitUntil(label, () => check(page), 600_000);
    const results: Record<string, Record<string, string>> = {};
    results[`roll out ${REPLICAS} pods`] = await measure(page, cdp, cluster, async () => {
      await client.resource(deploymentDefinition).create(deploymentManifest(NAME, REPLICAS) as Deployment);
      await until(`${REPLICAS} ready pods drawn`, async (p) => (await readyChips(p)) >= REPLICAS);
    });
    results[`scale to ${REPLICAS / 2}`] = await measure(page, cdp, cluster, async () => {
      await scale(client, REPLICAS / 2);
      await until(`${REPLICAS / 2} pods drawn`, async (p) => (await allChips(p)) === REPLICAS / 2);
    });
    results[`scale back to ${REPLICAS}`] = await measure(page, cdp, cluster, async () => {
      await scale(client, REPLICAS);
      await until(`${REPLICAS} ready pods drawn`, async (p) => (await readyChips(p)) >= REPLICAS && (await allChips(p)) === REPLICAS);
    });
    results[`delete ${REPLICAS / 10} pods`] = await measure(page, cdp, cluster, async () => {
      await deleteSome(client, REPLICAS / 10);
      await until(`${REPLICAS} ready pods drawn again`, async (p) => (await readyChips(p)) >= REPLICAS && (await allChips(p)) === REPLICAS);
    });
    client.close();
    console.log(`\nui bench: the live view of kubesim up --nodes ${NODES} in headless Chromium (Deployment of ${REPLICAS})`);
    console.table(results);
    console.log('A 60 Hz display draws a frame every 16.7 ms; frame intervals well above that are visible stutter.');
  } finally {
    await browser?.close();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
