/**
 * Node selector matching, shared by NodeAffinity and PodTopologySpread. The matchers live in
 * apiserver/api/core/node-selector.ts (the DaemonSet controller uses them too); this module
 * adds the pod-level entry point the plugins call.
 */
import { podSpecMatchesNode } from '../../apiserver/api/core/node-selector.js';
import type { ReadonlyNode, ReadonlyPod } from '../framework.js';

export { nodeSelectorMatches, requirementMatches, termMatches } from '../../apiserver/api/core/node-selector.js';

/** requiredNodeAffinityMatches is kube's RequiredNodeAffinity.Match: spec.nodeSelector AND
 * (when present) any of the required node affinity terms. */
export function requiredNodeAffinityMatches(pod: ReadonlyPod, node: ReadonlyNode): boolean {
  return podSpecMatchesNode(pod.spec, node);
}
