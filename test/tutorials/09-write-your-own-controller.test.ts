/**
 * docs/tutorials/09-write-your-own-controller.md, run as written: the page's second terminal
 * (`node examples/own-controller/controller.mjs`) is started, stopped with Ctrl-C and started
 * again here, where the page says so; its ConfigMaps follow their Deployments, tampering is
 * undone, the garbage collector removes them with their owner, and a restarted controller
 * converges from a list alone and rewrites nothing that is already right.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { parseTable } from './tables.js';
import { type CommandResult, commandOutput, type Step, tutorialSteps, useTutorialCluster } from './tutorial.js';

const steps = tutorialSteps('09-write-your-own-controller.md');
const REPO = resolve(import.meta.dirname, '../..');
const CONTROLLER = 'examples/own-controller/controller.mjs';

/** The stdout of the step's command that starts with `prefix`. */
const output = (results: CommandResult[], prefix: string): string => commandOutput(results, prefix);

/** One run of the learner's controller, as `node examples/own-controller/controller.mjs` in the checkout. */
interface ControllerRun {
  /** The lines it has printed (stdout and stderr). */
  lines(): string[];
  /** Ctrl-C; resolves once it has exited. */
  interrupt(): Promise<void>;
}

async function startController(kubeconfig: string): Promise<ControllerRun> {
  const child = spawn(process.execPath, [CONTROLLER], { cwd: REPO, env: { ...process.env, KUBECONFIG: kubeconfig }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const run: ControllerRun = {
    lines: () => text.split('\n').filter((line) => line !== ''),
    async interrupt() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
  running.add(run);
  await eventually(() => expect(run.lines()).toContain('own-controller: watching Deployments'), { timeoutMs: 20_000 });
  return run;
}
const running = new Set<ControllerRun>();

describe('tutorial 09: write your own controller', () => {
  const cluster = useTutorialCluster();
  afterAll(async () => {
    await Promise.all([...running].map((run) => run.interrupt()));
  });

  /** The controller prints a line just after its write returns, a moment after kubectl can see it. */
  const printed = (check: () => void) => eventually(check, { timeoutMs: 5_000 });

  /** Every namespace has the root CA publisher's ConfigMap, as on a real cluster. */
  const ROOT_CA = 'kube-root-ca.crt';
  const names = (text: string) => parseTable(text).map((row) => row['NAME']);
  const configMaps = (text: string) => parseTable(text).map((row) => ({ NAME: row['NAME'], FOR: row['FOR'], VERSION: row['VERSION'] }));

  it('keeps <deployment>-info in line, repairs tampering, leaves deletion to the GC, and converges after restarts', async () => {
    expect(steps.map((s) => s.heading)).toEqual([
      'Create a Deployment: the ConfigMap appears',
      'Change it: the ConfigMap follows',
      'Tamper with it: the controller puts it back',
      'Delete the Deployment: the garbage collector cleans up',
      'Kill it, change things, start it again',
      'Kill it, change things, start it again',
      'Restart it when nothing is wrong',
    ]);
    const [create, change, tamper, remove, whileDown, restarted, idle] = steps as [Step, Step, Step, Step, Step, Step, Step];

    const first = await startController(cluster.kubeconfig);

    // Create: the ConfigMap appears, owned by the Deployment.
    const created = await cluster.run(create);
    expect(output(created, 'kubectl wait')).toBe('configmap/web-info condition met\n');
    expect(output(created, 'kubectl get configmap web-info -o jsonpath')).toBe('{"image":"nginx:1.27","replicas":"2"}\n');
    expect(parseTable(output(created, 'kubectl get configmap web-info -o custom-columns'))).toEqual([
      { NAME: 'web-info', OWNER: 'Deployment', 'OWNER-NAME': 'web' },
    ]);
    await printed(() => expect(first.lines()).toEqual(['own-controller: watching Deployments', 'created default/web-info: image=nginx:1.27 replicas=2']));

    // Change: one or two updates, the last with both changes.
    const changed = await cluster.run(change);
    expect(output(changed, 'kubectl get configmap')).toBe('{"image":"nginx:1.28","replicas":"4"}\n');
    await printed(() => {
      const updates = first.lines().slice(2);
      expect(updates.length).toBeGreaterThanOrEqual(1);
      expect(updates.length).toBeLessThanOrEqual(2);
      for (const line of updates) expect(line).toMatch(/^updated default\/web-info: image=nginx:1\.28 replicas=[24]$/);
      expect(updates.at(-1)).toBe('updated default/web-info: image=nginx:1.28 replicas=4');
    });

    // Tamper: deleted → created again; patched → put back.
    const before = first.lines().length;
    const tampered = await cluster.run(tamper);
    expect(output(tampered, 'kubectl patch')).toBe('configmap/web-info patched\n');
    await printed(() =>
      expect(first.lines().slice(before)).toEqual([
        'created default/web-info: image=nginx:1.28 replicas=4',
        'updated default/web-info: image=nginx:1.28 replicas=4',
      ]),
    );

    // Delete the Deployment: the garbage collector removes the ConfigMap; the controller says nothing.
    const quiet = first.lines().length;
    const removed = await cluster.run(remove);
    const leftovers = removed.find((r) => r.command === 'kubectl get configmaps')!;
    expect(names(leftovers.stdout)).toEqual([ROOT_CA]);
    const gc = await cluster.sh("kubectl get --raw '/apis/kubesim.io/v1alpha1/history?resource=configmaps&namespace=default&name=web-info'");
    const deletion = JSON.parse(gc.stdout).items.at(-1);
    expect(deletion, gc.stdout).toMatchObject({ type: 'DELETED', actor: { controller: 'garbage-collector' } });
    expect(first.lines().slice(quiet)).toEqual([]);

    // Killed: changes go unanswered.
    await first.interrupt();
    const down = await cluster.run(whileDown);
    const none = down.find((r) => r.command === 'kubectl get configmaps')!;
    expect(names(none.stdout)).toEqual([ROOT_CA]);

    // Started again: it lists, and converges.
    const second = await startController(cluster.kubeconfig);
    const converged = await cluster.run(restarted);
    expect(output(converged, 'kubectl wait')).toBe('configmap/api-info condition met\nconfigmap/web-info condition met\n');
    const versions = configMaps(output(converged, 'kubectl get configmaps'));
    expect(versions.map(({ NAME, FOR }) => ({ NAME, FOR }))).toEqual([
      { NAME: 'api-info', FOR: 'api' },
      { NAME: ROOT_CA, FOR: '<none>' },
      { NAME: 'web-info', FOR: 'web' },
    ]);
    await printed(() =>
      expect(second.lines().slice(1).sort()).toEqual([
        'created default/api-info: image=httpd:2.4 replicas=1',
        'created default/web-info: image=nginx:1.27 replicas=1',
      ]),
    );
    await second.interrupt();

    // Restarted with nothing wrong: only the scaled Deployment's ConfigMap is written.
    const third = await startController(cluster.kubeconfig);
    const after = configMaps(output(await cluster.run(idle), 'kubectl get configmaps'));
    expect(after).toEqual([
      { NAME: 'api-info', FOR: 'api', VERSION: expect.not.stringMatching(`^${versions[0]!.VERSION}$`) },
      { NAME: ROOT_CA, FOR: '<none>', VERSION: versions[1]!.VERSION },
      { NAME: 'web-info', FOR: 'web', VERSION: versions[2]!.VERSION },
    ]);
    await printed(() => expect(third.lines()).toEqual(['own-controller: watching Deployments', 'updated default/api-info: image=httpd:2.4 replicas=2']));
  }, 120_000);
});
