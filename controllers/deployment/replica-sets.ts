/**
 * Pure questions about a Deployment's ReplicaSets (Kubernetes' deploymentutil and the
 * ReplicaSet sort orders of pkg/controller): which one is new, which are old, how many
 * replicas they hold, and in which order to touch them. Everything here reads cached objects
 * and returns new arrays; nothing mutates its arguments.
 */
import type { Deployment } from '../../apiserver/api/apps/deployment.js';
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { PodTemplateSpec } from '../../apiserver/api/core/pod-spec.js';
import { POD_TEMPLATE_HASH_LABEL } from '../runtime/pods/pod-template-hash.js';
import type { DeepReadonly } from '../runtime/types.js';

/** ReadonlyReplicaSet is a ReplicaSet as listers hand it out: shared, never to be edited. */
export type ReadonlyReplicaSet = DeepReadonly<ReplicaSet>;
/** ReadonlyDeployment is a Deployment that a function only reads. */
export type ReadonlyDeployment = DeepReadonly<Deployment>;

/** specReplicas is rs.spec.replicas, 0 when unset (the server defaults it to 1 on write, so
 * an unset value is only seen on objects built in tests). */
export function specReplicas(rs: ReadonlyReplicaSet): number {
  return rs.spec.replicas ?? 0;
}

/** desiredReplicas is deployment.spec.replicas as the server defaults it (1 when unset). */
export function desiredReplicas(deployment: ReadonlyDeployment): number {
  return deployment.spec.replicas ?? 1;
}

/** isActive: a ReplicaSet is active while it wants pods (controller.FilterActiveReplicaSets). */
export function isActive(rs: ReadonlyReplicaSet | undefined): rs is ReadonlyReplicaSet {
  return rs !== undefined && specReplicas(rs) > 0;
}

/** filterActive keeps the ReplicaSets that want pods, dropping undefined entries. */
export function filterActive(rss: ReadonlyArray<ReadonlyReplicaSet | undefined>): ReadonlyReplicaSet[] {
  return rss.filter(isActive);
}

/** present drops the undefined entry that stands for "no new ReplicaSet yet". */
export function present(rss: ReadonlyArray<ReadonlyReplicaSet | undefined>): ReadonlyReplicaSet[] {
  return rss.filter((rs): rs is ReadonlyReplicaSet => rs !== undefined);
}

function createdMs(rs: ReadonlyReplicaSet): number {
  const ms = Date.parse(rs.metadata.creationTimestamp ?? '');
  return Number.isNaN(ms) ? 0 : ms;
}

function compareNames(a: ReadonlyReplicaSet, b: ReadonlyReplicaSet): number {
  const left = a.metadata.name ?? '';
  const right = b.metadata.name ?? '';
  return left < right ? -1 : left > right ? 1 : 0;
}

/** byCreationTimestamp orders oldest first, by name on equal timestamps
 * (controller.ReplicaSetsByCreationTimestamp). */
export function byCreationTimestamp(a: ReadonlyReplicaSet, b: ReadonlyReplicaSet): number {
  return createdMs(a) - createdMs(b) || compareNames(a, b);
}

/** bySizeOlder orders larger first and, among equal sizes, older first: the order in which
 * proportional scaling takes replicas away (controller.ReplicaSetsBySizeOlder). */
export function bySizeOlder(a: ReadonlyReplicaSet, b: ReadonlyReplicaSet): number {
  return specReplicas(b) - specReplicas(a) || byCreationTimestamp(a, b);
}

/** bySizeNewer orders larger first and, among equal sizes, newer first: the order in which
 * proportional scaling hands out replicas (controller.ReplicaSetsBySizeNewer). */
export function bySizeNewer(a: ReadonlyReplicaSet, b: ReadonlyReplicaSet): number {
  return specReplicas(b) - specReplicas(a) || byCreationTimestamp(b, a);
}

/** sumSpecReplicas adds up spec.replicas (GetReplicaCountForReplicaSets). */
export function sumSpecReplicas(rss: ReadonlyArray<ReadonlyReplicaSet | undefined>): number {
  return present(rss).reduce((total, rs) => total + specReplicas(rs), 0);
}

/** sumStatusReplicas adds up status.replicas: pods that exist (GetActualReplicaCountForReplicaSets). */
export function sumStatusReplicas(rss: ReadonlyArray<ReadonlyReplicaSet | undefined>): number {
  return present(rss).reduce((total, rs) => total + (rs.status?.replicas ?? 0), 0);
}

/** sumReadyReplicas adds up status.readyReplicas. */
export function sumReadyReplicas(rss: ReadonlyArray<ReadonlyReplicaSet | undefined>): number {
  return present(rss).reduce((total, rs) => total + (rs.status?.readyReplicas ?? 0), 0);
}

/** sumAvailableReplicas adds up status.availableReplicas. Pod availability itself (ready for
 * minReadySeconds, by the clock) is the ReplicaSet controller's to count, as in Kubernetes:
 * the Deployment controller copies its own minReadySeconds onto every new ReplicaSet and
 * trusts their status. */
export function sumAvailableReplicas(rss: ReadonlyArray<ReadonlyReplicaSet | undefined>): number {
  return present(rss).reduce((total, rs) => total + (rs.status?.availableReplicas ?? 0), 0);
}

/** isEmptyValue: Kubernetes' semantic equality treats a nil and an empty slice or map alike,
 * which in JSON means absent, null, [] and {} all compare equal. */
function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** semanticEqual compares JSON values structurally, ignoring key order and treating absent,
 * null, empty arrays and empty objects as equal (apiequality.Semantic.DeepEqual). Pure. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmptyValue(a) && isEmptyValue(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => semanticEqual(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  return [...keys].every((key) => semanticEqual(left[key], right[key]));
}

function withoutHashLabel(template: DeepReadonly<PodTemplateSpec> | undefined): unknown {
  if (template === undefined) return undefined;
  const { [POD_TEMPLATE_HASH_LABEL]: _hash, ...labels } = template.metadata?.labels ?? {};
  return { ...template, metadata: { ...template.metadata, labels } };
}

/** equalIgnoreHash reports whether two pod templates are semantically equal once the
 * pod-template-hash label is ignored (deploymentutil.EqualIgnoreHash): the test of "this
 * ReplicaSet runs this Deployment's current template". */
export function equalIgnoreHash(a: DeepReadonly<PodTemplateSpec> | undefined, b: DeepReadonly<PodTemplateSpec> | undefined): boolean {
  return semanticEqual(withoutHashLabel(a), withoutHashLabel(b));
}

/** findNewReplicaSet returns the ReplicaSet whose template equals the Deployment's, the
 * oldest one if (after an upgrade, say) several do, or undefined (FindNewReplicaSet). */
export function findNewReplicaSet(deployment: ReadonlyDeployment, rss: readonly ReadonlyReplicaSet[]): ReadonlyReplicaSet | undefined {
  return [...rss].sort(byCreationTimestamp).find((rs) => equalIgnoreHash(rs.spec.template, deployment.spec.template));
}

/** OldReplicaSets splits the Deployment's other ReplicaSets: `all` of them, and the
 * `withReplicas` ones that still want pods. */
export interface OldReplicaSets {
  all: ReadonlyReplicaSet[];
  withReplicas: ReadonlyReplicaSet[];
}

/** findOldReplicaSets returns every ReplicaSet but the new one (FindOldReplicaSets). */
export function findOldReplicaSets(deployment: ReadonlyDeployment, rss: readonly ReadonlyReplicaSet[]): OldReplicaSets {
  const newRS = findNewReplicaSet(deployment, rss);
  const all = rss.filter((rs) => newRS === undefined || rs.metadata.uid !== newRS.metadata.uid);
  return { all, withReplicas: all.filter(isActive) };
}

/**
 * findActiveOrLatest returns the only active ReplicaSet, or, when none is active, the new one
 * or else the newest old one; undefined when several are active (they need proportional
 * scaling) or there are none at all (FindActiveOrLatest).
 */
export function findActiveOrLatest(newRS: ReadonlyReplicaSet | undefined, oldRSs: readonly ReadonlyReplicaSet[]): ReadonlyReplicaSet | undefined {
  if (newRS === undefined && oldRSs.length === 0) return undefined;
  const newestOldFirst = [...oldRSs].sort((a, b) => byCreationTimestamp(b, a));
  const active = filterActive([...newestOldFirst, newRS]);
  if (active.length > 1) return undefined;
  return active[0] ?? newRS ?? newestOldFirst[0];
}
