import { describe, expect, it } from 'vitest';
import type { DaemonSet } from '../../apiserver/api/apps/daemon-set.js';
import type { Node } from '../../apiserver/api/core/node.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { CONTROLLER_REVISION_HASH_LABEL, newDaemonPod, podsByNode, targetNodeName } from './daemon-pods.js';
import { FailedPodBackoff } from './failed-pod-backoff.js';
import { planManage } from './manage-plan.js';
import { nodeShouldRunDaemonPod } from './node-eligibility.js';
import { planRollingUpdate, rollingBudget } from './rolling-update.js';
import { calculateStatus } from './status.js';

const NOW = Date.parse('2025-01-01T00:00:00Z');

function ds(spec: Partial<DaemonSet['spec']['template']['spec']> = {}, strategy?: DaemonSet['spec']['updateStrategy']): DaemonSet {
  return {
    metadata: { name: 'agent', namespace: 'default', uid: 'ds-uid', generation: 2 },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image: 'a:1' }], ...spec } },
      updateStrategy: strategy ?? { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    },
  };
}

function node(name: string, extra: { labels?: Record<string, string>; taints?: NonNullable<Node['spec']>['taints'] } = {}): Node {
  return { metadata: { name, labels: extra.labels ?? {} }, spec: { taints: extra.taints } };
}

let serial = 0;
function pod(nodeName: string, hash: string, extra: { ready?: boolean; phase?: string; deleting?: boolean } = {}): Pod {
  serial++;
  return {
    metadata: {
      name: `agent-${serial}`,
      namespace: 'default',
      labels: { app: 'agent', [CONTROLLER_REVISION_HASH_LABEL]: hash },
      creationTimestamp: new Date(NOW - 100_000 + serial * 1000).toISOString(),
      ...(extra.deleting ? { deletionTimestamp: new Date(NOW).toISOString() } : {}),
    },
    spec: { nodeName, containers: [{ name: 'a', image: 'a:1' }] },
    status: {
      phase: (extra.phase ?? 'Running') as never,
      conditions: [{ type: 'Ready', status: extra.ready === false ? 'False' : 'True' }],
    },
  };
}

describe('nodeShouldRunDaemonPod', () => {
  it('runs on a plain node and honours nodeSelector and required node affinity', () => {
    expect(nodeShouldRunDaemonPod(node('n1'), ds())).toEqual({ shouldRun: true, shouldContinueRunning: true });
    const selective = ds({ nodeSelector: { disk: 'ssd' } });
    expect(nodeShouldRunDaemonPod(node('n1'), selective).shouldContinueRunning).toBe(false);
    expect(nodeShouldRunDaemonPod(node('n1', { labels: { disk: 'ssd' } }), selective).shouldRun).toBe(true);
    const affinity = ds({
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }] }] },
        },
      },
    });
    expect(nodeShouldRunDaemonPod(node('n1'), affinity).shouldRun).toBe(false);
    expect(nodeShouldRunDaemonPod(node('n2'), affinity).shouldRun).toBe(true);
  });

  it('keeps off untolerated NoSchedule taints but lets existing pods stay; NoExecute evicts', () => {
    const noSchedule = node('n1', { taints: [{ key: 'dedicated', effect: 'NoSchedule' }] });
    expect(nodeShouldRunDaemonPod(noSchedule, ds())).toEqual({ shouldRun: false, shouldContinueRunning: true });
    const noExecute = node('n1', { taints: [{ key: 'dedicated', effect: 'NoExecute' }] });
    expect(nodeShouldRunDaemonPod(noExecute, ds())).toEqual({ shouldRun: false, shouldContinueRunning: false });
    const tolerant = ds({ tolerations: [{ key: 'dedicated', operator: 'Exists' }] });
    expect(nodeShouldRunDaemonPod(noExecute, tolerant).shouldRun).toBe(true);
  });

  it('tolerates the daemon default taints (not-ready, unreachable, pressure, unschedulable)', () => {
    for (const [key, effect] of [
      ['node.kubernetes.io/not-ready', 'NoExecute'],
      ['node.kubernetes.io/unreachable', 'NoExecute'],
      ['node.kubernetes.io/disk-pressure', 'NoSchedule'],
      ['node.kubernetes.io/memory-pressure', 'NoSchedule'],
      ['node.kubernetes.io/pid-pressure', 'NoSchedule'],
      ['node.kubernetes.io/unschedulable', 'NoSchedule'],
    ] as const) {
      expect(nodeShouldRunDaemonPod(node('n1', { taints: [{ key, effect }] }), ds()).shouldRun).toBe(true);
    }
  });
});

describe('newDaemonPod and targetNodeName', () => {
  it('pins the pod to its node, adds the hash label and default tolerations', () => {
    const created = newDaemonPod(ds(), 'n7', 'h1');
    expect(targetNodeName(created)).toBe('n7');
    expect(created.spec.nodeName).toBeUndefined();
    expect(created.metadata.labels).toEqual({ app: 'agent', [CONTROLLER_REVISION_HASH_LABEL]: 'h1' });
    expect(created.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'DaemonSet', uid: 'ds-uid', controller: true });
    expect(created.spec.tolerations).toHaveLength(6);
  });
});

describe('planManage', () => {
  const plan = (nodes: Node[], pods: Pod[], d = ds(), backoff = new FailedPodBackoff()) =>
    planManage({ ds: d, nodes, podsByNode: podsByNode(pods), hash: 'h1', backoff, nowMs: NOW });

  it('creates on nodes without a pod, deletes extras (keeping the oldest) and pods on ineligible nodes', () => {
    const [a, b] = [pod('n2', 'h1'), pod('n2', 'h1')];
    const misplaced = pod('n3', 'h1');
    const nodes = [node('n1'), node('n2'), node('n3', { taints: [{ key: 'x', effect: 'NoExecute' }] })];
    const result = plan(
      nodes,
      [a, b, misplaced].filter((p): p is Pod => p !== undefined),
    );
    expect(result.nodesNeedingPods).toEqual(['n1']);
    expect(result.podsToDelete.map((p) => p.metadata.name)).toEqual([b?.metadata.name, misplaced.metadata.name]);
  });

  it('deletes a failed pod once, then waits out the backoff', () => {
    const backoff = new FailedPodBackoff();
    const failed = pod('n1', 'h1', { phase: 'Failed' });
    expect(plan([node('n1')], [failed], ds(), backoff).podsToDelete).toHaveLength(1);
    const again = plan([node('n1')], [pod('n1', 'h1', { phase: 'Failed' })], ds(), backoff);
    expect(again.podsToDelete).toHaveLength(0);
    expect(again.requeueAfterMs).toBe(1000);
  });

  it('reports pods bound to nodes that are gone', () => {
    expect(plan([node('n1')], [pod('n1', 'h1'), pod('gone', 'h1')]).orphanedPods.map((p) => p.spec.nodeName)).toEqual(['gone']);
  });
});

describe('planRollingUpdate', () => {
  const nodes = [node('n1'), node('n2'), node('n3'), node('n4')];
  const run = (pods: Pod[], d = ds()) => planRollingUpdate({ ds: d, nodes, podsByNode: podsByNode(pods), hash: 'new', nowMs: NOW });

  it('resolves percentages rounding up and never leaves both at 0', () => {
    expect(rollingBudget(ds({}, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '30%', maxSurge: 0 } }), 4)).toMatchObject({
      maxUnavailable: 2,
      maxSurge: 0,
    });
    expect(rollingBudget(ds({}, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '10%' } }), 4)).toMatchObject({
      maxUnavailable: 0,
      maxSurge: 1,
    });
    expect(rollingBudget(ds({}, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '0%', maxSurge: 0 } }), 4).maxUnavailable).toBe(1);
  });

  it('without surge deletes one available old pod at a time (maxUnavailable 1)', () => {
    const old = nodes.map((n) => pod(n.metadata.name ?? '', 'old'));
    expect(run(old).podsToDelete).toHaveLength(1);
    // One node already updating (new pod not ready yet): nothing more may go.
    const updating = [pod('n1', 'new', { ready: false }), ...old.slice(1)];
    expect(run(updating).podsToDelete).toHaveLength(0);
    // An old pod that is unavailable anyway is always replaced.
    const broken = [pod('n1', 'new', { ready: false }), pod('n2', 'old', { ready: false }), ...old.slice(2)];
    expect(run(broken).podsToDelete.map((p) => p.spec.nodeName)).toEqual(['n2']);
  });

  it('with surge creates new pods beside old ones and deletes old pods once the new one is available', () => {
    const surge = ds({}, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } });
    const old = nodes.map((n) => pod(n.metadata.name ?? '', 'old'));
    expect(run(old, surge)).toEqual({ podsToDelete: [], nodesToCreate: ['n1'] });
    const surged = [...old, pod('n1', 'new')];
    const plan = run(surged, surge);
    expect(plan.podsToDelete.map((p) => p.spec.nodeName)).toEqual(['n1']);
  });
});

describe('calculateStatus', () => {
  it('counts desired, current, ready, updated, available and misscheduled', () => {
    const nodes = [node('n1'), node('n2'), node('n3'), node('n4', { taints: [{ key: 'x', effect: 'NoSchedule' }] })];
    const pods = [pod('n1', 'h1'), pod('n2', 'old'), pod('n4', 'h1'), pod('n3', 'h1', { ready: false })];
    const status = calculateStatus({ ds: ds(), nodes, podsByNode: podsByNode(pods), hash: 'h1', nowMs: NOW });
    expect(status).toEqual({
      desiredNumberScheduled: 3,
      currentNumberScheduled: 3,
      numberReady: 2,
      updatedNumberScheduled: 2,
      numberAvailable: 2,
      numberUnavailable: 1,
      numberMisscheduled: 1,
      observedGeneration: 2,
    });
  });
});
