import { describe, expect, it } from 'vitest';
import type { Pod } from '../apiserver/api/core/pod.js';
import { DEFAULT_BEHAVIOUR, JOB_RUN_SECONDS, parseBehaviour } from './behaviour.js';

function pod(annotations: Record<string, string>, ownerKind?: string): Pod {
  const ownerReferences = ownerKind ? [{ apiVersion: 'batch/v1', kind: ownerKind, name: 'j', uid: 'u', controller: true }] : undefined;
  return { metadata: { name: 'p', annotations, ownerReferences }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
}

describe('parseBehaviour', () => {
  it('uses the defaults for a plain pod: an nginx pod is Running and Ready in about a second', () => {
    const { behaviour, problems } = parseBehaviour(pod({}));
    expect(behaviour).toEqual(DEFAULT_BEHAVIOUR);
    expect(behaviour.imagePullMs + behaviour.startupMs).toBeLessThanOrEqual(1000);
    expect(problems).toEqual([]);
  });

  it('reads every annotation', () => {
    const { behaviour, problems } = parseBehaviour(
      pod({
        'kubesim.io/image-pull-seconds': '2.5',
        'kubesim.io/startup-seconds': '0',
        'kubesim.io/image-pull': 'error',
        'kubesim.io/readiness': 'fail',
        'kubesim.io/ready-after-seconds': '7',
        'kubesim.io/crash-after-seconds': '30',
        'kubesim.io/exit-code': '137',
        'kubesim.io/run-seconds': '60',
        'kubesim.io/init-seconds': '3',
        'kubesim.io/stop-seconds': '10',
        'kubesim.io/log-interval-seconds': '0.5',
        'kubesim.io/cpu': '250m',
        'kubesim.io/memory': '128Mi',
      }),
    );
    expect(problems).toEqual([]);
    expect(behaviour).toEqual({
      imagePullMs: 2500,
      startupMs: 0,
      imagePull: 'error',
      readiness: 'fail',
      readyAfterMs: 7000,
      crashAfterMs: 30_000,
      exitCode: 137,
      runMs: 60_000,
      initRunMs: 3000,
      stopMs: 10_000,
      logIntervalMs: 500,
      cpu: '250m',
      memory: '128Mi',
    });
  });

  it('reports invalid and unknown annotations and keeps the defaults for them', () => {
    const { behaviour, problems } = parseBehaviour(
      pod({
        'kubesim.io/crash-after-seconds': 'soon',
        'kubesim.io/exit-code': '300',
        'kubesim.io/cpu': 'lots',
        'kubesim.io/crash-afer-seconds': '1',
        'other.io/x': 'y',
      }),
    );
    expect(behaviour.crashAfterMs).toBeUndefined();
    expect(behaviour.exitCode).toBe(DEFAULT_BEHAVIOUR.exitCode);
    expect(behaviour.cpu).toBeUndefined();
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toMatch(/kubesim\.io\/crash-after-seconds: "soon" must be a non-negative number of seconds/);
    expect(problems.join('\n')).toMatch(/kubesim\.io\/crash-afer-seconds: unknown annotation/);
  });

  it("runs a Job's pods to completion unless told otherwise", () => {
    expect(parseBehaviour(pod({}, 'Job')).behaviour.runMs).toBe(JOB_RUN_SECONDS * 1000);
    expect(parseBehaviour(pod({ 'kubesim.io/run-seconds': '9' }, 'Job')).behaviour.runMs).toBe(9000);
    expect(parseBehaviour(pod({}, 'ReplicaSet')).behaviour.runMs).toBeUndefined();
  });
});
