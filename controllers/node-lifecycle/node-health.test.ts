import { describe, expect, it } from 'vitest';
import type { Lease } from '../../apiserver/api/coordination/lease.js';
import type { Node, NodeCondition } from '../../apiserver/api/core/node.js';
import { assessNodeHealth, isNodeUnreachable, NodeStatusReason, unknownConditions } from './node-health.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString().replace('.000Z', 'Z');
const timing = { gracePeriodMs: 40_000, startupGracePeriodMs: 60_000 };

function node(conditions?: NodeCondition[]): Node {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-2', creationTimestamp: at(0) }, status: conditions && { conditions } };
}

const ready = (status: NodeCondition['status'], heartbeat: number): NodeCondition => ({
  type: 'Ready',
  status,
  reason: 'KubeletReady',
  lastHeartbeatTime: at(heartbeat),
  lastTransitionTime: at(0),
});

const lease = (renewSeconds: number): Lease => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'node-2', namespace: 'kube-node-lease' },
  spec: { holderIdentity: 'node-2', leaseDurationSeconds: 40, renewTime: `${at(renewSeconds).slice(0, -1)}.250000Z` },
});

describe('assessNodeHealth', () => {
  it.each([
    { name: 'lease renewed recently', conditions: [ready('True', 5)], renew: 100, now: 130, stale: false, last: 100.25 },
    { name: 'lease silent past the grace period', conditions: [ready('True', 5)], renew: 100, now: 141, stale: true, last: 100.25 },
    { name: 'exactly at the grace period (not yet)', conditions: [ready('True', 100.25)], renew: undefined, now: 140.25, stale: false, last: 100.25 },
    { name: 'status heartbeat newer than the lease', conditions: [ready('True', 120)], renew: 100, now: 150, stale: false, last: 120 },
    { name: 'no lease: the Ready heartbeat alone', conditions: [ready('True', 10)], renew: undefined, now: 51, stale: true, last: 10 },
    { name: 'never reported: startup grace from registration', conditions: undefined, renew: undefined, now: 59, stale: false, last: 0 },
    { name: 'never reported, startup grace over', conditions: undefined, renew: undefined, now: 61, stale: true, last: 0 },
    { name: 'lease but no Ready condition: startup grace', conditions: undefined, renew: 10, now: 65, stale: false, last: 10.25 },
  ])('$name', ({ conditions, renew, now, stale, last }) => {
    const health = assessNodeHealth({ node: node(conditions), lease: renew === undefined ? undefined : lease(renew), nowMs: T0 + now * 1000, ...timing });
    expect(health.stale).toBe(stale);
    expect(health.lastHeartbeatMs).toBe(T0 + last * 1000);
  });

  it('counts a node without any time as alive now', () => {
    const bare: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'x' } };
    expect(assessNodeHealth({ node: bare, lease: undefined, nowMs: T0, ...timing })).toEqual({ lastHeartbeatMs: T0, staleAtMs: T0 + 60_000, stale: false });
  });
});

describe('unknownConditions', () => {
  it('turns every kubelet condition Unknown, keeping heartbeats and other conditions', () => {
    const pressure: NodeCondition = { type: 'MemoryPressure', status: 'False', lastHeartbeatTime: at(5), lastTransitionTime: at(0) };
    const network: NodeCondition = { type: 'NetworkUnavailable', status: 'False', lastTransitionTime: at(0) };
    const input = node([ready('True', 5), pressure, network]);
    const result = unknownConditions(input, T0 + 60_000);
    expect(result).toEqual([
      {
        type: 'Ready',
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
        lastHeartbeatTime: at(5),
        lastTransitionTime: at(60),
      },
      { ...pressure, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: at(60) },
      network,
      {
        type: 'DiskPressure',
        status: 'Unknown',
        reason: 'NodeStatusNeverUpdated',
        message: 'Kubelet never posted node status.',
        lastHeartbeatTime: at(0),
        lastTransitionTime: at(60),
      },
      {
        type: 'PIDPressure',
        status: 'Unknown',
        reason: 'NodeStatusNeverUpdated',
        message: 'Kubelet never posted node status.',
        lastHeartbeatTime: at(0),
        lastTransitionTime: at(60),
      },
    ]);
    expect(input.status?.conditions?.[0]?.status).toBe('True');
  });

  it('returns undefined when the conditions already are Unknown', () => {
    const once = unknownConditions(node([ready('True', 5)]), T0 + 60_000);
    expect(unknownConditions(node(once), T0 + 65_000)).toBeUndefined();
  });

  it('uses the Kubernetes reason names', () => {
    expect(NodeStatusReason).toEqual({ Unknown: 'NodeStatusUnknown', NeverUpdated: 'NodeStatusNeverUpdated' });
  });
});

describe('isNodeUnreachable', () => {
  it.each([
    { name: 'missing node', input: undefined, expected: true },
    { name: 'Ready=Unknown', input: node([ready('Unknown', 0)]), expected: true },
    { name: 'never reported', input: node(), expected: true },
    { name: 'Ready=False (the kubelet is alive)', input: node([ready('False', 0)]), expected: false },
    { name: 'Ready=True', input: node([ready('True', 0)]), expected: false },
  ])('$name → $expected', ({ input, expected }) => {
    expect(isNodeUnreachable(input)).toBe(expected);
  });
});
