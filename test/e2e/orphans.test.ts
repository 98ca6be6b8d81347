/**
 * A `kubesim up` killed with kill -9 takes its loops, scheduler and kubelets with it: none of
 * them may outlive it and run beside the next cluster's.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { eventually } from '../support/eventually.js';
import { request, trustKubeconfig } from '../support/http.js';
import { freePort } from '../support/ports.js';
import { spawnKubesim, stopAllKubesim } from '../support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'kubesim-orphans-'));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('kubesim up killed with SIGKILL', () => {
  afterAll(async () => {
    await stopAllKubesim();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves no component process behind, even when a new cluster takes its port at once', async () => {
    const port = await freePort();
    // Each cluster its own state, so its own CA: the old loops cannot talk to the next server,
    // and wait for it as they do while their own server starts.
    const upArgs = (name: string) =>
      ['up', '--port', String(port), '--kubeconfig', join(dir, `${name}.kubeconfig`), '--data-dir', join(dir, name)].concat([
        '--controllers',
        'replicaset,deployment',
        '--nodes',
        '1',
      ]);
    const kubeconfig = join(dir, 'first.kubeconfig');
    const up = spawnKubesim(upArgs('first'));
    await up.waitForOutput(/kubesim is up/);
    const server = String(parse(readFileSync(kubeconfig, 'utf8')).clusters[0].cluster.server);
    trustKubeconfig(readFileSync(kubeconfig, 'utf8'));
    const pids = await eventually(async () => {
      const { components } = (await request(`${server}/kubesim/v1/components`)).body as { components: Array<{ name: string; pid?: number; state: string }> };
      // The API server, the two loops, the scheduler and the kubelet: each its own process.
      expect(components.map((c) => [c.name, c.state])).toEqual(
        ['apiserver', 'replicaset', 'deployment', 'scheduler', 'kubelet'].map((name) => [name, 'running']),
      );
      return components.map((c) => c.pid!);
    });
    expect(pids.every(alive)).toBe(true);
    // At once: some loops are still starting, and miss the channel closing unless they look.
    up.child.kill('SIGKILL');
    await up.exited;
    // The old loops would reconnect to this server on their port and run beside its own.
    const next = spawnKubesim(upArgs('next'));
    await next.waitForOutput(/kubesim is up/);
    await eventually(() => expect(pids.filter(alive)).toEqual([]), { timeoutMs: 5_000, intervalMs: 100 });
  });
});
