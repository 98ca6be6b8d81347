/**
 * docs/tutorials/14-configmaps-and-secrets.md, run as written on `kubesim up`: a ConfigMap and
 * a Secret mounted (items, defaultMode, subPath) and injected (envFrom, secretKeyRef) into a
 * busybox pod, read back with `kubectl exec`; the ConfigMap updated with apply shows in the
 * mounted file only after the kubelet's sync delay (cluster time), never in the environment
 * or the subPath file.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { commandResult, onlyCommands, commandOutput as output, type Step, TUTORIALS_DIR, tutorialSteps, useTutorialCluster } from './tutorial.js';

const steps = tutorialSteps('14-configmaps-and-secrets.md');
const MANIFEST = 'docs/examples/config-demo.yaml';

describe('tutorial 14: ConfigMaps and Secrets', () => {
  const cluster = useTutorialCluster();
  beforeAll(() => {
    // The page is followed from the repository root, where the manifest is.
    const dir = dirname(cluster.kubeconfig);
    mkdirSync(join(dir, 'docs/examples'), { recursive: true });
    copyFileSync(resolve(TUTORIALS_DIR, '..', 'examples/config-demo.yaml'), join(dir, MANIFEST));
  });

  it('mounts and injects the configuration, and updates only the mounted files, after the sync delay', async () => {
    expect(steps.map((s) => s.heading)).toEqual([
      'A ConfigMap and a Secret',
      'A ConfigMap and a Secret',
      'A pod that uses both',
      'Look inside',
      'Look inside',
      'Change the ConfigMap',
      'Change the ConfigMap',
      'What did not change',
      'Clean up',
    ]);
    const [create, decode, apply, look, readOnly, change, advance, unchanged, cleanup] = steps as [Step, Step, Step, Step, Step, Step, Step, Step, Step];

    const created = await cluster.run(create);
    expect(JSON.parse(output(created, 'kubectl get configmap'))).toEqual({ greeting: 'hello', log_level: 'info' });
    expect(JSON.parse(output(created, 'kubectl get secret'))).toEqual({ password: 'czNjcjN0' });
    expect(output(await cluster.run(decode), 'kubectl get secret')).toBe('s3cr3t');

    expect(output(await cluster.run(apply), 'kubectl wait').trim()).toBe('pod/config-demo condition met');

    const inside = await cluster.run(look);
    const listing = output(inside, 'kubectl exec config-demo -- ls');
    expect(listing).toMatch(/^\/etc\/config:\ntotal 8\n-rw-r--r-- +1 root +root +5 .* greeting\.txt\ndrwxr-xr-x .* logging\n\n/);
    expect(listing).toMatch(/\/etc\/secret:\ntotal 4\n-r-------- +1 root +root +6 .* password\n$/);
    expect(output(inside, 'kubectl exec config-demo -- cat /etc/config/greeting.txt')).toBe('hello');
    expect(output(inside, 'kubectl exec config-demo -- cat /etc/config/logging/level')).toBe('info');
    expect(output(inside, 'kubectl exec config-demo -- cat /etc/secret/password')).toBe('s3cr3t');
    expect(output(inside, 'kubectl exec config-demo -- env').trim().split('\n').sort()).toEqual([
      'CONFIG_greeting=hello',
      'CONFIG_log_level=info',
      'DB_PASSWORD=s3cr3t',
    ]);

    const refused = commandResult(await cluster.run(readOnly), 'kubectl exec');
    expect(refused.stderr).toContain("sh: can't create /etc/config/greeting.txt: Read-only file system\ncommand terminated with exit code 2");
    expect(refused.stdout).toBe('exit code 2\n');

    // Cluster time stands still: the API server has the new value, the file the old one.
    const changed = await cluster.run(change);
    const applied = commandResult(changed, 'kubectl create configmap');
    expect(applied.stdout).toBe('configmap/app-config configured\n');
    expect(applied.stderr).toContain('Warning: resource configmaps/app-config is missing the kubectl.kubernetes.io/last-applied-configuration annotation');
    expect(output(changed, 'kubectl exec')).toBe('hello');

    // A minute later the kubelet's next sync has rewritten the volume. The kubelet process
    // follows the server's clock over a watch, so an exec right after the advance may still be
    // a moment early: the reads are retried, the advance is not.
    expect(advance.commands.length).toBe(3);
    await cluster.run(onlyCommands(advance, 'npx kubesim clock advance'));
    const advanced = await eventually(
      async () => {
        const results = await cluster.run(onlyCommands(advance, 'kubectl exec'));
        expect(output(results, 'kubectl exec', 'first')).toBe('bonjour');
        return results;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    expect(output(advanced, 'kubectl exec', 'last')).toBe('debug');

    const still = await cluster.run(unchanged);
    expect(output(still, 'kubectl exec config-demo -- cat')).toBe('hello');
    expect(output(still, 'kubectl exec config-demo -- printenv')).toBe('hello\n');

    const cleaned = await cluster.run(cleanup);
    expect(cleaned.map((r) => r.stdout.trim())).toEqual(['pod "config-demo" deleted', 'configmap "app-config" deleted', 'secret "app-secret" deleted']);
  }, 180_000);
});
