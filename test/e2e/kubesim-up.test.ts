/**
 * `kubesim up` end to end: the API server plus one supervised process per control loop; a
 * learner stops the ReplicaSet loop, sees nothing converge, starts it again and sees the
 * cluster heal; `kubesim down` stops everything.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { replicaSetDefinition } from '../../apiserver/api/apps/replica-set.js';
import { podDefinition } from '../../apiserver/api/core/pod.js';
import { createKubeClient, type KubeClient } from '../../controllers/runtime/client/http-client.js';
import { eventually } from '../support/eventually.js';
import { type KubesimProcess, spawnKubesim, stopAllKubesim } from '../support/processes.js';

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
    const [, url] = await up.waitForOutput(/API server (http:\/\/\S+)/);
    client = createKubeClient({ server: url!, userAgent: 'e2e-test' });
  });

  afterAll(async () => {
    client.close();
    await stopAllKubesim();
    rmSync(dir, { recursive: true, force: true });
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
