/** Protobuf tables of the rbac kinds (k8s.io/api/rbac/v1 generated.proto): what `kubectl
 * create role|clusterrole|rolebinding|clusterrolebinding` (kubectl ≥ 1.32) posts. */
import { LabelSelectorMessage, ObjectMetaMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';

const RBAC_V1 = 'io.k8s.api.rbac.v1';

export const PolicyRuleMessage = message(`${RBAC_V1}.PolicyRule`, {
  1: field.repeated('verbs', 'string'),
  2: field.repeated('apiGroups', 'string'),
  3: field.repeated('resources', 'string'),
  4: field.repeated('resourceNames', 'string'),
  5: field.repeated('nonResourceURLs', 'string'),
});

export const AggregationRuleMessage = message(`${RBAC_V1}.AggregationRule`, {
  1: field.repeated('clusterRoleSelectors', LabelSelectorMessage),
});

// kind and name carry no omitempty in Kubernetes' JSON; neither does any field of RoleRef.
export const SubjectMessage = message(`${RBAC_V1}.Subject`, {
  1: field.string('kind', KEEP_ZERO),
  2: field.string('apiGroup'),
  3: field.string('name', KEEP_ZERO),
  4: field.string('namespace'),
});

export const RoleRefMessage = message(`${RBAC_V1}.RoleRef`, {
  1: field.string('apiGroup', KEEP_ZERO),
  2: field.string('kind', KEEP_ZERO),
  3: field.string('name', KEEP_ZERO),
});

export const RoleMessage = message(`${RBAC_V1}.Role`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.repeated('rules', PolicyRuleMessage),
});

export const ClusterRoleMessage = message(`${RBAC_V1}.ClusterRole`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.repeated('rules', PolicyRuleMessage),
  3: field.message('aggregationRule', AggregationRuleMessage),
});

export const RoleBindingMessage = message(`${RBAC_V1}.RoleBinding`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.repeated('subjects', SubjectMessage),
  3: field.message('roleRef', RoleRefMessage),
});

export const ClusterRoleBindingMessage = message(`${RBAC_V1}.ClusterRoleBinding`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.repeated('subjects', SubjectMessage),
  3: field.message('roleRef', RoleRefMessage),
});
