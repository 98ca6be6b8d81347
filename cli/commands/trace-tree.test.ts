import { describe, expect, it } from 'vitest';
import type { CauseTrigger, FieldChange, HistoryActor, HistoryItem, OriginTrigger } from '../../apiserver/api/kubesim/history.js';
import { buildTraceTree, convergedLine, countNodes, pickRoot, renderTree } from './trace-tree.js';

const user: HistoryActor = { userAgent: 'kubectl/v1.32.0 (linux/amd64)', user: 'kubesim' };
const onEvent = (kind: string, name: string, resourceVersion: number): OriginTrigger => ({
  kind: 'event',
  type: 'MODIFIED',
  object: { kind, namespace: 'default', name, resourceVersion: String(resourceVersion) },
});
const loop = (controller: string, key: string, trigger: CauseTrigger): HistoryActor => ({
  userAgent: 'kubesim/0.1',
  controller,
  key,
  reconcileId: 'r',
  trigger,
});

function item(revision: number, fields: Partial<HistoryItem> & { kind: string; name: string }): HistoryItem {
  const resource =
    { Deployment: 'deployments.apps', ReplicaSet: 'replicasets.apps', Pod: 'pods', Event: 'events', Lease: 'leases.coordination.k8s.io' }[fields.kind] ??
    'things';
  return { revision, type: 'MODIFIED', resource, namespace: 'default', time: '2025-01-01T00:00:00.000Z', actor: null, diff: [], ...fields };
}
const set = (path: string, old: unknown, value: unknown): FieldChange => ({ path, old, new: value });

/** A scale from 3 to 5, as the history records it, with unrelated writes in between. */
const history: HistoryItem[] = [
  item(100, { kind: 'Deployment', name: 'web', actor: user, diff: [set('spec.replicas', 3, 5)] }),
  item(101, {
    kind: 'ReplicaSet',
    name: 'web-7d4b8c6',
    actor: loop('deployment', 'default/web', onEvent('Deployment', 'web', 100)),
    diff: [set('spec.replicas', 3, 5)],
  }),
  item(102, {
    kind: 'Pod',
    name: 'web-7d4b8c6-x1',
    type: 'ADDED',
    actor: loop('replicaset', 'default/web-7d4b8c6', onEvent('ReplicaSet', 'web-7d4b8c6', 101)),
  }),
  item(103, {
    kind: 'Pod',
    name: 'web-7d4b8c6-x2',
    type: 'ADDED',
    actor: loop('replicaset', 'default/web-7d4b8c6', onEvent('ReplicaSet', 'web-7d4b8c6', 101)),
  }),
  item(104, { kind: 'Deployment', name: 'other', actor: loop('deployment', 'default/other', { kind: 'resync' }), diff: [set('status.replicas', 1, 2)] }),
  item(105, {
    kind: 'Event',
    name: 'web-7d4b8c6.1',
    type: 'ADDED',
    actor: loop('replicaset', 'default/web-7d4b8c6', onEvent('ReplicaSet', 'web-7d4b8c6', 101)),
  }),
  item(106, {
    kind: 'Pod',
    name: 'web-7d4b8c6-x1',
    actor: loop('scheduler', 'default/web-7d4b8c6-x1', onEvent('Pod', 'web-7d4b8c6-x1', 102)),
    diff: [{ path: 'spec.nodeName', new: 'node-2' }],
  }),
  item(107, { kind: 'Lease', name: 'node-2', actor: loop('kubelet/node-2', 'node-2', { kind: 'heartbeat' }), diff: [set('spec.renewTime', 'a', 'b')] }),
  // The kubelet's first reconcile only waited out a stage delay: its write names that origin.
  item(108, {
    kind: 'Pod',
    name: 'web-7d4b8c6-x1',
    actor: loop('kubelet/node-2', 'default/web-7d4b8c6-x1', { kind: 'stage', origin: onEvent('Pod', 'web-7d4b8c6-x1', 106) }),
    diff: [{ path: 'status.phase', old: 'Pending', new: 'Running' }],
  }),
  item(109, {
    kind: 'Pod',
    name: 'web-7d4b8c6-x1',
    actor: loop('kubelet/node-2', 'default/web-7d4b8c6-x1', { kind: 'stage' }),
    diff: [set('status.conditions[type=Ready].status', 'False', 'True')],
  }),
  item(110, {
    kind: 'Pod',
    name: 'web-7d4b8c6-x9',
    actor: loop('kubelet/node-1', 'default/web-7d4b8c6-x9', { kind: 'stage' }),
    diff: [set('status.phase', 'Pending', 'Running')],
  }),
];

describe('trace tree', () => {
  it("follows triggers from the user's change through every loop it set off, leaving the rest out", () => {
    const tree = buildTraceTree(history, history[0]!);
    expect(countNodes(tree)).toBe(7);
    expect(renderTree(tree)).toEqual([
      'kubectl (user) scaled deployment default/web spec.replicas 3→5',
      '└ deployment controller set replicaset web-7d4b8c6 spec.replicas 3→5',
      '  ├ replicaset controller created pod web-7d4b8c6-x1',
      '  │ └ scheduler bound pod web-7d4b8c6-x1 to node-2',
      '  │   └ kubelet node-2 reported pod web-7d4b8c6-x1 status: Running',
      '  │     └ kubelet node-2 reported pod web-7d4b8c6-x1 status: Ready',
      '  └ replicaset controller created pod web-7d4b8c6-x2',
    ]);
  });

  it('ignores entries before the root and cuts long trees with a note', () => {
    const tree = buildTraceTree(history, history[1]!);
    expect(tree.children.map((c) => c.item.revision)).toEqual([102, 103]);
    expect(renderTree(buildTraceTree(history, history[0]!), 3)).toEqual([
      'kubectl (user) scaled deployment default/web spec.replicas 3→5',
      '└ deployment controller set replicaset web-7d4b8c6 spec.replicas 3→5',
      '  ├ replicaset controller created pod web-7d4b8c6-x1',
      '… 4 more changes (--max-lines to see them)',
    ]);
  });

  it('starts from the latest change a user made, else the latest change', () => {
    const own = history.filter((i) => i.resource === 'pods' && i.name === 'web-7d4b8c6-x1');
    expect(pickRoot(own)?.revision).toBe(109);
    expect(pickRoot([history[0]!, history[4]!])?.revision).toBe(100);
    expect(pickRoot([])).toBeUndefined();
  });

  it('says where the object converged', () => {
    const withObject = (object: Record<string, unknown>) => ({ ...history[0]!, object });
    expect(convergedLine(withObject({ spec: { replicas: 5 }, status: { readyReplicas: 5 } }))).toBe('converged: 5/5 ready');
    expect(convergedLine(withObject({ spec: { replicas: 5 }, status: { readyReplicas: 3 } }))).toBe('not converged yet: 3/5 ready');
    expect(convergedLine(withObject({ spec: {}, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } }))).toBe(
      'converged: Running, Ready',
    );
    expect(convergedLine({ ...history[0]!, type: 'DELETED' })).toBe('converged: deleted');
  });
});
