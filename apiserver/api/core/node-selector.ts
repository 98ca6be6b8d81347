/**
 * Node selector matching (Kubernetes' component-helpers nodeaffinity package), shared by the
 * scheduler's NodeAffinity and PodTopologySpread plugins and the DaemonSet controller's node
 * eligibility: spec.nodeSelector, node selector terms with matchExpressions on labels and
 * matchFields on metadata.name, and a pod's required node affinity as the AND of the two.
 * Read-only structural shapes, so informer cache objects fit without copying.
 */

type Labels = Readonly<Record<string, string>>;

/** RequirementLike is a read-only NodeSelectorRequirement. */
export interface RequirementLike {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  readonly values?: readonly string[] | undefined;
}

/** TermLike is a read-only NodeSelectorTerm. */
export interface TermLike {
  readonly matchExpressions?: readonly RequirementLike[] | undefined;
  readonly matchFields?: readonly RequirementLike[] | undefined;
}

/** NodeLike is the part of a Node the matchers read. */
export interface NodeLike {
  readonly metadata: { readonly name?: string | undefined; readonly labels?: Labels | undefined };
}

/** PodSchedulingLike is the part of a pod spec (or template spec) the matchers read. */
export interface PodSchedulingLike {
  readonly nodeSelector?: Labels | undefined;
  readonly affinity?:
    | {
        readonly nodeAffinity?:
          | { readonly requiredDuringSchedulingIgnoredDuringExecution?: { readonly nodeSelectorTerms: readonly TermLike[] } | undefined }
          | undefined;
      }
    | undefined;
}

/** requirementMatches evaluates one requirement against a value lookup, as a labels.Selector
 * built from it would: NotIn and DoesNotExist hold for a missing key; Gt/Lt compare integers
 * and fail for anything unparsable. */
export function requirementMatches(requirement: RequirementLike, values: Labels): boolean {
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
export function termMatches(term: TermLike, node: NodeLike): boolean {
  const expressions = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (expressions.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  const nodeFields = { 'metadata.name': node.metadata.name ?? '' };
  return expressions.every((r) => requirementMatches(r, labels)) && fields.every((r) => requirementMatches(r, nodeFields));
}

/** nodeSelectorMatches is true when the node has every label of spec.nodeSelector. */
export function nodeSelectorMatches(selector: Labels | undefined, node: NodeLike): boolean {
  const labels = node.metadata.labels ?? {};
  return Object.entries(selector ?? {}).every(([key, value]) => Object.hasOwn(labels, key) && labels[key] === value);
}

/** podSpecMatchesNode is kube's RequiredNodeAffinity.Match over a pod spec: spec.nodeSelector
 * AND (when present) any of the required node affinity terms. */
export function podSpecMatchesNode(spec: PodSchedulingLike, node: NodeLike): boolean {
  if (!nodeSelectorMatches(spec.nodeSelector, node)) return false;
  const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return required.nodeSelectorTerms.some((term) => termMatches(term, node));
}
