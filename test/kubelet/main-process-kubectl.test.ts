/**
 * Containers run their command (issue 18), through a real cluster (API server, scheduler, Job
 * controller, kubelet-sim with kubesim's userland) and every installed kubectl: a Job's
 * `echo hi` is its log and it completes; `exit 3` fails with exit code 3 and restartPolicy and
 * CrashLoopBackOff apply; `sleep 30` takes 30 s of cluster time; a shell loop ticks every 5 s of
 * cluster time; attach and `run -i`/`run -it --rm` (an interactive shell typed into through
 * tmux) join the main process.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseTimeMs } from '../../apiserver/api/machinery/time.js';
import { useKubectlCluster } from '../kubectl/fixture.js';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { startTmux, type TmuxSession } from '../support/tmux.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

/** Cluster time runs 10× wall time: a 30 s sleep takes 3 s, a crash-loop backoff 1 s. */
const SPEED = 10;

const terminals: TmuxSession[] = [];
afterEach(async () => {
  for (const terminal of terminals.splice(0)) await terminal.close();
});

describe.each(binaries)('$label: containers run their command', (binary) => {
  const k = useKubectlCluster(binary, { nodes: 1, speed: SPEED, controllers: ['job'], scheduler: true });
  const pod = (name: string) => k.json(['pod', name]);
  const state = async (name: string) => (await pod(name)).status?.containerStatuses?.[0];

  it('a Job that echoes logs what it printed and completes', async () => {
    await k.ok(['create', 'job', 'hello', '--image=busybox', '--', 'echo', 'hi']);
    await k.ok(['wait', '--for=condition=complete', 'job/hello', '--timeout=30s'], { timeoutMs: 35_000 });
    expect((await k.ok(['logs', 'job/hello'])).stdout).toBe('hi\n');
    const pods = await k.json(['pods', '-l', 'job-name=hello']);
    expect(pods.items[0].status.phase).toBe('Succeeded');
    expect(pods.items[0].status.containerStatuses[0].state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect((await k.ok(['get', 'pods', '-l', 'job-name=hello'])).stdout).toMatch(/hello-\S+\s+0\/1\s+Completed\s+0\s/);
  });

  it('exit 3 fails the container with exit code 3; under restartPolicy Always it crash-loops', async () => {
    await k.ok(['run', 'fails', '--image=busybox', '--restart=Never', '--', 'sh', '-c', 'echo bye >&2; exit 3']);
    await eventually(async () => expect((await pod('fails')).status.phase).toBe('Failed'), { timeoutMs: 20_000 });
    expect((await state('fails')).state.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    expect((await k.ok(['logs', 'fails'])).stdout).toBe('bye\n');
    await k.ok(['run', 'crashes', '--image=busybox', '--', 'sh', '-c', 'echo run $(date +%s); exit 3']);
    await eventually(
      async () => {
        const status = await state('crashes');
        expect(status.state.waiting?.reason).toBe('CrashLoopBackOff');
        expect(status.restartCount).toBeGreaterThanOrEqual(1);
        expect(status.lastState.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
      },
      { timeoutMs: 30_000 },
    );
    // The previous run's log is what that run printed.
    expect((await k.ok(['logs', 'crashes', '--previous'])).stdout).toMatch(/^run \d+\n$/);
  });

  it('sleep 30 runs for 30 s of cluster time', async () => {
    await k.ok(['run', 'nap', '--image=busybox', '--restart=Never', '--', 'sleep', '30']);
    await eventually(async () => expect((await pod('nap')).status.phase).toBe('Succeeded'), { timeoutMs: 30_000 });
    const { startedAt, finishedAt } = (await state('nap')).state.terminated;
    expect(parseTimeMs(finishedAt)! - parseTimeMs(startedAt)!).toBeGreaterThanOrEqual(30_000);
  });

  it('a shell loop logs a tick every 5 s of cluster time until the pod is deleted', async () => {
    await k.ok(['run', 'ticker', '--image=busybox', '--', 'sh', '-c', 'while true; do echo tick; sleep 5; done']);
    const ticks = async () => (await k.ok(['logs', 'ticker', '--timestamps'])).stdout.trim().split('\n');
    await eventually(async () => expect((await ticks()).length).toBeGreaterThanOrEqual(3), { timeoutMs: 20_000 });
    const lines = await ticks();
    expect(lines.every((line) => / tick$/.test(line))).toBe(true);
    const times = lines.map((line) => Date.parse(line.split(' ')[0]!));
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(5_000 - 1);
    expect((await k.ok(['delete', 'pod', 'ticker'], { timeoutMs: 30_000 })).stdout).toBe('pod "ticker" deleted\n');
  });

  it('attach -i joins the main shell: it reads what is typed and its output is the log', async () => {
    await k.apply(`apiVersion: v1
kind: Pod
metadata: {name: listener}
spec:
  containers:
  - {name: sh, image: busybox, command: [sh], stdin: true}
`);
    await eventually(async () => expect((await pod('listener')).status.phase).toBe('Running'), { timeoutMs: 20_000 });
    const attached = await k.run(['attach', '-i', 'listener'], { stdin: 'echo attached to $HOSTNAME\nexit 4\n' });
    expect(attached.stdout).toContain('attached to listener\n');
    await eventually(
      async () => expect((await state('listener')).lastState?.terminated?.exitCode ?? (await state('listener')).state.terminated?.exitCode).toBe(4),
      {
        timeoutMs: 20_000,
      },
    );
    expect((await k.ok(['logs', 'listener', '--previous'])).stdout).toBe('attached to listener\n');
  });

  it('run --rm -i prints what the command printed and deletes the pod', async () => {
    const result = await k.run(['run', 'tmp', '--rm', '-i', '--image=busybox', '--restart=Never', '--', 'echo', 'hi'], { timeoutMs: 40_000 });
    expect(result).toMatchObject({ code: 0, stdout: 'hi\npod "tmp" deleted\n' });
  }, 60_000);

  it('run -it --rm runs an interactive shell typed into through a terminal', async () => {
    const cluster = k.cluster();
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: join(cluster.dir, 'tmux-home'), LANG: 'C.UTF-8', TERM: 'xterm' };
    const argv = [binary.path, '--kubeconfig', cluster.kubeconfigPath, '--cache-dir', join(cluster.dir, 'kubectl-cache')];
    const terminal = await startTmux([...argv, 'run', '-it', '--rm', 'shell', '--image=busybox', '--restart=Never', '--', 'sh'], { env });
    terminals.push(terminal);
    await terminal.waitFor(/^If you don't see a command prompt, try pressing enter.\n\/ #$/, 30_000);
    await terminal.type('echo hello', { enter: true });
    await terminal.waitFor(/\/ # echo hello\nhello\n\/ #$/, 10_000);
    await terminal.type('exit', { enter: true });
    await eventually(async () => expect(await terminal.alive()).toBe(false), { timeoutMs: 30_000 });
    expect(await terminal.screen()).toContain('pod "shell" deleted');
  }, 90_000);
});
