/**
 * The warnings a namespace gets when its enforce policy tightens (kube's
 * EvaluatePodsInNamespace): which pods already there the new policy would refuse, grouped by
 * their reasons — `existing pods in namespace "x" violate the new PodSecurity enforce level
 * "restricted:latest"`, then `a (and 2 other pods): host namespaces, privileged` per group,
 * sorted. Pods of an exempt runtime class are skipped; one pod per controller is looked at
 * before the other replicas, and at most MAX_PODS_TO_CHECK pods in all.
 */
import type { RegistryContext } from '../../registry/context.js';
import type { PodLike, SpecLike } from './pod-security-check-kit.js';
import { evaluate, reasons } from './pod-security-checks.js';
import type { PodSecuritySettings } from './pod-security-config.js';
import { type LevelVersion, policyName } from './pod-security-policy.js';

/** kube's defaultNamespaceMaxPodsToCheck. (Its one-second deadline is not simulated.) */
export const MAX_PODS_TO_CHECK = 3000;

interface StoredPod {
  metadata: { name: string; annotations?: Record<string, string>; ownerReferences?: Array<{ uid: string; controller?: boolean }> };
  spec?: SpecLike;
}

/** prioritized: exempt runtime classes left out, the first pod of each controller first. */
function prioritized(pods: readonly StoredPod[], settings: PodSecuritySettings): StoredPod[] {
  const first: StoredPod[] = [];
  const replicas: StoredPod[] = [];
  const seenControllers = new Set<string>();
  for (const pod of pods) {
    const runtimeClass = pod.spec?.runtimeClassName;
    if (runtimeClass && settings.exemptRuntimeClasses.has(runtimeClass)) continue;
    const controller = pod.metadata.ownerReferences?.find((owner) => owner.controller === true);
    if (controller && seenControllers.has(controller.uid)) replicas.push(pod);
    else {
      if (controller) seenControllers.add(controller.uid);
      first.push(pod);
    }
  }
  return [...first, ...replicas];
}

export function existingPodWarnings(ctx: RegistryContext, settings: PodSecuritySettings, namespace: string, enforce: LevelVersion): string[] {
  const all = prioritized(ctx.store.list({ resource: 'pods', namespace }).items as unknown as StoredPod[], settings);
  const checked = all.slice(0, MAX_PODS_TO_CHECK);
  /** reasons → the lexically first pod name with them, and how many pods share them. */
  const groups = new Map<string, { first: string; count: number }>();
  for (const pod of checked) {
    const view: PodLike = { annotations: pod.metadata.annotations ?? {}, spec: pod.spec ?? {} };
    const found = evaluate(enforce.level, enforce.version, view);
    if (found.length === 0) continue;
    const key = reasons(found);
    const group = groups.get(key);
    if (!group) groups.set(key, { first: pod.metadata.name, count: 1 });
    else {
      group.count++;
      if (pod.metadata.name < group.first) group.first = pod.metadata.name;
    }
  }
  const warnings: string[] = [];
  if (checked.length < all.length)
    warnings.push(`new PodSecurity enforce level only checked against the first ${checked.length} of ${all.length} existing pods`);
  if (groups.size > 0) warnings.push(`existing pods in namespace "${namespace}" violate the new PodSecurity enforce level "${policyName(enforce)}"`);
  const perGroup = [...groups].map(([key, { first, count }]) => `${first}${othersNote(count)}: ${key}`).sort();
  return [...warnings, ...perGroup];
}

const othersNote = (count: number) => (count === 1 ? '' : count === 2 ? ' (and 1 other pod)' : ` (and ${count - 1} other pods)`);
