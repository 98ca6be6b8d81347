/**
 * core/v1 scheduling constraints: node selector terms, node/pod (anti-)affinity,
 * tolerations and topology spread constraints, modelled fully enough for a scheduler.
 */
import { z } from 'zod';
import { LabelSelectorSchema } from '../meta.js';
import { atomicStruct, mergeByKey } from '../patch-meta.js';
import { enumOf, K8S_CORE } from './schema-helpers.js';

export const NodeSelectorRequirementSchema = z
  .object({
    key: z.string().describe('The label (or field) key the requirement applies to.'),
    operator: enumOf(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']).describe('How the key relates to the values.'),
    values: z.array(z.string()).optional().describe('Values for In/NotIn; a single integer for Gt/Lt; empty for Exists/DoesNotExist.'),
  })
  .meta({ id: `${K8S_CORE}.NodeSelectorRequirement`, description: 'A selector requirement on a node label or field.' });

export type NodeSelectorRequirement = z.infer<typeof NodeSelectorRequirementSchema>;

export const NodeSelectorTermSchema = z
  .object({
    matchExpressions: z.array(NodeSelectorRequirementSchema).optional().describe('Requirements on node labels, ANDed.'),
    matchFields: z.array(NodeSelectorRequirementSchema).optional().describe('Requirements on node fields (metadata.name), ANDed.'),
  })
  .meta({
    id: `${K8S_CORE}.NodeSelectorTerm`,
    description: 'A node matches the term when all its requirements hold. An empty term matches nothing.',
    ...atomicStruct,
  });

export type NodeSelectorTerm = z.infer<typeof NodeSelectorTermSchema>;

export const NodeSelectorSchema = z
  .object({ nodeSelectorTerms: z.array(NodeSelectorTermSchema).describe('The terms are ORed.') })
  .meta({ id: `${K8S_CORE}.NodeSelector`, description: 'A node selector: a node matches when any of the terms matches.', ...atomicStruct });

export const PreferredSchedulingTermSchema = z
  .object({
    weight: z.int32().describe("Weight (1-100) added to a node's score when the preference matches."),
    preference: NodeSelectorTermSchema.describe('The node selector term.'),
  })
  .meta({ id: `${K8S_CORE}.PreferredSchedulingTerm` });

export const NodeAffinitySchema = z
  .object({
    requiredDuringSchedulingIgnoredDuringExecution: NodeSelectorSchema.optional().describe('Nodes the pod may be scheduled to.'),
    preferredDuringSchedulingIgnoredDuringExecution: z
      .array(PreferredSchedulingTermSchema)
      .optional()
      .describe('Weighted preferences; nodes with the highest sum of matching weights are preferred.'),
  })
  .meta({ id: `${K8S_CORE}.NodeAffinity`, description: 'Node affinity scheduling rules for the pod.' });

export const PodAffinityTermSchema = z
  .object({
    labelSelector: LabelSelectorSchema.optional().describe('Selects the pods this term is about.'),
    namespaceSelector: LabelSelectorSchema.optional().describe('Selects the namespaces searched for those pods.'),
    namespaces: z.array(z.string()).optional().describe("Namespaces searched; the pod's own namespace when empty with no namespaceSelector."),
    topologyKey: z.string().describe('Node label whose equal values form one topology domain (e.g. kubernetes.io/hostname).'),
    matchLabelKeys: z.array(z.string()).optional().describe('Incoming pod label keys added to labelSelector as In requirements.'),
    mismatchLabelKeys: z.array(z.string()).optional().describe('Incoming pod label keys added to labelSelector as NotIn requirements.'),
  })
  .meta({ id: `${K8S_CORE}.PodAffinityTerm`, description: 'Pods matching the selector in the namespaces, placed by topology domain.' });

export const WeightedPodAffinityTermSchema = z
  .object({
    weight: z.int32().describe('Weight (1-100) of the term.'),
    podAffinityTerm: PodAffinityTermSchema,
  })
  .meta({ id: `${K8S_CORE}.WeightedPodAffinityTerm` });

const podAffinityFields = {
  requiredDuringSchedulingIgnoredDuringExecution: z.array(PodAffinityTermSchema).optional().describe('Terms that must hold; ANDed.'),
  preferredDuringSchedulingIgnoredDuringExecution: z.array(WeightedPodAffinityTermSchema).optional().describe('Weighted terms preferred by the scheduler.'),
};

export const PodAffinitySchema = z
  .object(podAffinityFields)
  .meta({ id: `${K8S_CORE}.PodAffinity`, description: 'Co-locate the pod with other pods in the same topology domain.' });

export const PodAntiAffinitySchema = z
  .object(podAffinityFields)
  .meta({ id: `${K8S_CORE}.PodAntiAffinity`, description: "Keep the pod away from other pods' topology domains." });

export const AffinitySchema = z
  .object({
    nodeAffinity: NodeAffinitySchema.optional(),
    podAffinity: PodAffinitySchema.optional(),
    podAntiAffinity: PodAntiAffinitySchema.optional(),
  })
  .meta({ id: `${K8S_CORE}.Affinity`, description: 'Affinity is a group of affinity scheduling rules.' });

export type Affinity = z.infer<typeof AffinitySchema>;

export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
export type TaintEffect = (typeof TAINT_EFFECTS)[number];

export const TolerationSchema = z
  .object({
    key: z.string().optional().describe('Taint key; empty with operator Exists tolerates every taint.'),
    operator: enumOf(['Exists', 'Equal']).optional().describe('Exists or Equal. Defaults to Equal.'),
    value: z.string().optional().describe('Taint value to match with Equal; empty for Exists.'),
    effect: enumOf(TAINT_EFFECTS).optional().describe('Taint effect to match; empty matches every effect.'),
    tolerationSeconds: z.int32().optional().describe('For NoExecute: how long the pod stays bound after the taint appears. Forever when unset.'),
  })
  .meta({ id: `${K8S_CORE}.Toleration`, description: 'Lets the pod be scheduled to (or stay on) nodes with a matching taint.' });

export type Toleration = z.infer<typeof TolerationSchema>;

export const TopologySpreadConstraintSchema = z
  .object({
    maxSkew: z.int32().describe('Largest allowed difference in matching pods between two domains.'),
    topologyKey: z.string().describe('Node label key whose values define the domains.'),
    whenUnsatisfiable: enumOf(['DoNotSchedule', 'ScheduleAnyway']).describe('What to do when the constraint cannot be met.'),
    labelSelector: LabelSelectorSchema.optional().describe('Selects the pods counted in each domain.'),
    minDomains: z.int32().optional().describe('Minimum number of eligible domains.'),
    nodeAffinityPolicy: z.string().optional().describe("Honor or Ignore the pod's node affinity when counting domains."),
    nodeTaintsPolicy: z.string().optional().describe('Honor or Ignore node taints when counting domains.'),
    matchLabelKeys: z.array(z.string()).optional().describe('Incoming pod label keys added to labelSelector.'),
  })
  .meta({ id: `${K8S_CORE}.TopologySpreadConstraint`, description: 'How to spread matching pods across topology domains.' });

/** topologySpreadListMeta is the patch metadata of PodSpec.topologySpreadConstraints. */
export const topologySpreadListMeta = {
  ...mergeByKey('topologyKey'),
  'x-kubernetes-list-map-keys': ['topologyKey', 'whenUnsatisfiable'],
};
