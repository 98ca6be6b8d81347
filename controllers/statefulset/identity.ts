/**
 * A StatefulSet pod's stable identity (Kubernetes' stateful_set_utils.go): its name
 * `<set>-<ordinal>`, the labels that pin it (pod-name, pod-index, controller-revision-hash),
 * hostname and subdomain, and the claims `<template>-<set>-<ordinal>` its volumes mount.
 * Everything here is pure and never mutates its inputs.
 */
import type { StatefulSet } from '../../apiserver/api/apps/stateful-set.js';
import type { PersistentVolumeClaim } from '../../apiserver/api/core/persistent-volume-claim.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { PodTemplateSpec } from '../../apiserver/api/core/pod-spec.js';
import { newControllerRef } from '../../apiserver/api/machinery/owner-references.js';
import type { OwnerReference } from '../../apiserver/api/meta.js';
import type { DeepReadonly } from '../runtime/types.js';

/** POD_NAME_LABEL carries the pod's own name (lets a Service select exactly one pod). */
export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
/** POD_INDEX_LABEL carries the pod's ordinal. */
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** REVISION_LABEL names the ControllerRevision a pod was created from. */
export const REVISION_LABEL = 'controller-revision-hash';

type ReadonlySet = DeepReadonly<StatefulSet>;

/** podName is `<set>-<ordinal>`. */
export function podName(setName: string, ordinal: number): string {
  return `${setName}-${ordinal}`;
}

/** ordinalOf returns the ordinal of a pod named `<set>-<n>`, or -1 for any other name. */
export function ordinalOf(setName: string, name: string | undefined): number {
  if (name === undefined || !name.startsWith(`${setName}-`)) return -1;
  const suffix = name.slice(setName.length + 1);
  return /^(0|[1-9]\d*)$/.test(suffix) ? Number(suffix) : -1;
}

/** startOrdinal is spec.ordinals.start (0 when unset). */
export function startOrdinal(set: ReadonlySet): number {
  return set.spec.ordinals?.start ?? 0;
}

/** claimName is `<template>-<set>-<ordinal>`. */
export function claimName(templateName: string, setName: string, ordinal: number): string {
  return `${templateName}-${setName}-${ordinal}`;
}

/** setOwnerRef is the controller reference a set puts on the pods and revisions it creates. */
export function setOwnerRef(set: ReadonlySet, controller = true): OwnerReference {
  return { ...newControllerRef(set, 'apps/v1', 'StatefulSet'), controller };
}

/**
 * newPod builds pod `ordinal` of `set` from `template` (the template of `revision`): the
 * template's labels and annotations plus the identity labels, a controller reference,
 * hostname `<pod>` and subdomain `<serviceName>`, and one persistentVolumeClaim volume per
 * claim template (replacing a template volume of the same name).
 */
export function newPod(set: ReadonlySet, template: DeepReadonly<PodTemplateSpec>, ordinal: number, revision: string): Pod {
  const setName = set.metadata.name ?? '';
  const name = podName(setName, ordinal);
  const spec = structuredClone(template.spec) as Pod['spec'];
  const claims = (set.spec.volumeClaimTemplates ?? []).map((claim) => ({
    name: claim.metadata.name ?? '',
    persistentVolumeClaim: { claimName: claimName(claim.metadata.name ?? '', setName, ordinal) },
  }));
  const claimed = new Set(claims.map((volume) => volume.name));
  spec.volumes = [...(spec.volumes ?? []).filter((volume) => !claimed.has(volume.name)), ...claims];
  spec.hostname = name;
  if (set.spec.serviceName) spec.subdomain = set.spec.serviceName;
  const labels = { ...template.metadata?.labels, [POD_NAME_LABEL]: name, [POD_INDEX_LABEL]: String(ordinal), [REVISION_LABEL]: revision };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: set.metadata.namespace, labels, annotations: { ...template.metadata?.annotations }, ownerReferences: [setOwnerRef(set)] },
    spec,
  };
}

/** newClaims builds the claims of pod `ordinal`: each claim template named
 * `<template>-<set>-<ordinal>`, labelled with the set's matchLabels, owned by the set when
 * whenDeleted is Delete (the garbage collector removes them with it). */
export function newClaims(set: ReadonlySet, ordinal: number): PersistentVolumeClaim[] {
  const setName = set.metadata.name ?? '';
  const ownedBySet = set.spec.persistentVolumeClaimRetentionPolicy?.whenDeleted === 'Delete';
  return (set.spec.volumeClaimTemplates ?? []).map((template) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: claimName(template.metadata.name ?? '', setName, ordinal),
      namespace: set.metadata.namespace,
      labels: { ...template.metadata.labels, ...set.spec.selector.matchLabels },
      annotations: template.metadata.annotations ? { ...template.metadata.annotations } : undefined,
      ownerReferences: ownedBySet ? [setOwnerRef(set, false)] : undefined,
    },
    spec: structuredClone(template.spec) as PersistentVolumeClaim['spec'],
  }));
}

/** podRevision is the pod's controller-revision-hash label ('' when absent). */
export function podRevision(pod: DeepReadonly<Pod>): string {
  return pod.metadata.labels?.[REVISION_LABEL] ?? '';
}
