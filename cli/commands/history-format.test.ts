import { describe, expect, it } from 'vitest';
import type { HistoryItem } from '../../apiserver/api/kubesim/history.js';
import { actorLabel, actorName, describeChange } from './history-format.js';
import { colourOf, formatWatchLine } from './watch.js';

const base: HistoryItem = {
  revision: 9,
  type: 'MODIFIED',
  resource: 'replicasets.apps',
  kind: 'ReplicaSet',
  namespace: 'default',
  name: 'web-1',
  time: '2025-03-01T12:00:03.120Z',
  actor: null,
  diff: [],
};
const loopActor = { controller: 'deployment', key: 'default/web', reconcileId: 'r', trigger: { kind: 'resync' as const } };

describe('history wording', () => {
  it('names loops and users', () => {
    expect(actorLabel(loopActor)).toBe('deployment controller');
    expect(actorLabel({ ...loopActor, controller: 'kubelet/node-2' })).toBe('kubelet node-2');
    expect(actorLabel({ ...loopActor, controller: 'scheduler' })).toBe('scheduler');
    expect(actorLabel({ userAgent: 'kubectl/v1.32.0 (linux/amd64)' })).toBe('kubectl (user)');
    expect(actorName({ userAgent: 'kubectl/v1.32.0' })).toBe('kubectl');
    expect(actorName(null)).toBe('apiserver');
  });

  it('uses verbs for the common changes', () => {
    const modified = (diff: HistoryItem['diff'], actor: HistoryItem['actor'] = loopActor) => describeChange({ ...base, diff, actor });
    expect(
      modified([
        { path: 'spec.replicas', old: 3, new: 5 },
        { path: 'metadata.annotations["a/b"]', old: '3', new: '5' },
      ]),
    ).toBe('set replicaset default/web-1 spec.replicas 3→5 (+1 more)');
    expect(modified([{ path: 'spec.replicas', old: 3, new: 5 }], { userAgent: 'kubectl/1' })).toBe('scaled replicaset default/web-1 spec.replicas 3→5');
    expect(modified([{ path: 'status.readyReplicas', old: 3, new: 5 }])).toBe('reported replicaset default/web-1 status: readyReplicas 3→5');
    expect(modified([{ path: 'metadata.deletionTimestamp', new: '2025-03-01T12:00:00Z' }])).toBe('marked replicaset default/web-1 for deletion');
    expect(
      modified([
        { path: 'spec.paused', old: false, new: true },
        { path: 'spec.a', new: 'x' },
        { path: 'spec.b', old: 'y' },
      ]),
    ).toBe('set replicaset default/web-1 spec.paused false→true, spec.a →x (+1 more)');
    expect(describeChange({ ...base, type: 'ADDED' }, 'default')).toBe('created replicaset web-1');
    expect(describeChange({ ...base, type: 'DELETED' })).toBe('deleted replicaset default/web-1');
  });

  it('prints watch lines with a fixed colour per loop, none for users or off a terminal', () => {
    const item = { ...base, actor: loopActor, diff: [{ path: 'spec.replicas', old: 3, new: 5 }] };
    expect(formatWatchLine(item, { colour: false })).toBe(`12:00:03.120  ${'deployment'.padEnd(20)}  set replicaset default/web-1 spec.replicas 3→5`);
    expect(formatWatchLine(item, { colour: true })).toContain(`${colourOf('deployment')}deployment`);
    expect(colourOf('deployment')).toBe(colourOf('deployment'));
    expect(formatWatchLine({ ...item, actor: { userAgent: 'kubectl/1' } }, { colour: true })).not.toContain('\u001b[');
  });
});
