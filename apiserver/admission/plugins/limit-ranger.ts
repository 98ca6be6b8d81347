/**
 * LimitRanger, as kube-apiserver's plugin, for pods: the mutating phase fills containers'
 * missing requests and limits from the namespace's LimitRanges (annotating the pod with what
 * it set); the validating phase rejects a pod outside the ranges' min, max and ratios.
 * The arithmetic is apiserver/api/core/limit-ranger.ts.
 */
import { forbidden } from '../../api/api-error.js';
import type { LimitRange } from '../../api/core/limit-range.js';
import { applyLimitRangeDefaults, LIMIT_RANGER_ANNOTATION, limitRangeViolations } from '../../api/core/limit-ranger.js';
import type { Pod } from '../../api/core/pod.js';
import { podQOSClass } from '../../api/core/pod-qos.js';
import type { RegistryContext } from '../../registry/context.js';
import { perWrite } from '../chain.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../plugin.js';

export const limitRanger: AdmissionPlugin = {
  name: 'LimitRanger',
  handles: (operation, def, subresource) => operation === 'CREATE' && subresource === '' && def.storage.resource === 'pods',
  admit(ctx, attributes) {
    const pod = attributes.object as unknown as Pod;
    const ranges = rangesOf(ctx, attributes);
    if (ranges.length === 0 || !pod.spec) return;
    const note = applyLimitRangeDefaults(pod.spec, ranges);
    if (note === undefined) return;
    pod.metadata.annotations = { ...pod.metadata.annotations, [LIMIT_RANGER_ANNOTATION]: note };
    // The QoS class was derived by defaulting, before the requests and limits changed.
    if (pod.status) pod.status.qosClass = podQOSClass(pod.spec);
  },
  validate(ctx, attributes) {
    const { name } = attributes;
    const pod = attributes.object as unknown as Pod;
    const ranges = rangesOf(ctx, attributes);
    if (ranges.length === 0 || !pod.spec) return;
    const violations = limitRangeViolations(pod.spec, ranges);
    if (violations.length === 0) return;
    // Several are listed as Go's error aggregate prints them.
    const message = violations.length === 1 ? violations[0] : `[${violations.join(', ')}]`;
    throw forbidden(`pods "${name}" is forbidden: ${message}`, { kind: 'pods', name });
  },
};

/** rangesOf: the namespace's LimitRanges, read once for both phases of a write. */
function rangesOf(ctx: RegistryContext, attributes: AdmissionAttributes): LimitRange[] {
  return perWrite(
    attributes,
    'limitranges',
    () => ctx.store.list({ resource: 'limitranges', namespace: attributes.namespace }).items as unknown as LimitRange[],
  );
}
