/**
 * `kubesim up` end to end: the API server, the ReplicaSet, Deployment and HPA loops, the shared
 * controller-manager, the scheduler and the kubelets, each a supervised process; a learner
 * stops a loop (alone, or one inside the shared process), sees nothing converge, starts it
 * again and sees the cluster heal; a killed API server comes back with its data; `kubesim
 * down` stops everything.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { replicaSetDefinition } from '../../apiserver/api/apps/replica-set.js';
import { type ConfigMap, configMapDefinition } from '../../apiserver/api/core/config-map.js';
import { nodeDefinition } from '../../apiserver/api/core/node.js';
import { podDefinition } from '../../apiserver/api/core/pod.js';
import { clusterRoleDefinition } from '../../apiserver/api/rbac/index.js';
import { createKubeClient, type KubeClient } from '../../controllers/runtime/client/http-client.js';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { eventually } from '../support/eventually.js';
import { fetchAs, trustKubeconfig } from '../support/http.js';
import { type KubesimProcess, spawnKubesim, stopAllKubesim } from '../support/processes.js';
import { parsePrometheusText, sampleValue } from '../support/prometheus-text.js';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } },
  },
};

const configMap = (name: string): ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });
const ownerRef = (owner: ConfigMap) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: owner.metadata.name!, uid: owner.metadata.uid! });

async function run(args: string[]): Promise<string> {
  const proc = spawnKubesim(args);
  const code = await proc.exited;
  expect(code, proc.output()).toBe(0);
  return proc.output();
}

describe('kubesim up', () => {
  let dir: string;
  let up: KubesimProcess;
  let client: KubeClient;
  let kubeconfig: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubesim-up-'));
    kubeconfig = join(dir, 'kubeconfig');
    up = spawnKubesim(['up', '--port', '0', '--kubeconfig', kubeconfig]);
    const [, url] = await up.waitForOutput(/API server (https?:\/\/\S+)/);
    client = createKubeClient({ server: url!, tls: loadKubeconfig(kubeconfig).tls, userAgent: 'e2e-test' });
  });

  afterAll(async () => {
    client.close();
    await stopAllKubesim();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints its banner once the simulated nodes are Ready', async () => {
    // beforeAll waited for the banner; nothing more is awaited here.
    const nodes = await client.resource(nodeDefinition).list();
    const ready = nodes.items.filter((node) => node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
    expect(ready.map((node) => node.metadata.name).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    expect(up.output()).toMatch(/API ready in \d+ ms, 3 node\(s\) Ready in \d+ ms/);
  });

  it('keeps the cluster CA in its state folder and publishes it in every namespace', async () => {
    // The data dir is temporary; the CA is not, so the next `up` here reads it instead of making one.
    const caPem = readFileSync(join(dir, 'pki', 'ca.crt'), 'utf8');
    await eventually(async () => {
      const published = await client.resource(configMapDefinition).get('default', 'kube-root-ca.crt');
      expect(published.data).toEqual({ 'ca.crt': caPem });
    });
  });

  it('refuses a second kubesim up for the same folder, leaving the first its kubeconfig', async () => {
    const before = readFileSync(kubeconfig, 'utf8');
    const second = spawnKubesim(['up', '--port', '0', '--kubeconfig', kubeconfig]);
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/another kubesim up \(pid \d+\) is running with its kubeconfig in .*Stop it with `npx kubesim down`/);
    expect(readFileSync(kubeconfig, 'utf8')).toBe(before);
  });

  it('shows which process each loop lives in: its own, or the shared controller-manager', async () => {
    const out = await eventually(async () => {
      const text = await run(['status', '--kubeconfig', kubeconfig]);
      expect(text).toMatch(/garbage-collector\s+running \(in controller-manager, pid \d+\)/);
      return text;
    });
    for (const name of ['apiserver', 'replicaset', 'deployment', 'hpa', 'controller-manager', 'scheduler', 'kubelet']) {
      expect(out).toMatch(new RegExp(`^${name}\\s+running \\(pid \\d+\\)`, 'm'));
    }
    expect(out).toMatch(/namespace\s+running \(in controller-manager, pid \d+\)/);
  });

  it("lists each process's metrics URL, where it serves its workqueue_* and rest_client_* metrics", async () => {
    const out = await eventually(async () => {
      const text = await run(['status', '--kubeconfig', kubeconfig]);
      for (const name of ['apiserver', 'replicaset', 'controller-manager', 'scheduler', 'kubelet']) {
        // The API server's own /metrics is on its HTTPS port; the components serve theirs over HTTP.
        expect(text).toMatch(new RegExp(`^${name}\\s+running \\(pid \\d+\\), metrics https?://127\\.0\\.0\\.1:\\d+/metrics`, 'm'));
      }
      return text;
    });
    const urlOf = (name: string) => out.match(new RegExp(`^${name}\\s+.*, metrics (\\S+)`, 'm'))![1]!;
    trustKubeconfig(readFileSync(kubeconfig, 'utf8'));
    const scrape = async (name: string) => parsePrometheusText(await (await fetchAs(urlOf(name))).text());
    await eventually(async () => {
      const replicaset = await scrape('replicaset');
      expect(replicaset.samples.some((s) => s.name === 'workqueue_adds_total' && s.labels['name'] === 'replicaset')).toBe(true);
      expect(replicaset.types.get('workqueue_queue_duration_seconds')).toBe('histogram');
      expect(replicaset.types.get('workqueue_longest_running_processor_seconds')).toBe('gauge');
      expect(sampleValue(replicaset, 'rest_client_requests_total', { method: 'GET', code: '200' })).toBeGreaterThan(0);
      const manager = await scrape('controller-manager');
      expect(sampleValue(manager, 'workqueue_adds_total', { name: 'namespace' })).toBeGreaterThan(0);
      expect(sampleValue(await scrape('apiserver'), 'apiserver_longrunning_requests', { verb: 'WATCH' })).toBeGreaterThan(0);
    });
    expect(await (await fetch(urlOf('scheduler').replace(/metrics$/, 'healthz'))).text()).toBe('ok');
  });

  it('fills the default view role by aggregation in the shared controller-manager', async () => {
    // view gathers kubesim's own reads (kubesim:aggregate-to-view, sorted first) and kube's.
    const rulesOf = async (name: string) => (await client.resource(clusterRoleDefinition).get('', name)).rules ?? [];
    const source = [...(await rulesOf('kubesim:aggregate-to-view')), ...(await rulesOf('system:aggregate-to-view'))];
    await eventually(async () => expect(await rulesOf('view')).toEqual(source));
  });

  it('stops one loop of the shared process while its other loops run on', async () => {
    expect(await run(['stop', 'garbage-collector', '--kubeconfig', kubeconfig])).toMatch(/garbage-collector\s+stopped \(in controller-manager/);
    const out = await run(['status', '--kubeconfig', kubeconfig]);
    expect(out).toMatch(/^controller-manager\s+running/m);
    expect(out).toMatch(/namespace\s+running \(in controller-manager/);
    // With the garbage collector stopped, an orphaned dependent stays.
    const owner = await client.resource(configMapDefinition).create(configMap('owner'));
    await client
      .resource(configMapDefinition)
      .create({ ...configMap('dependent'), metadata: { ...configMap('dependent').metadata, ownerReferences: [ownerRef(owner)] } });
    await client.resource(configMapDefinition).delete('default', 'owner');
    expect(await run(['start', 'garbage-collector', '--kubeconfig', kubeconfig])).toMatch(/garbage-collector\s+running \(in controller-manager/);
    await eventually(
      async () =>
        expect((await client.resource(configMapDefinition).list({ namespace: 'default' })).items.map((c) => c.metadata.name)).not.toContain('dependent'),
      {
        timeoutMs: 15_000,
      },
    );
  });

  it('restarts a killed API server on the same port with everything it acknowledged', async () => {
    await client.resource(configMapDefinition).create(configMap('survivor'));
    const before = await run(['status', '--kubeconfig', kubeconfig]);
    const pid = Number(before.match(/^apiserver\s+running \(pid (\d+)\)/m)?.[1]);
    process.kill(pid, 'SIGKILL');
    await up.waitForOutput(/supervisor warn {2}apiserver was killed by SIGKILL; restarting in 1\.0s/);
    await eventually(async () => expect((await client.resource(configMapDefinition).get('default', 'survivor')).metadata.name).toBe('survivor'), {
      timeoutMs: 60_000,
    });
    await eventually(async () => expect(await run(['status', '--kubeconfig', kubeconfig])).toMatch(/^apiserver\s+running \(pid \d+\), 1 restart/m));
  });

  it('reports every control loop running', async () => {
    await eventually(async () => {
      const out = await run(['status', '--kubeconfig', kubeconfig]);
      for (const name of ['replicaset', 'deployment', 'garbage-collector', 'namespace']) expect(out).toMatch(new RegExp(`${name}\\s+running`));
    });
  });

  it('logs JSON lines with named levels to a file per process, the API server and the loops alike', async () => {
    const entries = (name: string) =>
      readFileSync(join(dir, 'logs', `${name}.log`), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    await eventually(() => {
      expect(entries('apiserver')).toContainEqual(expect.objectContaining({ component: 'apiserver', level: 'info', msg: expect.stringMatching(/listening/i) }));
      expect(entries('replicaset')).toContainEqual(expect.objectContaining({ component: 'replicaset-controller', level: 'info', msg: 'Starting workers' }));
    });
    for (const entry of [...entries('apiserver'), ...entries('replicaset')]) {
      expect(entry).toMatchObject({
        time: expect.any(Number),
        level: expect.stringMatching(/^(debug|info|warn|error|fatal)$/),
        component: expect.any(String),
        msg: expect.any(String),
      });
    }
    // The terminal shows short lines, never the JSON.
    expect(up.output()).not.toMatch(/^\{/m);
  });

  it('stops converging while the ReplicaSet loop is stopped and heals when it starts again', async () => {
    expect(await run(['stop', 'replicaset', '--kubeconfig', kubeconfig])).toMatch(/replicaset\s+stopped/);
    await client.resource(deploymentDefinition).create(deployment as never);
    // The Deployment loop still acts: it creates the ReplicaSet...
    await eventually(async () => expect((await client.resource(replicaSetDefinition).list({ namespace: 'default' })).items).toHaveLength(1));
    // ...but nobody turns it into pods.
    expect((await client.resource(podDefinition).list({ namespace: 'default' })).items).toHaveLength(0);
    expect(await run(['start', 'replicaset', '--kubeconfig', kubeconfig])).toMatch(/replicaset\s+running/);
    await eventually(async () => expect((await client.resource(podDefinition).list({ namespace: 'default' })).items).toHaveLength(3), { timeoutMs: 15_000 });
  });

  it('restarts a crashed loop with backoff and says so', async () => {
    const before = await run(['status', '--kubeconfig', kubeconfig]);
    const pid = Number(before.match(/deployment\s+running \(pid (\d+)\)/)?.[1]);
    process.kill(pid, 'SIGKILL');
    // A warning, so a short line (no colour: the output is a pipe here).
    await up.waitForOutput(/^\d\d:\d\d:\d\d supervisor warn {2}deployment was killed by SIGKILL; restarting in 1\.0s/m);
    await eventually(async () => expect(await run(['status', '--kubeconfig', kubeconfig])).toMatch(/deployment\s+running \(pid \d+\), 1 restart/));
  });

  it('cascades a Deployment delete to its ReplicaSets and pods', async () => {
    await client.resource(deploymentDefinition).delete('default', 'web');
    await eventually(
      async () => {
        expect((await client.resource(replicaSetDefinition).list({ namespace: 'default' })).items).toHaveLength(0);
        expect((await client.resource(podDefinition).list({ namespace: 'default' })).items).toHaveLength(0);
      },
      { timeoutMs: 15_000 },
    );
  });

  it('stops everything on kubesim down', async () => {
    await run(['down', '--kubeconfig', kubeconfig]);
    expect(await up.exited).toBe(0);
    expect(up.output()).toMatch(/kubesim: stopped/);
  });
});
