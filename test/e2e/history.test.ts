/**
 * `kubesim trace` and `kubesim watch` against a real `kubesim up` (every loop its own process,
 * cluster clock at 10×): a user scales a Deployment; `watch` prints each write as it happens,
 * naming the loop that made it, and `trace` prints the causal chain from the user's change
 * down to the kubelets, ending with the state it converged to.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { createKubeClient, type KubeClient } from '../../controllers/runtime/client/http-client.js';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
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

describe('kubesim trace and kubesim watch', () => {
  let dir: string;
  let kubeconfig: string;
  let user: KubeClient;
  let watch: KubesimProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubesim-history-'));
    kubeconfig = join(dir, 'kubeconfig');
    const up = spawnKubesim(['up', '--port', '0', '--speed', '10', '--kubeconfig', kubeconfig]);
    const [, url] = await up.waitForOutput(/API server (https?:\/\/\S+)/);
    // The user's writes look like kubectl's: its User-Agent, the kubeconfig's token.
    user = createKubeClient({ server: url!, userAgent: 'kubectl/v1.32.0 (linux/amd64)', tls: loadKubeconfig(kubeconfig).tls });
    watch = spawnKubesim(['watch', '-n', 'default', '--kubeconfig', kubeconfig], { NO_COLOR: '' });
    // Every loop starts as its own process: on a busy machine the first ones take a while.
    await watch.waitForOutput(/^TIME\s+WHO\s+WHAT$/m, 60_000);
    const readyReplicas = async (count: number) =>
      eventually(async () => expect((await user.resource(deploymentDefinition).get('default', 'web')).status?.readyReplicas).toBe(count), {
        timeoutMs: 30_000,
      });
    await user.resource(deploymentDefinition).create(deployment as never);
    await readyReplicas(3);
    await user.resource(deploymentDefinition).patch('default', 'web', { spec: { replicas: 5 } }, { type: 'merge' });
    await readyReplicas(5);
  }, 150_000);

  afterAll(async () => {
    user?.close();
    await stopAllKubesim();
    rmSync(dir, { recursive: true, force: true });
  });

  it('watch prints one line per change: time, the loop or client, what changed — without colour off a TTY', async () => {
    const line = (who: string, what: string) => new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3}  ${who}\\s+${what}`, 'm');
    await watch.waitForOutput(line('kubectl', 'scaled deployment default/web spec\\.replicas 3→5'));
    const output = watch.output();
    expect(output).toMatch(line('kubectl', 'created deployment default/web'));
    expect(output).toMatch(line('deployment', 'created replicaset default/web-'));
    expect(output).toMatch(line('replicaset', 'created pod default/web-'));
    expect(output).toMatch(line('scheduler', 'bound pod default/web-\\S+ to node-\\d'));
    expect(output).toMatch(line('kubelet/node-\\d', 'reported pod default/web-\\S+ status: '));
    // Heartbeats (Leases) and Events are left out; no ANSI colour when stdout is not a terminal.
    expect(output).not.toMatch(/lease|created event/);
    expect(output).not.toContain('\u001b[');
  });

  it("trace prints the chain from the user's scale down to the kubelets, and where it converged", async () => {
    const proc = spawnKubesim(['trace', 'deployment/web', '--kubeconfig', kubeconfig]);
    expect(await proc.exited, proc.output()).toBe(0);
    const lines = proc.output().trimEnd().split('\n');
    expect(lines[0]).toBe('kubectl (user) scaled deployment default/web spec.replicas 3→5');
    const text = lines.join('\n');
    expect(text).toMatch(/^[├└] deployment controller set replicaset web-\S+ spec\.replicas 3→5( \(\+\d+ more\))?$/m);
    expect(text.match(/^[ │]+[├└] replicaset controller created pod web-\S+$/gm)).toHaveLength(2);
    expect(text.match(/^[ │]+[├└] scheduler bound pod web-\S+ to node-\d$/gm)).toHaveLength(2);
    expect(text).toMatch(/^[ │]+[├└] kubelet node-\d reported pod web-\S+ status: .*Running/m);
    expect(lines.at(-1)).toBe('converged: 5/5 ready');
  });

  it('trace names an object without history', async () => {
    const proc = spawnKubesim(['trace', 'deployment/nothing', '--kubeconfig', kubeconfig]);
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toMatch(/no history for deployment\/nothing in namespace default/);
  });
});
