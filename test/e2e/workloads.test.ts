/**
 * The rest of the control plane with real processes and the real kubectl, on one `kubesim up`
 * (clock ×10): a Job runs to completion, a Service gets its pods as endpoints, a StatefulSet
 * and a DaemonSet roll out, and `kubectl drain` respects a PodDisruptionBudget.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { runKubectl } from '../support/kubectl.js';
import { spawnKubesim, stopAllKubesim } from '../support/processes.js';

const STATEFUL_AND_DAEMON = `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: "postgres:16"}]}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent, image: "fluentd:1"}]}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  minAvailable: 2
  selector: {matchLabels: {app: web}}
`;

describe('workload kinds on a running cluster', () => {
  let dir: string;
  let kubeconfigPath: string;

  const kubectl = async (args: string[], stdin?: string) => {
    const result = await runKubectl('kubectl', args, { kubeconfigPath, cacheDir: join(dir, 'cache'), stdin, timeoutMs: 90_000 });
    expect(result.code, `kubectl ${args.join(' ')}\n${result.stdout}\n${result.stderr}`).toBe(0);
    return result.stdout;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubesim-workloads-'));
    kubeconfigPath = join(dir, 'kubeconfig');
    const up = spawnKubesim(['up', '--port', '0', '--kubeconfig', kubeconfigPath, '--speed', '10']);
    await up.waitForOutput(/kubesim is up/);
    await eventually(async () => expect((await kubectl(['get', 'nodes', '--no-headers'])).match(/\bReady\b/g)).toHaveLength(3), { timeoutMs: 20_000 });
  });

  afterAll(async () => {
    await stopAllKubesim();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs a Job to completion', async () => {
    expect(await kubectl(['create', 'job', 'pi', '--image=busybox'])).toMatch('job.batch/pi created');
    expect(await kubectl(['wait', '--for=condition=complete', 'job/pi', '--timeout=60s'])).toMatch('job.batch/pi condition met');
    expect(await kubectl(['get', 'job', 'pi', '--no-headers'])).toMatch(/pi\s+Complete\s+1\/1/);
  });

  it('publishes a Service’s ready pods as endpoints', async () => {
    await kubectl(['create', 'deployment', 'web', '--image=nginx', '--replicas=3']);
    expect(await kubectl(['expose', 'deployment', 'web', '--port=80'])).toMatch('service/web exposed');
    await kubectl(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    await eventually(
      async () => {
        const endpoints = await kubectl(['get', 'endpoints', 'web', '--no-headers']);
        expect(endpoints.match(/\d+\.\d+\.\d+\.\d+:80/g)).toHaveLength(3);
      },
      { timeoutMs: 20_000 },
    );
    expect(await kubectl(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web', '--no-headers'])).toMatch(/web-\w+\s+IPv4\s+80/);
  });

  it('rolls out a StatefulSet with bound claims and a DaemonSet on every node', async () => {
    await kubectl(['apply', '-f', '-'], STATEFUL_AND_DAEMON);
    expect(await kubectl(['rollout', 'status', 'statefulset/db', '--timeout=60s'])).toMatch(/partitioned roll out complete|rolling update complete/);
    expect(await kubectl(['get', 'pods', 'db-0', 'db-1', '--no-headers'])).toMatch(/db-1\s+1\/1\s+Running/);
    await eventually(async () => expect((await kubectl(['get', 'pvc', '--no-headers'])).match(/\bBound\b/g)).toHaveLength(2), { timeoutMs: 20_000 });
    expect(await kubectl(['rollout', 'status', 'daemonset/agent', '--timeout=60s'])).toMatch('daemon set "agent" successfully rolled out');
    expect(await kubectl(['get', 'ds', 'agent', '--no-headers'])).toMatch(/agent\s+3\s+3\s+3\s+3\s+3/);
  });

  it('drains a node without breaking the PodDisruptionBudget', async () => {
    const rows = (await kubectl(['get', 'pods', '-l', 'app=web', '-o', 'wide', '--no-headers'])).trim().split('\n');
    const node = rows[0]!.split(/\s+/)[6]!;
    const out = await kubectl(['drain', node, '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=90s']);
    expect(out).toMatch(`node/${node} drained`);
    expect(await kubectl(['get', 'node', node, '--no-headers'])).toMatch(/SchedulingDisabled/);
    await kubectl(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    expect((await kubectl(['get', 'pods', '-l', 'app=web', '-o', 'wide', '--no-headers'])).includes(` ${node} `)).toBe(false);
  });
});
