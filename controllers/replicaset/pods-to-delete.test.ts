import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { getPodsToDelete, POD_DELETION_COST_ANNOTATION, rankPodsForDeletion } from './pods-to-delete.js';

interface PodShape {
  node?: string;
  phase?: 'Pending' | 'Running' | 'Unknown';
  /** Ready since this ISO time (Ready=True); 'never' = Ready=False; 'untimed' = Ready=True with no time. */
  ready?: string;
  restarts?: number;
  created?: string;
  cost?: string;
  uid?: string;
}

function pod(name: string, shape: PodShape = {}): Pod {
  const result: Pod = {
    metadata: { name, namespace: 'default', uid: shape.uid ?? `uid-${name}` },
    spec: { containers: [{ name: 'app', image: 'busybox' }] },
    status: {},
  };
  const phase = 'phase' in shape ? shape.phase : 'Running';
  if (phase !== undefined) result.status!.phase = phase;
  if (shape.node !== undefined) result.spec.nodeName = shape.node;
  if (shape.created !== undefined) result.metadata.creationTimestamp = shape.created;
  if (shape.cost !== undefined) result.metadata.annotations = { [POD_DELETION_COST_ANNOTATION]: shape.cost };
  if (shape.ready !== undefined) {
    const ready = shape.ready !== 'never';
    const timed = ready && shape.ready !== 'untimed';
    result.status!.conditions = [{ type: 'Ready', status: ready ? 'True' : 'False', ...(timed ? { lastTransitionTime: shape.ready } : {}) }];
  }
  if (shape.restarts !== undefined) result.status!.containerStatuses = [{ name: 'app', ready: true, restartCount: shape.restarts }];
  return result;
}

const T = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)).toISOString().replace('.000', '');
const assigned = { node: 'n1', ready: T(0), created: T(0) } as const;

// Each case: two pods that differ in exactly one respect; `first` must be deleted first.
const pairs: Array<{ rule: string; first: Pod; second: Pod }> = [
  { rule: 'unassigned before assigned', first: pod('a', { ...assigned, node: undefined }), second: pod('b', assigned) },
  { rule: 'Pending before Unknown', first: pod('a', { ...assigned, phase: 'Pending' }), second: pod('b', { ...assigned, phase: 'Unknown' }) },
  { rule: 'Unknown before Running', first: pod('a', { ...assigned, phase: 'Unknown' }), second: pod('b', assigned) },
  { rule: 'no phase counts as Pending', first: pod('a', { ...assigned, phase: undefined }), second: pod('b', { ...assigned, phase: 'Unknown' }) },
  { rule: 'not ready before ready', first: pod('a', { ...assigned, ready: 'never' }), second: pod('b', assigned) },
  { rule: 'lower deletion cost first', first: pod('a', { ...assigned, cost: '-5' }), second: pod('b', { ...assigned, cost: '10' }) },
  { rule: 'invalid deletion cost counts as 0', first: pod('a', { ...assigned, cost: 'oops' }), second: pod('b', { ...assigned, cost: '1' }) },
  { rule: 'ready more recently first', first: pod('a', { ...assigned, ready: T(50) }), second: pod('b', { ...assigned, ready: T(10) }) },
  { rule: 'unknown ready time first', first: pod('a', { ...assigned, ready: 'untimed' }), second: pod('b', assigned) },
  { rule: 'more restarts first', first: pod('a', { ...assigned, restarts: 3 }), second: pod('b', { ...assigned, restarts: 1 }) },
  { rule: 'newer before older', first: pod('a', { ...assigned, created: T(30) }), second: pod('b', assigned) },
  { rule: 'unknown creation time first', first: pod('a', { ...assigned, created: undefined }), second: pod('b', assigned) },
  { rule: 'uid breaks a full tie', first: pod('x', { ...assigned, uid: 'a' }), second: pod('y', { ...assigned, uid: 'b' }) },
];

describe('rankPodsForDeletion', () => {
  it.each(pairs)('$rule', ({ first, second }) => {
    expect(rankPodsForDeletion([second, first]).map((p) => p.metadata.name)).toEqual([first.metadata.name, second.metadata.name]);
    expect(rankPodsForDeletion([first, second]).map((p) => p.metadata.name)).toEqual([first.metadata.name, second.metadata.name]);
  });

  it('applies the rules in order: an earlier rule outweighs every later one', () => {
    // b is newer, restarted more and not ready-timed, but it is assigned and a is not.
    const a = pod('a', { ...assigned, node: undefined, created: T(0) });
    const b = pod('b', { ...assigned, restarts: 9, created: T(50), ready: 'never' });
    expect(rankPodsForDeletion([b, a]).map((p) => p.metadata.name)).toEqual(['a', 'b']);
  });

  it('prefers pods on nodes crowded with related pods', () => {
    const lonely = pod('lonely', { ...assigned, node: 'n1' });
    const crowded = pod('crowded', { ...assigned, node: 'n2', created: T(0) });
    const related = [lonely, crowded, pod('other-1', { node: 'n2' }), pod('other-2', { node: 'n2' })];
    expect(rankPodsForDeletion([lonely, crowded], { relatedPods: related }).map((p) => p.metadata.name)).toEqual(['crowded', 'lonely']);
    // Without related pods there is no co-location rank: the uid decides.
    expect(rankPodsForDeletion([lonely, crowded]).map((p) => p.metadata.name)).toEqual(['crowded', 'lonely']);
    expect(rankPodsForDeletion([crowded, lonely], { relatedPods: [lonely, pod('x', { node: 'n1' }), crowded] })[0]?.metadata.name).toBe('lonely');
  });

  it('does not count inactive related pods towards co-location', () => {
    const a = pod('a', { ...assigned, node: 'n1', uid: 'z' });
    const b = pod('b', { ...assigned, node: 'n2', uid: 'a' });
    const gone = { ...pod('gone', { node: 'n1' }), status: { phase: 'Succeeded' as const } };
    expect(rankPodsForDeletion([a, b], { relatedPods: [a, b, gone] }).map((p) => p.metadata.name)).toEqual(['b', 'a']);
  });

  it('compares ages on a log2 scale when given the time, leaving near-equals to the uid', () => {
    const now = Date.parse(T(0)) + 1000 * 1000;
    // Both about 1000 s old: the same log2 bucket, so uid order wins over the 1 s difference.
    const older = pod('older', { ...assigned, created: T(0), uid: 'a' });
    const newer = pod('newer', { ...assigned, created: T(1), uid: 'b' });
    expect(rankPodsForDeletion([newer, older], { nowMs: now }).map((p) => p.metadata.name)).toEqual(['older', 'newer']);
    expect(rankPodsForDeletion([older, newer]).map((p) => p.metadata.name)).toEqual(['newer', 'older']);
    // Ages in different buckets (~1000 s vs ~500 s) are still ordered newest first.
    const young = pod('young', { ...assigned, created: T(500), uid: 'z' });
    expect(rankPodsForDeletion([older, young], { nowMs: now }).map((p) => p.metadata.name)).toEqual(['young', 'older']);
  });
});

describe('getPodsToDelete', () => {
  const pods = [pod('ready-old', assigned), pod('pending', { phase: 'Pending' }), pod('not-ready', { ...assigned, ready: 'never' })];

  it('returns the first `count` pods of the ranking', () => {
    expect(getPodsToDelete(pods, 2).map((p) => p.metadata.name)).toEqual(['pending', 'not-ready']);
  });

  it('returns everything for a count at or above the number of pods, nothing for 0', () => {
    expect(getPodsToDelete(pods, 5)).toHaveLength(3);
    expect(getPodsToDelete(pods, 0)).toEqual([]);
  });

  it('does not reorder or change its input', () => {
    const before = structuredClone(pods);
    getPodsToDelete(pods, 1);
    expect(pods).toEqual(before);
  });
});
