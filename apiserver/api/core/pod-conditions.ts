/**
 * The questions every layer asks of a pod's conditions (Kubernetes' podutil.IsPodReady and
 * IsPodAvailable): the server's eviction and printing, the workload controllers, the kubelet
 * and the CLI. They take any object shaped like a pod's status, so cached read-only pods and
 * plain JSON both fit, and never mutate it.
 */
import { parseTimeMs } from '../machinery/time.js';

/** ConditionsHolder is the part of a pod these functions read. */
export interface ConditionsHolder {
  readonly status?: {
    readonly conditions?: readonly { readonly type: string; readonly status: string; readonly lastTransitionTime?: string }[];
  };
}

/** podReadyCondition is the pod's Ready condition, if it has one. */
export function podReadyCondition<P extends ConditionsHolder>(pod: P) {
  return pod.status?.conditions?.find((condition) => condition.type === 'Ready');
}

/** isPodReady is true when the pod's Ready condition is True. */
export function isPodReady(pod: ConditionsHolder): boolean {
  return podReadyCondition(pod)?.status === 'True';
}

/** podReadySinceMs is when a ready pod last became Ready (its Ready condition's
 * lastTransitionTime); undefined when the pod is not ready or the time is unknown. */
export function podReadySinceMs(pod: ConditionsHolder): number | undefined {
  const condition = podReadyCondition(pod);
  return condition?.status === 'True' ? parseTimeMs(condition.lastTransitionTime) : undefined;
}

/**
 * isPodAvailable is true when the pod is ready and has been ready for at least
 * `minReadySeconds` at `nowMs`. With minReadySeconds 0 every ready pod is available;
 * otherwise a ready pod whose transition time is unknown is not.
 */
export function isPodAvailable(pod: ConditionsHolder, minReadySeconds: number, nowMs: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const since = podReadySinceMs(pod);
  return since !== undefined && since + minReadySeconds * 1000 < nowMs;
}
