/**
 * The stage engine reading the prober's results: a container the prober watches starts
 * unready (and unstarted under a startup probe), follows its readiness result both ways, and
 * is stopped with the kubelet's Killing event when its liveness or startup probe fails (after its
 * stop time, or the probe's grace period when it ignores SIGTERM). The
 * kubesim.io readiness annotations keep deciding readiness when present.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { parseBehaviour } from '../behaviour.js';
import { applyPlan, emptyMemory, evaluate } from '../stages/engine.js';
import type { PodMemory, StageResult } from '../stages/types.js';
import type { PodProbeResults } from './results.js';

const NOW = Date.parse('2024-05-01T12:00:00Z');
const NODE = { name: 'node-1', hostIP: '127.0.0.1', podIP: '10.244.1.2' };

function podWith(container: Record<string, unknown>, annotations: Record<string, string> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', uid: 'u-1', annotations },
    spec: { nodeName: 'node-1', restartPolicy: 'Always', containers: [{ name: 'web', image: 'nginx', ...container }] },
    status: { phase: 'Pending' },
  };
}

/** Driver applies every stage due at the current moment, as the pod workers do. */
class Driver {
  private memory: PodMemory = emptyMemory();
  nowMs = NOW;
  readonly applied: Array<{ stage: string; atMs: number; result: StageResult }> = [];
  constructor(public pod: Pod) {}

  settle(probes: PodProbeResults | undefined): void {
    for (let i = 0; i < 20; i++) {
      const input = { pod: this.pod, node: NODE, nowMs: this.nowMs, behaviour: parseBehaviour(this.pod).behaviour, memory: this.memory, probes };
      const { memory, plan } = evaluate(input);
      this.memory = memory;
      if (!plan) return;
      if (plan.delayMs > 0) {
        // Only timed stages (the image pull and start) are waited out here.
        if (!['container-start', 'container-restart', 'container-probe-stopped'].includes(plan.stage)) return;
        this.nowMs += plan.delayMs;
        continue;
      }
      const result = applyPlan({ ...input, nowMs: this.nowMs, memory: this.memory }, plan);
      this.memory = result.memory;
      this.pod = { ...this.pod, status: result.status };
      this.applied.push({ stage: plan.stage, atMs: this.nowMs, result });
    }
  }

  get container() {
    return this.pod.status!.containerStatuses![0]!;
  }
}

const results = (containerID: string, values: Record<string, 'success' | 'failure' | 'unknown'>, stopExitCode?: number): PodProbeResults => ({
  web: { containerID, results: values, stopExitCode },
});

describe('the stage engine with a prober', () => {
  it('follows the readiness probe both ways', () => {
    const driver = new Driver(podWith({ readinessProbe: { httpGet: { path: '/', port: 80 } } }));
    driver.settle({});
    expect(driver.container).toMatchObject({ ready: false, started: true });
    const id = driver.container.containerID!;
    driver.settle(results(id, { Readiness: 'success' }));
    expect(driver.container.ready).toBe(true);
    expect(driver.pod.status!.conditions!.find((c) => c.type === 'Ready')?.status).toBe('True');
    driver.settle(results(id, { Readiness: 'failure' }));
    expect(driver.container.ready).toBe(false);
    expect(driver.pod.status!.conditions!.find((c) => c.type === 'ContainersReady')).toMatchObject({ status: 'False', reason: 'ContainersNotReady' });
  });

  it('holds started until the startup probe succeeds, and readiness until then', () => {
    const driver = new Driver(podWith({ startupProbe: { tcpSocket: { port: 80 } }, readinessProbe: { httpGet: { port: 80 } } }));
    driver.settle({});
    const id = driver.container.containerID!;
    driver.settle(results(id, { Startup: 'unknown', Readiness: 'success' }));
    expect(driver.container).toMatchObject({ started: false, ready: false });
    driver.settle(results(id, { Startup: 'success', Readiness: 'success' }));
    expect(driver.container).toMatchObject({ started: true, ready: true });
  });

  it('kills a container whose liveness probe failed, with the Killing event, then restarts it', () => {
    const driver = new Driver(podWith({ livenessProbe: { httpGet: { port: 80 } } }));
    driver.settle({});
    const id = driver.container.containerID!;
    driver.settle(results(id, { Liveness: 'failure' }, 0));
    const kill = driver.applied.find((step) => step.stage === 'container-probe-kill')!;
    expect(kill.result.events).toEqual([{ type: 'Normal', reason: 'Killing', message: 'Container web failed liveness probe, will be restarted' }]);
    // nginx stops on SIGTERM within its stop time (1 s by default), well inside the grace period.
    expect(driver.applied.find((step) => step.stage === 'container-probe-stopped')!.atMs - kill.atMs).toBe(1000);
    expect(driver.container).toMatchObject({ restartCount: 1, lastState: { terminated: { exitCode: 0, reason: 'Completed' } } });
    expect(driver.container.state?.running).toBeDefined();
    expect(driver.container.containerID).not.toBe(id);
  });

  it('a startup failure under restartPolicy Never kills without a restart', () => {
    const pod = podWith({ startupProbe: { exec: { command: ['true'] }, terminationGracePeriodSeconds: 5 }, image: 'busybox' });
    pod.spec.restartPolicy = 'Never';
    const driver = new Driver(pod);
    driver.settle({});
    driver.settle(results(driver.container.containerID!, { Startup: 'failure' }, 137));
    const kill = driver.applied.find((step) => step.stage === 'container-probe-kill')!;
    expect(kill.result.events[0]?.message).toBe('Container web failed startup probe');
    // A process that ignores SIGTERM is killed when the probe's own grace period ends.
    expect(driver.applied.find((step) => step.stage === 'container-probe-stopped')!.atMs - kill.atMs).toBe(5000);
    expect(driver.container.state?.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
    expect(driver.pod.status!.phase).toBe('Failed');
  });

  it('keeps the readiness annotations in charge when the pod has them', () => {
    const driver = new Driver(podWith({ readinessProbe: { httpGet: { port: 80 } } }, { 'kubesim.io/readiness': 'fail' }));
    driver.settle({});
    driver.settle(results(driver.container.containerID!, { Readiness: 'success' }));
    expect(driver.container.ready).toBe(false);
  });
});
