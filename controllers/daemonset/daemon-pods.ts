/**
 * A DaemonSet's pods, node by node: which node each pod is meant for, which pods carry the
 * current template, and the pod the controller creates for a node (Kubernetes' daemon util:
 * GetTargetNodeName, IsPodUpdated, CreatePodTemplate, ReplaceDaemonSetPodNodeNameNodeAffinity).
 * Pure; cache objects are read, never changed.
 */
import type { Affinity } from '../../apiserver/api/core/affinity.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import { newControllerRef } from '../../apiserver/api/machinery/owner-references.js';
import { parseTimeMs } from '../../apiserver/api/machinery/time.js';
import type { ReadonlyPod } from '../runtime/pods/pod-state.js';
import { computeHash } from '../runtime/pods/pod-template-hash.js';
import { daemonPodTolerations, type ReadonlyDaemonSet } from './node-eligibility.js';

/** CONTROLLER_REVISION_HASH_LABEL is apps/v1 ControllerRevisionHashLabelKey: the template
 * revision a daemon pod was created from. */
export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';

/** templateHash is the DaemonSet's current revision hash: its template (and collision count)
 * hashed as controller.ComputeHash does. Deterministic across restarts. */
export function templateHash(ds: ReadonlyDaemonSet): string {
  return computeHash(ds.spec.template, ds.status?.collisionCount);
}

/** isPodUpdated is true when the pod was created from the current template (its
 * controller-revision-hash label equals `hash`). */
export function isPodUpdated(pod: ReadonlyPod, hash: string): boolean {
  return pod.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] === hash;
}

/**
 * targetNodeName is the node a daemon pod belongs to: spec.nodeName once bound, else the one
 * node its required node affinity pins it to with `matchFields metadata.name In [node]`
 * (GetTargetNodeName). Undefined for a pod pinned to no single node.
 */
export function targetNodeName(pod: ReadonlyPod): string | undefined {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  const terms = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const term of terms) {
    for (const field of term.matchFields ?? []) {
      if (field.key === 'metadata.name' && field.operator === 'In' && field.values?.length === 1) return field.values[0];
    }
  }
  return undefined;
}

/** podsByNode groups pods by targetNodeName, each group oldest first (scheduled pods before
 * unscheduled ones, as podByCreationTimestampAndPhase orders them). Pods without a target
 * node are left out. */
export function podsByNode(pods: readonly ReadonlyPod[]): Map<string, ReadonlyPod[]> {
  const groups = new Map<string, ReadonlyPod[]>();
  for (const pod of pods) {
    const node = targetNodeName(pod);
    if (node === undefined) continue;
    const group = groups.get(node) ?? [];
    group.push(pod);
    groups.set(node, group);
  }
  for (const group of groups.values()) group.sort(byScheduledThenAge);
  return groups;
}

/** byScheduledThenAge orders bound pods first, then by creationTimestamp, then by name. */
export function byScheduledThenAge(a: ReadonlyPod, b: ReadonlyPod): number {
  const scheduled = Number(Boolean(b.spec.nodeName)) - Number(Boolean(a.spec.nodeName));
  if (scheduled !== 0) return scheduled;
  const age = (parseTimeMs(a.metadata.creationTimestamp) ?? 0) - (parseTimeMs(b.metadata.creationTimestamp) ?? 0);
  if (age !== 0) return age;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0;
}

/**
 * newDaemonPod builds the pod for `nodeName`: the template's metadata and spec (copied), the
 * `controller-revision-hash` label, the daemon default tolerations, a required node affinity
 * replaced by `matchFields metadata.name In [nodeName]` (so the default scheduler can only
 * bind it there), a `<ds-name>-` generateName and the DaemonSet's controller reference.
 */
export function newDaemonPod(ds: ReadonlyDaemonSet, nodeName: string, hash: string): Pod {
  // NOTE: the DaemonSet is a shared cache object: copy the template before using it.
  const template = structuredClone(ds.spec.template) as { metadata?: Pod['metadata']; spec: Pod['spec'] };
  const metadata: Pod['metadata'] = {
    generateName: `${ds.metadata.name}-`,
    namespace: ds.metadata.namespace,
    labels: { ...(template.metadata?.labels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: hash },
    ownerReferences: [daemonSetControllerRef(ds)],
  };
  if (template.metadata?.annotations) metadata.annotations = template.metadata.annotations;
  if (template.metadata?.finalizers) metadata.finalizers = template.metadata.finalizers;
  const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata, spec: template.spec };
  pod.spec.tolerations = daemonPodTolerations(ds.spec.template.spec);
  pod.spec.affinity = pinnedAffinity(pod.spec.affinity, nodeName);
  return pod;
}

/** pinnedAffinity returns `affinity` with its required node affinity replaced by one term
 * selecting `nodeName` by metadata.name (ReplaceDaemonSetPodNodeNameNodeAffinity). */
export function pinnedAffinity(affinity: Affinity | undefined, nodeName: string): Affinity {
  const required = { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In' as const, values: [nodeName] }] }] };
  const result: Affinity = { ...(affinity ?? {}) };
  result.nodeAffinity = { ...(result.nodeAffinity ?? {}), requiredDuringSchedulingIgnoredDuringExecution: required };
  return result;
}

/** daemonSetControllerRef is the ownerReference a DaemonSet puts on its pods. */
export function daemonSetControllerRef(ds: ReadonlyDaemonSet) {
  return newControllerRef(ds, 'apps/v1', 'DaemonSet');
}
