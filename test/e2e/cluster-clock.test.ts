/**
 * Cluster time across processes: `kubesim up --clock virtual` starts with time standing still;
 * the CronJob loop runs as its own process and follows the API server's clock, so its hourly
 * Jobs appear only for the hours `kubesim clock advance` moves the cluster through — times a
 * wall clock could not reach during the test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CronJob, cronJobDefinition, jobDefinition } from '../../apiserver/api/batch/index.js';
import { createKubeClient, type KubeClient } from '../../controllers/runtime/client/http-client.js';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { eventually } from '../support/eventually.js';
import { type KubesimProcess, spawnKubesim, stopAllKubesim } from '../support/processes.js';

const HOUR = 3_600_000;
const SCHEDULED = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

const hourly = {
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name: 'hourly', namespace: 'default' },
  spec: {
    schedule: '0 * * * *',
    jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'report', image: 'busybox' }] } } } },
  },
} as unknown as CronJob;

async function run(args: string[]): Promise<string> {
  const proc = spawnKubesim(args);
  const code = await proc.exited;
  expect(code, proc.output()).toBe(0);
  return proc.output();
}

/** clockTime reads the cluster time `kubesim clock` prints. */
function clockTime(output: string): number {
  const text = output.match(/^time\s+(\S+)$/m)?.[1];
  expect(text, output).toBeDefined();
  return Date.parse(text!);
}

describe('kubesim up --clock virtual', () => {
  let dir: string;
  let kubeconfig: string;
  let up: KubesimProcess;
  let client: KubeClient;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubesim-clock-'));
    kubeconfig = join(dir, 'kubeconfig');
    up = spawnKubesim(['up', '--port', '0', '--kubeconfig', kubeconfig, '--clock', 'virtual', '--controllers', 'cronjob', '--nodes', '0', '--scheduler=false']);
    const [, url] = await up.waitForOutput(/API server (https?:\/\/\S+)/);
    client = createKubeClient({ server: url!, tls: loadKubeconfig(kubeconfig).tls, userAgent: 'e2e-test' });
  });

  afterAll(async () => {
    client?.close();
    await stopAllKubesim();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts paused', async () => {
    expect(up.output()).toMatch(/clock paused \(virtual\)/);
    const shown = await run(['clock', '--kubeconfig', kubeconfig]);
    expect(shown).toMatch(/state\s+paused/);
    expect(shown).toMatch(/mode\s+virtual/);
  });

  it('runs a CronJob in the controller process only for the hours an advance moves through', async () => {
    await eventually(async () => expect(await run(['status', '--kubeconfig', kubeconfig])).toMatch(/cronjob\s+running/));
    const startMs = clockTime(await run(['clock', '--kubeconfig', kubeconfig]));
    await client.resource(cronJobDefinition).create(hourly);
    const scheduledTimes = async () =>
      (await client.resource(jobDefinition).list({ namespace: 'default' })).items.map((job) => Date.parse(job.metadata.annotations?.[SCHEDULED] ?? '')).sort();
    expect(await scheduledTimes()).toEqual([]);

    const advanced = await run(['clock', 'advance', '3h', '--kubeconfig', kubeconfig]);
    expect(clockTime(advanced)).toBe(startMs + 3 * HOUR);
    const lastHour = (ms: number) => Math.floor(ms / HOUR) * HOUR;
    // The loop fired at cluster times three hours on: no wall clock gets there during a test.
    await eventually(async () => expect(await scheduledTimes()).toContain(lastHour(startMs + 3 * HOUR)), { timeoutMs: 15_000 });
    for (const ms of await scheduledTimes()) {
      expect(ms).toBeGreaterThan(startMs);
      expect(ms).toBeLessThanOrEqual(startMs + 3 * HOUR);
    }

    // The process kept following the stream: a second advance reaches it too.
    await run(['clock', 'advance', '2h', '--kubeconfig', kubeconfig]);
    await eventually(async () => expect(await scheduledTimes()).toContain(lastHour(startMs + 5 * HOUR)), { timeoutMs: 15_000 });
    expect(Math.max(...(await scheduledTimes()))).toBeLessThanOrEqual(startMs + 5 * HOUR);
  });

  it('pauses, resumes and sets the speed from the command line', async () => {
    expect(await run(['clock', 'resume', '--kubeconfig', kubeconfig])).toMatch(/state\s+running/);
    expect(await run(['clock', 'speed', '10', '--kubeconfig', kubeconfig])).toMatch(/speed\s+10/);
    expect(await run(['clock', 'pause', '--kubeconfig', kubeconfig])).toMatch(/state\s+paused/);
    const bad = spawnKubesim(['clock', 'advance', '1d', '--kubeconfig', kubeconfig]);
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toMatch(/unknown unit "d"/);
  });
});
