/** Protobuf tables of affinity.ts: node and pod (anti-)affinity, tolerations and topology
 * spread constraints (k8s.io/api/core/v1 generated.proto). */
import { LabelSelectorMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import { K8S_CORE } from './schema-helpers.js';

export const NodeSelectorRequirementMessage = message(`${K8S_CORE}.NodeSelectorRequirement`, {
  1: field.string('key', KEEP_ZERO),
  2: field.string('operator', KEEP_ZERO),
  3: field.repeated('values', 'string'),
});

export const NodeSelectorTermMessage = message(`${K8S_CORE}.NodeSelectorTerm`, {
  1: field.repeated('matchExpressions', NodeSelectorRequirementMessage),
  2: field.repeated('matchFields', NodeSelectorRequirementMessage),
});

export const NodeSelectorMessage = message(`${K8S_CORE}.NodeSelector`, {
  1: field.repeated('nodeSelectorTerms', NodeSelectorTermMessage),
});

export const PreferredSchedulingTermMessage = message(`${K8S_CORE}.PreferredSchedulingTerm`, {
  1: field.int32('weight', KEEP_ZERO),
  2: field.message('preference', NodeSelectorTermMessage),
});

export const NodeAffinityMessage = message(`${K8S_CORE}.NodeAffinity`, {
  1: field.message('requiredDuringSchedulingIgnoredDuringExecution', NodeSelectorMessage),
  2: field.repeated('preferredDuringSchedulingIgnoredDuringExecution', PreferredSchedulingTermMessage),
});

export const PodAffinityTermMessage = message(`${K8S_CORE}.PodAffinityTerm`, {
  1: field.message('labelSelector', LabelSelectorMessage),
  2: field.repeated('namespaces', 'string'),
  3: field.string('topologyKey', KEEP_ZERO),
  4: field.message('namespaceSelector', LabelSelectorMessage),
  5: field.repeated('matchLabelKeys', 'string'),
  6: field.repeated('mismatchLabelKeys', 'string'),
});

export const WeightedPodAffinityTermMessage = message(`${K8S_CORE}.WeightedPodAffinityTerm`, {
  1: field.int32('weight', KEEP_ZERO),
  2: field.message('podAffinityTerm', PodAffinityTermMessage),
});

const podAffinityFields = {
  1: field.repeated('requiredDuringSchedulingIgnoredDuringExecution', PodAffinityTermMessage),
  2: field.repeated('preferredDuringSchedulingIgnoredDuringExecution', WeightedPodAffinityTermMessage),
};

export const PodAffinityMessage = message(`${K8S_CORE}.PodAffinity`, podAffinityFields);
export const PodAntiAffinityMessage = message(`${K8S_CORE}.PodAntiAffinity`, podAffinityFields);

export const AffinityMessage = message(`${K8S_CORE}.Affinity`, {
  1: field.message('nodeAffinity', NodeAffinityMessage),
  2: field.message('podAffinity', PodAffinityMessage),
  3: field.message('podAntiAffinity', PodAntiAffinityMessage),
});

export const TolerationMessage = message(`${K8S_CORE}.Toleration`, {
  1: field.string('key'),
  2: field.string('operator'),
  3: field.string('value'),
  4: field.string('effect'),
  5: field.int64('tolerationSeconds', KEEP_ZERO),
});

export const TopologySpreadConstraintMessage = message(`${K8S_CORE}.TopologySpreadConstraint`, {
  1: field.int32('maxSkew', KEEP_ZERO),
  2: field.string('topologyKey', KEEP_ZERO),
  3: field.string('whenUnsatisfiable', KEEP_ZERO),
  4: field.message('labelSelector', LabelSelectorMessage),
  5: field.int32('minDomains', KEEP_ZERO),
  6: field.string('nodeAffinityPolicy', KEEP_ZERO),
  7: field.string('nodeTaintsPolicy', KEEP_ZERO),
  8: field.repeated('matchLabelKeys', 'string'),
});
