/** Protobuf tables of pod-disruption-budget.ts (k8s.io/api/policy/v1 generated.proto): what
 * `kubectl create pdb` (kubectl ≥ 1.32) posts, an empty status included. */
import { ConditionMessage, IntOrStringMessage, LabelSelectorMessage, ObjectMetaMessage, TimeMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';

const POLICY_V1 = 'io.k8s.api.policy.v1';

export const PodDisruptionBudgetSpecMessage = message(`${POLICY_V1}.PodDisruptionBudgetSpec`, {
  1: field.message('minAvailable', IntOrStringMessage),
  2: field.message('selector', LabelSelectorMessage),
  3: field.message('maxUnavailable', IntOrStringMessage),
  4: field.string('unhealthyPodEvictionPolicy', KEEP_ZERO),
});

export const PodDisruptionBudgetStatusMessage = message(`${POLICY_V1}.PodDisruptionBudgetStatus`, {
  1: field.int64('observedGeneration'),
  2: field.map('disruptedPods', TimeMessage),
  3: field.int32('disruptionsAllowed', KEEP_ZERO),
  4: field.int32('currentHealthy', KEEP_ZERO),
  5: field.int32('desiredHealthy', KEEP_ZERO),
  6: field.int32('expectedPods', KEEP_ZERO),
  7: field.repeated('conditions', ConditionMessage),
});

export const PodDisruptionBudgetMessage = message(`${POLICY_V1}.PodDisruptionBudget`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', PodDisruptionBudgetSpecMessage),
  3: field.message('status', PodDisruptionBudgetStatusMessage),
});
