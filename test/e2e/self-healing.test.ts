/**
 * The whole cluster, end to end, with real processes and the real kubectl: `kubesim up`
 * (API server, every control loop, the scheduler, three simulated nodes), a Deployment
 * created the way a presenter would, and the seed's self-healing drill — a node stops, its
 * pods are evicted and replaced on the other nodes. The clock runs ×30 so the 40 s node
 * grace period and the 300 s default tolerations pass in seconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { runKubectl } from '../support/kubectl.js';
import { spawnKubesim, stopAllKubesim } from '../support/processes.js';

interface PodRow {
  name: string;
  ready: string;
  status: string;
  node: string;
}

describe('a kubesim cluster heals itself', () => {
  let dir: string;
  let kubeconfigPath: string;

  const kubectl = async (...args: string[]) => {
    const result = await runKubectl('kubectl', args, { kubeconfigPath, cacheDir: join(dir, 'cache'), timeoutMs: 60_000 });
    expect(result.code, `kubectl ${args.join(' ')}\n${result.stderr}`).toBe(0);
    return result.stdout;
  };

  const pods = async (): Promise<PodRow[]> =>
    (await kubectl('get', 'pods', '-l', 'app=web', '-o', 'wide', '--no-headers'))
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [name = '', ready = '', status = '', , , , node = ''] = line.split(/\s+/);
        return { name, ready, status, node };
      });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubesim-heal-'));
    kubeconfigPath = join(dir, 'kubeconfig');
    const up = spawnKubesim(['up', '--port', '0', '--kubeconfig', kubeconfigPath, '--speed', '30']);
    await up.waitForOutput(/kubesim is up/);
    await eventually(async () => expect((await kubectl('get', 'nodes', '--no-headers')).match(/\bReady\b/g)).toHaveLength(3), { timeoutMs: 20_000 });
  });

  afterAll(async () => {
    await stopAllKubesim();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs a Deployment created with kubectl: three pods Running 1/1 on simulated nodes', async () => {
    expect(await kubectl('create', 'deployment', 'web', '--image=nginx', '--replicas=3')).toMatch('deployment.apps/web created');
    expect(await kubectl('rollout', 'status', 'deployment/web', '--timeout=60s')).toMatch('deployment "web" successfully rolled out');
    const rows = await pods();
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({ ready: '1/1', status: 'Running' });
      expect(row.node).toMatch(/^node-\d$/);
    }
  });

  it('replaces the pods of a stopped node on the other nodes', async () => {
    const victim = (await pods())[0]!.node;
    const stop = spawnKubesim(['node', 'stop', victim, '--kubeconfig', kubeconfigPath]);
    expect(await stop.exited).toBe(0);
    await eventually(async () => expect(await kubectl('get', 'node', victim, '--no-headers')).toMatch(/NotReady/), { timeoutMs: 30_000 });
    await eventually(
      async () => {
        const rows = await pods();
        expect(rows.filter((r) => r.node === victim)).toHaveLength(0);
        expect(rows.filter((r) => r.status === 'Running' && r.ready === '1/1')).toHaveLength(3);
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    const start = spawnKubesim(['node', 'start', victim, '--kubeconfig', kubeconfigPath]);
    expect(await start.exited).toBe(0);
    await eventually(async () => expect(await kubectl('get', 'node', victim, '--no-headers')).toMatch(/\bReady\b/), { timeoutMs: 30_000 });
  });
});
