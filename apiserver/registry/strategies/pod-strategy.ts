/** Pods are deleted gracefully once scheduled: the kubelet stops the containers and then
 * confirms with a delete of grace period 0. Unscheduled and finished pods go at once. */
import type { KubeObject } from '../../api/resource-definition.js';
import type { DeleteRequest, KindStrategy } from '../strategy.js';

const DEFAULT_GRACE_SECONDS = 30;

export const podStrategy: KindStrategy = {
  returnDeletedObject: true,
  gracePeriodSeconds(pod: KubeObject, request: DeleteRequest): number | undefined {
    const spec = pod['spec'] as { nodeName?: string; terminationGracePeriodSeconds?: number } | undefined;
    const phase = (pod['status'] as { phase?: string } | undefined)?.phase;
    if (!spec?.nodeName || phase === 'Succeeded' || phase === 'Failed') return undefined;
    const grace = request.gracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
    return grace > 0 ? grace : undefined;
  },
};
