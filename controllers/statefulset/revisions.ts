/**
 * A StatefulSet's revision history as ControllerRevisions (Kubernetes'
 * controller/history and the StatefulSet controller's newRevision / truncateHistory), as
 * pure decisions. Each revision's `data` is the strategic merge patch that restores its pod
 * template, `{spec: {template: {..., $patch: replace}}}`, exactly what `kubectl rollout undo
 * statefulset` sends back; its name is `<set>-<hash of data>`.
 */
import type { ControllerRevision } from '../../apiserver/api/apps/controller-revision.js';
import type { StatefulSet } from '../../apiserver/api/apps/stateful-set.js';
import { canonicalJson, fnv1a32, safeEncodeString } from '../runtime/pods/pod-template-hash.js';
import type { DeepReadonly } from '../runtime/types.js';
import { setOwnerRef } from './identity.js';

/** REVISION_HASH_LABEL is the label every ControllerRevision carries with its hash. */
export const REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

type ReadonlyRevision = DeepReadonly<ControllerRevision>;

/** revisionData is the patch that restores the set's current template. */
export function revisionData(set: DeepReadonly<StatefulSet>): Record<string, unknown> {
  return { spec: { template: { ...structuredClone(set.spec.template), $patch: 'replace' } } };
}

/** hashRevisionData is history.HashControllerRevision: FNV-1a 32 over the canonical JSON
 * of `data`, then the collision count (4 little-endian bytes padded to 8), safe-encoded. */
export function hashRevisionData(data: unknown, collisionCount?: number): string {
  let hash = fnv1a32(new TextEncoder().encode(canonicalJson(data)));
  if (collisionCount !== undefined && collisionCount > 0) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    hash = fnv1a32(bytes, hash);
  }
  return safeEncodeString(String(hash));
}

/** newRevision builds revision number `revision` of the set's current template. */
export function newRevision(set: DeepReadonly<StatefulSet>, revision: number, collisionCount?: number): ControllerRevision {
  const data = revisionData(set);
  const hash = hashRevisionData(data, collisionCount);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${(set.metadata.name ?? '').slice(0, 223)}-${hash}`,
      namespace: set.metadata.namespace,
      labels: { ...set.spec.template.metadata?.labels, [REVISION_HASH_LABEL]: hash },
      annotations: { ...set.metadata.annotations },
      ownerReferences: [setOwnerRef(set)],
    },
    data,
    revision,
  };
}

/** sortRevisions orders revisions by number, then name (history.SortControllerRevisions). */
export function sortRevisions(revisions: readonly ReadonlyRevision[]): ReadonlyRevision[] {
  return [...revisions].sort((a, b) => a.revision - b.revision || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
}

/** sameData is true when two revisions restore the same template. */
export function sameData(a: { readonly data?: unknown }, b: { readonly data?: unknown }): boolean {
  return canonicalJson(a.data ?? null) === canonicalJson(b.data ?? null);
}

/** nextRevisionNumber is one more than the highest revision (1 for none). */
export function nextRevisionNumber(sorted: readonly ReadonlyRevision[]): number {
  return (sorted.at(-1)?.revision ?? 0) + 1;
}

/** RevisionChoice says how to obtain the update revision. */
export type RevisionChoice =
  | { kind: 'latest'; revision: ReadonlyRevision }
  | { kind: 'renumber'; revision: ReadonlyRevision; to: number }
  | { kind: 'create'; revision: ControllerRevision };

/**
 * chooseUpdateRevision decides where the update revision comes from: the latest revision if
 * it already holds the template; an older equal one renumbered to the next number (a
 * rollback, as `rollout undo` causes); otherwise a new revision. `sorted` is sortRevisions'.
 */
export function chooseUpdateRevision(set: DeepReadonly<StatefulSet>, sorted: readonly ReadonlyRevision[]): RevisionChoice {
  const next = nextRevisionNumber(sorted);
  const candidate = newRevision(set, next, set.status?.collisionCount);
  const equal = sorted.filter((revision) => sameData(revision, candidate));
  const last = equal.at(-1);
  if (last === undefined) return { kind: 'create', revision: candidate };
  if (last === sorted.at(-1)) return { kind: 'latest', revision: last };
  return { kind: 'renumber', revision: last, to: next };
}

/**
 * revisionsToDelete is truncateHistory: the oldest revisions beyond `limit` that are neither
 * the current nor the update revision nor the revision of a live pod.
 */
export function revisionsToDelete(sorted: readonly ReadonlyRevision[], live: ReadonlySet<string>, limit: number): ReadonlyRevision[] {
  const history = sorted.filter((revision) => !live.has(revision.metadata.name ?? ''));
  const excess = history.length - Math.max(0, limit);
  return excess > 0 ? history.slice(0, excess) : [];
}
