/**
 * Jobs and CronJobs through the real kubectl: create job, wait --for=condition=complete,
 * logs job/x, create cronjob, create job --from=cronjob/x, get jobs,cronjobs.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import { batchClusterOptions } from '../support/batch-cluster.js';
import { findKubectlBinaries, runKubectl } from '../support/kubectl.js';
import { useTestCluster } from '../support/use-test-cluster.js';

describe.each(findKubectlBinaries().map((binary) => [binary.label, binary] as const))('batch/v1 with %s', (_label, binary) => {
  const cluster = useTestCluster({ lifetime: 'file', ...batchClusterOptions({ names: ['job', 'cronjob'], clock: createRealClock({ speed: 60 }) }) });
  const kubectl = (args: string[], timeoutMs?: number) =>
    runKubectl(binary, args, { kubeconfigPath: cluster.kubeconfigPath, cacheDir: join(cluster.dir, `cache-${binary.minor}`), timeoutMs });

  it('create job, wait for Complete, read its logs', async () => {
    const created = await kubectl(['create', 'job', 'hello', '--image=busybox', '--', 'echo', 'hi']);
    expect(created.stderr).toBe('');
    expect(created.stdout).toBe('job.batch/hello created\n');
    const waited = await kubectl(['wait', '--for=condition=complete', 'job/hello', '--timeout=20s'], 25_000);
    expect(waited.stdout).toBe('job.batch/hello condition met\n');
    const logs = await kubectl(['logs', 'job/hello']);
    expect(logs).toMatchObject({ code: 0, stdout: 'hi\n' });
  });

  it('create cronjob, create job --from=cronjob, get jobs,cronjobs', async () => {
    const created = await kubectl(['create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/5 * * * *', '--', 'date']);
    expect(created.stdout).toBe('cronjob.batch/tick created\n');
    const manual = await kubectl(['create', 'job', 'tick-manual', '--from=cronjob/tick']);
    expect(manual.stdout).toBe('job.batch/tick-manual created\n');
    await kubectl(['wait', '--for=condition=complete', 'job/tick-manual', '--timeout=20s'], 25_000);
    const got = await kubectl(['get', 'jobs,cronjobs']);
    expect(got.code).toBe(0);
    const lines = got.stdout.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE$/);
    expect(got.stdout).toMatch(/job\.batch\/tick-manual\s+Complete\s+1\/1\s+(\d+m)?\d+s\s+(\d+m)?\d+s/);
    expect(got.stdout).toMatch(/NAME\s+SCHEDULE\s+TIMEZONE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE/);
    expect(got.stdout).toMatch(/cronjob\.batch\/tick\s+\*\/5 \* \* \* \*\s+<none>\s+False\s+\d+\s+\S+\s+(\d+m)?\d+s/);
    const job = JSON.parse((await kubectl(['get', 'job', 'tick-manual', '-o', 'json'])).stdout);
    expect(job.metadata.annotations['cronjob.kubernetes.io/instantiate']).toBe('manual');
    expect(job.metadata.ownerReferences[0]).toMatchObject({ kind: 'CronJob', name: 'tick' });
  });
});
