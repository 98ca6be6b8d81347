/**
 * The stage engine with main processes: a container that runs in the userland runs until its
 * process exit is reported (no Job default, no made-up timing), then terminates with that exit
 * code — Completed, Error or StartError — and restartPolicy applies as to any exit.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { parseBehaviour } from '../behaviour.js';
import { applyPlan, emptyMemory, evaluate } from '../stages/engine.js';
import { simulate } from '../stages/simulate.js';
import type { ProcessExit, StageInput } from '../stages/types.js';

const START_MS = Date.parse('2024-05-01T12:00:00Z');
const NODE = { name: 'node-1', hostIP: '127.0.0.1', podIP: '10.244.1.2' };

const jobPod = (command: string[]): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'job-x',
    namespace: 'default',
    uid: 'u-1',
    ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'job', uid: 'j', controller: true }],
  },
  spec: { nodeName: 'node-1', restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command }] },
  status: { phase: 'Pending' },
});

/** running: the pod once started (the steps simulate() applies before any exit). */
function running(pod: Pod): Pod {
  const steps = simulate({ pod, node: NODE, behaviour: parseBehaviour(pod).behaviour, startMs: START_MS, maxSteps: 2 });
  return steps.at(-1)!.pod!;
}

function next(pod: Pod, nowMs: number, exits: Record<string, ProcessExit>) {
  const input: StageInput = { pod, node: NODE, nowMs, behaviour: parseBehaviour(pod).behaviour, memory: emptyMemory(), processExits: exits };
  const evaluation = evaluate(input);
  return { evaluation, apply: () => applyPlan({ ...input, memory: evaluation.memory }, evaluation.plan!) };
}

describe('main-process exits in the stage engine', () => {
  it('runs until the process exits, then ends with its code', () => {
    const pod = running(jobPod(['sleep', '30']));
    expect(pod.status?.containerStatuses?.[0]?.state?.running).toBeDefined();
    // Without a reported exit nothing is due (a Job's 1 s default does not apply).
    expect(next(pod, START_MS + 3_600_000, {}).evaluation.plan).toBeUndefined();
    const exitedAt = START_MS + 31_000;
    const done = next(pod, exitedAt, { main: { restartCount: 0, exitCode: 3, atMs: exitedAt } }).apply();
    expect(done.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    expect(done.status?.phase).toBe('Failed');
  });

  it('ignores the exit of an earlier run and reports StartError as the runtime does', () => {
    const pod = running(jobPod(['nope']));
    expect(next(pod, START_MS + 5_000, { main: { restartCount: 1, exitCode: 0, atMs: START_MS } }).evaluation.plan).toBeUndefined();
    const message = 'failed to create containerd task: …';
    const failed = next(pod, START_MS + 5_000, { main: { restartCount: 0, exitCode: 128, atMs: START_MS + 5_000, reason: 'StartError', message } }).apply();
    expect(failed.status?.containerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 128, reason: 'StartError', message });
  });
});
