/**
 * Pod-only defaulting: what Kubernetes does for pods but not for pod templates, spread over
 * SetDefaults_Pod, admission plugins (DefaultTolerationSeconds; ServiceAccount and Priority
 * are apiserver/admission/plugins/)
 * and the pod strategy's PrepareForCreate (status.phase, status.qosClass).
 */
import type { Toleration } from './affinity.js';
import type { Container } from './container.js';
import { podQOSClass } from './pod-qos.js';
import type { PodSpec } from './pod-spec.js';
import { defaultPodSpec } from './pod-spec-defaults.js';
import type { PodStatus } from './pod-status.js';

/** NOT_READY_TAINT and UNREACHABLE_TAINT are the taints the node lifecycle controller puts
 * on failing nodes; pods tolerate them for DEFAULT_TOLERATION_SECONDS before eviction. */
export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
export const UNREACHABLE_TAINT = 'node.kubernetes.io/unreachable';
export const DEFAULT_TOLERATION_SECONDS = 300;

/** PodShape is the part of a Pod that defaulting reads and writes. */
export interface PodShape {
  spec?: PodSpec;
  status?: PodStatus;
}

/** defaultPod applies the PodSpec defaults plus the pod-only ones to `pod` in place. It only
 * fills unset fields, so it is idempotent; qosClass is (re)derived when missing. */
export function defaultPod(pod: PodShape): void {
  if (!pod.spec) return;
  const spec = defaultPodSpec(pod.spec);
  for (const container of [...(spec.initContainers ?? []), ...spec.containers]) defaultRequestsFromLimits(container);
  spec.enableServiceLinks ??= true;
  // serviceAccountName comes from the ServiceAccount admission plugin, priority and preemptionPolicy from the Priority one.
  spec.tolerations = withDefaultTolerations(spec.tolerations ?? []);
  pod.status ??= {};
  pod.status.phase ??= 'Pending';
  pod.status.qosClass ??= podQOSClass(spec);
}

/** A container that sets a limit but no request for a resource requests the limit. */
function defaultRequestsFromLimits(container: Container): void {
  const limits = container.resources?.limits;
  if (!container.resources || !limits || Object.keys(limits).length === 0) return;
  const requests = (container.resources.requests ??= {});
  for (const [name, limit] of Object.entries(limits)) requests[name] ??= limit;
}

/** withDefaultTolerations adds the not-ready and unreachable NoExecute tolerations unless the
 * pod already tolerates those taints (a toleration with that key or no key, and effect
 * NoExecute or none), as the DefaultTolerationSeconds admission plugin does. */
function withDefaultTolerations(tolerations: Toleration[]): Toleration[] {
  const result = [...tolerations];
  for (const key of [NOT_READY_TAINT, UNREACHABLE_TAINT]) {
    const covered = tolerations.some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect));
    if (!covered) {
      result.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_TOLERATION_SECONDS });
    }
  }
  return result;
}
