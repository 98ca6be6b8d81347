/**
 * The seed's HPA example, end to end with real processes and the real kubectl: a Deployment
 * with CPU requests, an autoscaling/v2 HPA at 70% with the seed's behavior block, simulated
 * load at 140% on 3 pods → 6 replicas at once; load removed → 6 for the whole 300 s
 * stabilization window, then down by at most 10% per 60 s. The clock runs ×30.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { createKubeClient, type KubeClient } from '../../controllers/runtime/client/http-client.js';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { eventually } from '../support/eventually.js';
import { runKubectl } from '../support/kubectl.js';
import { spawnKubesim, stopAllKubesim } from '../support/processes.js';

const SPEED = 30;
const NAMESPACE = 'production';

const MANIFESTS = readFileSync(resolve(import.meta.dirname, '../../docs/examples/hpa.yaml'), 'utf8');

describe('the seed HPA example', () => {
  let dir: string;
  let kubeconfigPath: string;
  let client: KubeClient;
  const replicaChanges: Array<{ replicas: number; atMs: number }> = [];
  const watch = new AbortController();

  const kubectl = async (args: string[], stdin?: string) => {
    const result = await runKubectl('kubectl', args, { kubeconfigPath, cacheDir: join(dir, 'cache'), stdin, timeoutMs: 60_000 });
    expect(result.code, `kubectl ${args.join(' ')}\n${result.stderr}`).toBe(0);
    return result.stdout;
  };
  const kubesim = async (...args: string[]) => {
    const proc = spawnKubesim([...args, '--kubeconfig', kubeconfigPath]);
    expect(await proc.exited, proc.output()).toBe(0);
    return proc.output();
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubesim-hpa-'));
    kubeconfigPath = join(dir, 'kubeconfig');
    const up = spawnKubesim(['up', '--port', '0', '--kubeconfig', kubeconfigPath, '--speed', String(SPEED)]);
    const [, url] = await up.waitForOutput(/API server (https?:\/\/\S+)/);
    client = createKubeClient({ server: url!, tls: loadKubeconfig(kubeconfigPath).tls, userAgent: 'e2e-hpa' });
    await eventually(async () => expect((await kubectl(['get', 'nodes', '--no-headers'])).match(/\bReady\b/g)).toHaveLength(3), { timeoutMs: 20_000 });
  });

  afterAll(async () => {
    watch.abort();
    client?.close();
    await stopAllKubesim();
    rmSync(dir, { recursive: true, force: true });
  });

  it('scales 3 → 6 at once under 140% load', async () => {
    await kubectl(['apply', '-f', '-'], MANIFESTS);
    await kubectl(['rollout', 'status', '-n', NAMESPACE, 'deployment/web-frontend', '--timeout=60s']);
    void (async () => {
      for await (const event of client.resource(deploymentDefinition).watch({ namespace: NAMESPACE, signal: watch.signal })) {
        const replicas = event.object.spec?.replicas ?? 0;
        if (replicaChanges.at(-1)?.replicas !== replicas) replicaChanges.push({ replicas, atMs: performance.now() });
      }
    })().catch(() => undefined);
    // 140% of a 200m request on each of 3 pods.
    expect(await kubesim('load', 'deployment/web-frontend', '-n', NAMESPACE, '--cpu', '840m')).toMatch(/load set to cpu 840m/);
    await eventually(() => expect(replicaChanges.at(-1)?.replicas).toBe(6), { timeoutMs: 30_000 });
    expect(replicaChanges.map((c) => c.replicas)).toEqual([3, 6]);
    await kubectl(['rollout', 'status', '-n', NAMESPACE, 'deployment/web-frontend', '--timeout=60s']);
  });

  it('shows usage in kubectl top and the decision in get/describe hpa', async () => {
    await eventually(
      async () => {
        const top = await kubectl(['top', 'pods', '-n', NAMESPACE, '--no-headers']);
        const cpus = top
          .trim()
          .split('\n')
          .map((line) => Number(line.split(/\s+/)[1]?.replace('m', '')));
        expect(cpus).toHaveLength(6);
        for (const cpu of cpus) expect(cpu).toBeGreaterThan(120); // 840m over 6 pods, plus idle usage
      },
      { timeoutMs: 20_000 },
    );
    // REPLICAS is the HPA's status.currentReplicas, refreshed at its next sync.
    await eventually(
      async () => {
        const hpa = await kubectl(['get', 'hpa', '-n', NAMESPACE]);
        expect(hpa).toMatch(/web-frontend-hpa\s+Deployment\/web-frontend\s+cpu: \d+%\/70%\s+2\s+10\s+6/);
      },
      { timeoutMs: 20_000 },
    );
    const describe = await kubectl(['describe', 'hpa', '-n', NAMESPACE, 'web-frontend-hpa']);
    expect(describe).toMatch(/AbleToScale\s+True/);
    expect(describe).toMatch(/ScalingActive\s+True\s+ValidMetricFound/);
    expect(describe).toMatch(/SuccessfulRescale.*New size: 6; reason: cpu resource utilization \(percentage of request\) above target/);
  });

  it('holds 6 for the stabilization window, then steps down by at most 10% a minute', async () => {
    const offAt = performance.now();
    await kubesim('load', 'deployment/web-frontend', '-n', NAMESPACE, '--off');
    await eventually(() => expect(replicaChanges.at(-1)?.replicas).toBe(2), { timeoutMs: 60_000, intervalMs: 200 });
    const downs = replicaChanges.slice(2);
    expect(downs.map((c) => c.replicas)).toEqual([5, 4, 3, 2]);
    const clusterSeconds = (fromMs: number, toMs: number) => ((toMs - fromMs) / 1000) * SPEED;
    // The first step waits out the 300 s window (less a scrape interval of slack)...
    expect(clusterSeconds(offAt, downs[0]!.atMs)).toBeGreaterThan(270);
    // ...and each further step waits for the 60 s policy period.
    for (let i = 1; i < downs.length; i++) expect(clusterSeconds(downs[i - 1]!.atMs, downs[i]!.atMs)).toBeGreaterThan(50);
  });
});
