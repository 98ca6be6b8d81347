/**
 * Chaos on a real `kubesim up`, through the real CLI: a killed loop is restarted by the
 * supervisor and catches up (a pod deleted while it was gone is replaced), and a partitioned
 * loop's requests fail while the partition lasts (the fault log shows them) and the cluster
 * converges once it is over.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { request, trustKubeconfig } from '../support/http.js';
import { deployment, paths } from '../support/objects.js';
import { spawnKubesim, stopAllKubesim } from '../support/processes.js';

interface PodView {
  name: string;
  ready: boolean;
  terminating: boolean;
}

describe('kubesim chaos', () => {
  let dir: string;
  let kubeconfig: string;
  let url: string;

  /** kubesim runs a kubesim command against the cluster and resolves with its output. */
  const kubesim = async (...args: string[]): Promise<string> => {
    const run = spawnKubesim([...args, '--kubeconfig', kubeconfig]);
    const code = await run.exited;
    expect(code, `kubesim ${args.join(' ')}\n${run.output()}`).toBe(0);
    return run.output();
  };

  const pods = async (app: string): Promise<PodView[]> => {
    const list = await request(`${url}${paths.pods()}?labelSelector=app%3D${app}`);
    return list.body.items.map((pod: any) => ({
      name: pod.metadata.name,
      ready: pod.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True') ?? false,
      terminating: Boolean(pod.metadata.deletionTimestamp),
    }));
  };

  /** settled waits until `app` has `replicas` ready pods, none of them `gone`. */
  const settled = (app: string, replicas: number, gone: string[] = []) =>
    eventually(
      async () => {
        const live = (await pods(app)).filter((pod) => !pod.terminating);
        expect(live.filter((pod) => pod.ready)).toHaveLength(replicas);
        for (const name of gone) expect(live.map((pod) => pod.name)).not.toContain(name);
      },
      { timeoutMs: 40_000, intervalMs: 200 },
    );

  const deletePod = async (name: string) => expect((await request(`${url}${paths.pod(name)}`, { method: 'DELETE' })).status).toBe(200);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubesim-chaos-'));
    kubeconfig = join(dir, 'kubeconfig');
    const up = spawnKubesim(['up', '--port', '0', '--kubeconfig', kubeconfig, '--controllers', 'replicaset,deployment,garbage-collector,node-lifecycle']);
    url = (await up.waitForOutput(/API server (https?:\/\/\S+)/))[1]!;
    trustKubeconfig(readFileSync(kubeconfig, 'utf8'));
    expect((await request(`${url}${paths.deployments()}`, { method: 'POST', body: deployment('web', 2) })).status).toBe(201);
    await settled('web', 2);
  }, 90_000);

  afterAll(async () => {
    await stopAllKubesim();
    rmSync(dir, { recursive: true, force: true });
  });

  it('kill: the supervisor restarts the loop, which replaces a pod deleted while it was down', async () => {
    const out = await kubesim('chaos', 'kill', 'replicaset');
    expect(out).toMatch(/^killed replicaset \(pid \d+\) with SIGKILL\nExpect: the supervisor restarts it in ~1 s/);
    expect(out).toMatch(/reconciles every ReplicaSet again/);
    const victim = (await pods('web'))[0]!.name;
    await deletePod(victim);
    await eventually(async () => expect(await kubesim('status')).toMatch(/replicaset\s+running \(pid \d+\), 1 restart\b/), {
      timeoutMs: 20_000,
      intervalMs: 300,
    });
    await settled('web', 2, [victim]);
  }, 60_000);

  it("partition --for: the loop's requests fail meanwhile (fault log), and the cluster converges after", async () => {
    await request(`${url}/apis/kubesim.io/v1alpha1/faults/injected`, { method: 'DELETE' });
    const out = await kubesim('chaos', 'partition', 'replicaset', '--for', '4s');
    expect(out).toMatch(/^partitioned replicaset from the API server for 4 s of cluster time \(fault rule (fault-\d+)/);
    const ruleId = /fault rule (fault-\d+)/.exec(out)![1];
    const victim = (await pods('web'))[0]!.name;
    await deletePod(victim);
    await eventually(
      async () => {
        const injected = (await request(`${url}/apis/kubesim.io/v1alpha1/faults/injected`)).body.items;
        const failed = injected.filter((f: any) => f.ruleId === ruleId && f.injected.some((e: any) => e.type === 'error' && e.code === 503));
        expect(failed.length).toBeGreaterThan(0);
        for (const fault of failed) expect(fault.request.userAgent).toMatch(/^kubesim-replicaset-controller\//);
      },
      { timeoutMs: 10_000, intervalMs: 200 },
    );
    await settled('web', 2, [victim]);
    const rules = (await request(`${url}/apis/kubesim.io/v1alpha1/faults`)).body.items;
    expect(rules.find((r: any) => r.id === ruleId)?.status.active).toBe(false);
  }, 60_000);

  it('names what is wrong: an unknown loop, an unknown action', async () => {
    const unknown = spawnKubesim(['chaos', 'kill', 'replicaset-x', '--kubeconfig', kubeconfig]);
    expect(await unknown.exited).toBe(1);
    expect(unknown.output()).toMatch(/component "replicaset-x" not found; components: replicaset, deployment/);
    const badAction = spawnKubesim(['chaos', 'explode', '--kubeconfig', kubeconfig]);
    expect(await badAction.exited).toBe(2);
    expect(badAction.output()).toMatch(/unknown chaos action "explode"/);
  });
});
