/**
 * Node selector matching, shared by NodeAffinity and PodTopologySpread (kube's
 * component-helpers nodeaffinity package): spec.nodeSelector, node selector terms with
 * matchExpressions on labels and matchFields on metadata.name, and the pod's required node
 * affinity as the AND of the two.
 */
import type { NodeSelectorRequirement, NodeSelectorTerm } from '../../apiserver/api/core/affinity.js';
import type { DeepReadonly } from '../../controllers/runtime/types.js';
import type { ReadonlyNode, ReadonlyPod } from '../framework.js';

type Labels = Readonly<Record<string, string>>;

/** requirementMatches evaluates one requirement against a value lookup, as a labels.Selector
 * built from it would: NotIn and DoesNotExist hold for a missing key; Gt/Lt compare integers
 * and fail for anything unparsable. */
export function requirementMatches(requirement: DeepReadonly<NodeSelectorRequirement>, values: Labels): boolean {
  const present = Object.hasOwn(values, requirement.key);
  const value = values[requirement.key];
  const wanted = requirement.values ?? [];
  switch (requirement.operator) {
    case 'In':
      return present && wanted.includes(value ?? '');
    case 'NotIn':
      return !present || !wanted.includes(value ?? '');
    case 'Exists':
      return present;
    case 'DoesNotExist':
      return !present;
    case 'Gt':
    case 'Lt':
      return present && compareIntegers(requirement.operator, value ?? '', wanted);
    default: {
      const unreachable: never = requirement.operator;
      return unreachable;
    }
  }
}

function compareIntegers(operator: 'Gt' | 'Lt', value: string, wanted: readonly string[]): boolean {
  const [bound] = wanted;
  if (wanted.length !== 1 || bound === undefined || !/^-?\d+$/.test(value) || !/^-?\d+$/.test(bound)) return false;
  return operator === 'Gt' ? BigInt(value) > BigInt(bound) : BigInt(value) < BigInt(bound);
}

/** termMatches is true when every expression (on labels) and field (metadata.name) of the
 * term holds. An empty term matches nothing, as in Kubernetes. */
export function termMatches(term: DeepReadonly<NodeSelectorTerm>, node: ReadonlyNode): boolean {
  const expressions = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (expressions.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  const nodeFields = { 'metadata.name': node.metadata.name ?? '' };
  return expressions.every((r) => requirementMatches(r, labels)) && fields.every((r) => requirementMatches(r, nodeFields));
}

/** nodeSelectorMatches is true when the node has every label of spec.nodeSelector. */
export function nodeSelectorMatches(selector: Labels | undefined, node: ReadonlyNode): boolean {
  const labels = node.metadata.labels ?? {};
  return Object.entries(selector ?? {}).every(([key, value]) => Object.hasOwn(labels, key) && labels[key] === value);
}

/** requiredNodeAffinityMatches is kube's RequiredNodeAffinity.Match: spec.nodeSelector AND
 * (when present) any of the required node affinity terms. */
export function requiredNodeAffinityMatches(pod: ReadonlyPod, node: ReadonlyNode): boolean {
  if (!nodeSelectorMatches(pod.spec.nodeSelector, node)) return false;
  const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return required.nodeSelectorTerms.some((term) => termMatches(term, node));
}
