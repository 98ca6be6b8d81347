import { describe, expect, it } from 'vitest';
import type { PrintContext } from '../resource-definition.js';
import { PodSchema, podDefinition } from './pod.js';

const NOW = Date.parse('2026-01-10T12:00:00Z');
const context: PrintContext = { nowMs: NOW };
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString().replace('.000Z', 'Z');

/** row renders a pod's Table cells keyed by column name. */
function row(body: object): Record<string, unknown> {
  const pod = PodSchema.parse({ metadata: { name: 'web-1', creationTimestamp: ago(300) }, ...body });
  return Object.fromEntries(podDefinition.printColumns.map((c) => [c.name, c.cell(pod, context)]));
}

const running = (name: string) => ({
  name,
  ready: true,
  restartCount: 0,
  image: 'nginx',
  imageID: '',
  state: { running: { startedAt: ago(200) } },
});

describe('pod table', () => {
  it('has the kubectl columns in order, wide ones at priority 1', () => {
    expect(podDefinition.printColumns.map((c) => `${c.name}:${c.priority}`)).toEqual([
      'Name:0',
      'Ready:0',
      'Status:0',
      'Restarts:0',
      'Age:0',
      'IP:1',
      'Node:1',
      'Nominated Node:1',
      'Readiness Gates:1',
    ]);
  });

  it('prints a running pod', () => {
    expect(
      row({
        spec: { containers: [{ name: 'nginx' }], nodeName: 'node-1' },
        status: { phase: 'Running', podIP: '10.244.0.7', podIPs: [{ ip: '10.244.0.7' }], containerStatuses: [running('nginx')] },
      }),
    ).toEqual({
      Name: 'web-1',
      Ready: '1/1',
      Status: 'Running',
      Restarts: '0',
      Age: '5m',
      IP: '10.244.0.7',
      Node: 'node-1',
      'Nominated Node': '<none>',
      'Readiness Gates': '<none>',
    });
  });

  it('prints a pending pod without node or IP', () => {
    expect(row({ spec: { containers: [{ name: 'a' }, { name: 'b' }] }, status: { phase: 'Pending' } })).toMatchObject({
      Ready: '0/2',
      Status: 'Pending',
      IP: '<none>',
      Node: '<none>',
    });
  });

  it('prints CrashLoopBackOff with the time of the last restart', () => {
    const crashing = {
      name: 'app',
      ready: false,
      restartCount: 3,
      state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s' } },
      lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: ago(150), finishedAt: ago(120) } },
    };
    expect(row({ spec: { containers: [{ name: 'app' }] }, status: { phase: 'Running', containerStatuses: [crashing] } })).toMatchObject({
      Ready: '0/1',
      Status: 'CrashLoopBackOff',
      Restarts: '3 (2m ago)',
    });
  });

  it('prints Terminating for a deleting pod that has not finished', () => {
    const cells = row({
      metadata: { name: 'web-1', creationTimestamp: ago(300), deletionTimestamp: ago(-30) },
      spec: { containers: [{ name: 'nginx' }] },
      status: { phase: 'Running', containerStatuses: [running('nginx')] },
    });
    expect(cells['Status']).toBe('Terminating');
  });

  it('prints Unknown for a deleting pod on a lost node', () => {
    const cells = row({
      metadata: { name: 'web-1', deletionTimestamp: ago(0) },
      spec: { containers: [{ name: 'nginx' }] },
      status: { phase: 'Running', reason: 'NodeLost' },
    });
    expect(cells['Status']).toBe('Unknown');
  });

  it('prints Init:0/1 while the init container runs', () => {
    const cells = row({
      spec: { initContainers: [{ name: 'init' }], containers: [{ name: 'app' }] },
      status: {
        phase: 'Pending',
        initContainerStatuses: [{ name: 'init', ready: false, restartCount: 0, state: { running: { startedAt: ago(5) } } }],
        containerStatuses: [{ name: 'app', ready: false, restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } }],
      },
    });
    expect(cells).toMatchObject({ Ready: '0/1', Status: 'Init:0/1' });
  });

  it('prints Init:CrashLoopBackOff and Init:Error for failing init containers', () => {
    const init = (state: object) =>
      row({
        spec: { initContainers: [{ name: 'init' }], containers: [{ name: 'app' }] },
        status: { phase: 'Pending', initContainerStatuses: [{ name: 'init', ready: false, restartCount: 1, state }] },
      })['Status'];
    expect(init({ waiting: { reason: 'CrashLoopBackOff' } })).toBe('Init:CrashLoopBackOff');
    expect(init({ terminated: { exitCode: 2, reason: 'Error' } })).toBe('Init:Error');
    expect(init({ terminated: { exitCode: 137, signal: 9 } })).toBe('Init:Signal:9');
  });

  it('counts running sidecar init containers as ready containers', () => {
    const cells = row({
      spec: { initContainers: [{ name: 'proxy', restartPolicy: 'Always' }], containers: [{ name: 'app' }] },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Initialized', status: 'True' }],
        initContainerStatuses: [{ ...running('proxy'), started: true }],
        containerStatuses: [running('app')],
      },
    });
    expect(cells).toMatchObject({ Ready: '2/2', Status: 'Running' });
  });

  it('prints Completed for a succeeded pod', () => {
    const cells = row({
      spec: { containers: [{ name: 'job' }], restartPolicy: 'Never' },
      status: {
        phase: 'Succeeded',
        containerStatuses: [{ name: 'job', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } }],
      },
    });
    expect(cells).toMatchObject({ Ready: '0/1', Status: 'Completed', Restarts: '0' });
  });

  it('prints ExitCode when a terminated container has no reason', () => {
    const cells = row({
      spec: { containers: [{ name: 'c' }] },
      status: { phase: 'Failed', containerStatuses: [{ name: 'c', ready: false, restartCount: 0, state: { terminated: { exitCode: 3 } } }] },
    });
    expect(cells['Status']).toBe('ExitCode:3');
  });

  it('prints the pod status reason (Evicted) and SchedulingGated', () => {
    expect(row({ spec: { containers: [{ name: 'c' }] }, status: { phase: 'Failed', reason: 'Evicted' } })['Status']).toBe('Evicted');
    const gated = row({
      spec: { containers: [{ name: 'c' }], schedulingGates: [{ name: 'wait' }] },
      status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] },
    });
    expect(gated['Status']).toBe('SchedulingGated');
  });

  it('prints readiness gates and the nominated node', () => {
    const cells = row({
      spec: { containers: [{ name: 'c' }], readinessGates: [{ conditionType: 'a.example.com/ready' }, { conditionType: 'b' }] },
      status: { phase: 'Pending', nominatedNodeName: 'node-2', conditions: [{ type: 'a.example.com/ready', status: 'True' }] },
    });
    expect(cells).toMatchObject({ 'Readiness Gates': '1/2', 'Nominated Node': 'node-2' });
  });

  it('does not throw on a pod without status', () => {
    expect(row({ spec: { containers: [{ name: 'c' }] } })).toMatchObject({ Ready: '0/1', Status: '', Restarts: '0' });
  });
});
