/** Protobuf tables of the admissionregistration.k8s.io/v1 kinds (k8s.io/api/admissionregistration/v1
 * generated.proto): the bodies typed clients (client-go, kubectl ≥ 1.32, operators installing
 * their webhooks) post. KEEP_ZERO marks Go pointers (failurePolicy, sideEffects, timeoutSeconds,
 * scope, reason, ...) and fields without omitempty (names and expressions). */
import { ConditionMessage, LabelSelectorMessage, ObjectMetaMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';

const ADMISSION_V1 = 'io.k8s.api.admissionregistration.v1';

/** Rule is embedded (inline) in RuleWithOperations. */
const RuleMessage = message(`${ADMISSION_V1}.Rule`, {
  1: field.repeated('apiGroups', 'string'),
  2: field.repeated('apiVersions', 'string'),
  3: field.repeated('resources', 'string'),
  4: field.string('scope', KEEP_ZERO),
});

const RuleWithOperationsMessage = message(`${ADMISSION_V1}.RuleWithOperations`, {
  1: field.repeated('operations', 'string'),
  2: field.inline(RuleMessage),
});

/** RuleWithOperations is embedded (inline) in NamedRuleWithOperations. */
const NamedRuleWithOperationsMessage = message(`${ADMISSION_V1}.NamedRuleWithOperations`, {
  1: field.repeated('resourceNames', 'string'),
  2: field.inline(RuleWithOperationsMessage),
});

const ServiceReferenceMessage = message(`${ADMISSION_V1}.ServiceReference`, {
  1: field.string('namespace', KEEP_ZERO),
  2: field.string('name', KEEP_ZERO),
  3: field.string('path', KEEP_ZERO),
  4: field.int32('port', KEEP_ZERO),
});

const WebhookClientConfigMessage = message(`${ADMISSION_V1}.WebhookClientConfig`, {
  1: field.message('service', ServiceReferenceMessage),
  2: field.bytes('caBundle'),
  3: field.string('url', KEEP_ZERO),
});

const MatchConditionMessage = message(`${ADMISSION_V1}.MatchCondition`, {
  1: field.string('name', KEEP_ZERO),
  2: field.string('expression', KEEP_ZERO),
});

/** The fields both webhook kinds number alike; objectSelector, matchConditions and
 * reinvocationPolicy differ. */
const commonWebhookFields = {
  1: field.string('name', KEEP_ZERO),
  2: field.message('clientConfig', WebhookClientConfigMessage),
  3: field.repeated('rules', RuleWithOperationsMessage),
  4: field.string('failurePolicy', KEEP_ZERO),
  5: field.message('namespaceSelector', LabelSelectorMessage),
  6: field.string('sideEffects', KEEP_ZERO),
  7: field.int32('timeoutSeconds', KEEP_ZERO),
  8: field.repeated('admissionReviewVersions', 'string'),
  9: field.string('matchPolicy', KEEP_ZERO),
};

const ValidatingWebhookMessage = message(`${ADMISSION_V1}.ValidatingWebhook`, {
  ...commonWebhookFields,
  10: field.message('objectSelector', LabelSelectorMessage),
  11: field.repeated('matchConditions', MatchConditionMessage),
});

const MutatingWebhookMessage = message(`${ADMISSION_V1}.MutatingWebhook`, {
  ...commonWebhookFields,
  10: field.string('reinvocationPolicy', KEEP_ZERO),
  11: field.message('objectSelector', LabelSelectorMessage),
  12: field.repeated('matchConditions', MatchConditionMessage),
});

export const ValidatingWebhookConfigurationMessage = message(`${ADMISSION_V1}.ValidatingWebhookConfiguration`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.repeated('webhooks', ValidatingWebhookMessage),
});

export const MutatingWebhookConfigurationMessage = message(`${ADMISSION_V1}.MutatingWebhookConfiguration`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.repeated('webhooks', MutatingWebhookMessage),
});

const MatchResourcesMessage = message(`${ADMISSION_V1}.MatchResources`, {
  1: field.message('namespaceSelector', LabelSelectorMessage),
  2: field.message('objectSelector', LabelSelectorMessage),
  3: field.repeated('resourceRules', NamedRuleWithOperationsMessage),
  4: field.repeated('excludeResourceRules', NamedRuleWithOperationsMessage),
  7: field.string('matchPolicy', KEEP_ZERO),
});

const ValidatingAdmissionPolicySpecMessage = message(`${ADMISSION_V1}.ValidatingAdmissionPolicySpec`, {
  1: field.message('paramKind', message(`${ADMISSION_V1}.ParamKind`, { 1: field.string('apiVersion'), 2: field.string('kind') })),
  2: field.message('matchConstraints', MatchResourcesMessage),
  3: field.repeated(
    'validations',
    message(`${ADMISSION_V1}.Validation`, {
      1: field.string('expression', KEEP_ZERO),
      2: field.string('message'),
      3: field.string('reason', KEEP_ZERO),
      4: field.string('messageExpression'),
    }),
  ),
  4: field.string('failurePolicy', KEEP_ZERO),
  5: field.repeated(
    'auditAnnotations',
    message(`${ADMISSION_V1}.AuditAnnotation`, { 1: field.string('key', KEEP_ZERO), 2: field.string('valueExpression', KEEP_ZERO) }),
  ),
  6: field.repeated('matchConditions', MatchConditionMessage),
  7: field.repeated('variables', message(`${ADMISSION_V1}.Variable`, { 1: field.string('name', KEEP_ZERO), 2: field.string('expression', KEEP_ZERO) })),
});

const ValidatingAdmissionPolicyStatusMessage = message(`${ADMISSION_V1}.ValidatingAdmissionPolicyStatus`, {
  1: field.int64('observedGeneration'),
  2: field.message(
    'typeChecking',
    message(`${ADMISSION_V1}.TypeChecking`, {
      1: field.repeated(
        'expressionWarnings',
        message(`${ADMISSION_V1}.ExpressionWarning`, { 2: field.string('fieldRef', KEEP_ZERO), 3: field.string('warning', KEEP_ZERO) }),
      ),
    }),
  ),
  3: field.repeated('conditions', ConditionMessage),
});

export const ValidatingAdmissionPolicyMessage = message(`${ADMISSION_V1}.ValidatingAdmissionPolicy`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', ValidatingAdmissionPolicySpecMessage),
  3: field.message('status', ValidatingAdmissionPolicyStatusMessage),
});

export const ValidatingAdmissionPolicyBindingMessage = message(`${ADMISSION_V1}.ValidatingAdmissionPolicyBinding`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message(
    'spec',
    message(`${ADMISSION_V1}.ValidatingAdmissionPolicyBindingSpec`, {
      1: field.string('policyName'),
      2: field.message(
        'paramRef',
        message(`${ADMISSION_V1}.ParamRef`, {
          1: field.string('name'),
          2: field.string('namespace'),
          3: field.message('selector', LabelSelectorMessage),
          4: field.string('parameterNotFoundAction', KEEP_ZERO),
        }),
      ),
      3: field.message('matchResources', MatchResourcesMessage),
      4: field.repeated('validationActions', 'string'),
    }),
  ),
});
