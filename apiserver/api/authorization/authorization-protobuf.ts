/** Protobuf tables of the access reviews (k8s.io/api/authorization/v1 generated.proto):
 * kubectl ≥ 1.32 sends `auth can-i` reviews as protobuf. */
import { ObjectMetaMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import { AUTHORIZATION_V1 } from './attributes.js';

const ResourceAttributesMessage = message(`${AUTHORIZATION_V1}.ResourceAttributes`, {
  1: field.string('namespace'),
  2: field.string('verb'),
  3: field.string('group'),
  4: field.string('version'),
  5: field.string('resource'),
  6: field.string('subresource'),
  7: field.string('name'),
});

const NonResourceAttributesMessage = message(`${AUTHORIZATION_V1}.NonResourceAttributes`, {
  1: field.string('path'),
  2: field.string('verb'),
});

const SubjectAccessReviewStatusMessage = message(`${AUTHORIZATION_V1}.SubjectAccessReviewStatus`, {
  1: field.bool('allowed', KEEP_ZERO),
  2: field.string('reason'),
  3: field.string('evaluationError'),
  4: field.bool('denied'),
});

const SubjectAccessReviewSpecMessage = message(`${AUTHORIZATION_V1}.SubjectAccessReviewSpec`, {
  1: field.message('resourceAttributes', ResourceAttributesMessage),
  2: field.message('nonResourceAttributes', NonResourceAttributesMessage),
  3: field.string('user'),
  4: field.repeated('groups', 'string'),
  6: field.string('uid'),
});

const SelfSubjectAccessReviewSpecMessage = message(`${AUTHORIZATION_V1}.SelfSubjectAccessReviewSpec`, {
  1: field.message('resourceAttributes', ResourceAttributesMessage),
  2: field.message('nonResourceAttributes', NonResourceAttributesMessage),
});

function accessReviewMessage(kind: string, spec: typeof SubjectAccessReviewSpecMessage) {
  return message(`${AUTHORIZATION_V1}.${kind}`, {
    1: field.message('metadata', ObjectMetaMessage),
    2: field.message('spec', spec),
    3: field.message('status', SubjectAccessReviewStatusMessage),
  });
}

export const SubjectAccessReviewMessage = accessReviewMessage('SubjectAccessReview', SubjectAccessReviewSpecMessage);
export const LocalSubjectAccessReviewMessage = accessReviewMessage('LocalSubjectAccessReview', SubjectAccessReviewSpecMessage);
export const SelfSubjectAccessReviewMessage = accessReviewMessage('SelfSubjectAccessReview', SelfSubjectAccessReviewSpecMessage);

const ResourceRuleMessage = message(`${AUTHORIZATION_V1}.ResourceRule`, {
  1: field.repeated('verbs', 'string'),
  2: field.repeated('apiGroups', 'string'),
  3: field.repeated('resources', 'string'),
  4: field.repeated('resourceNames', 'string'),
});

const NonResourceRuleMessage = message(`${AUTHORIZATION_V1}.NonResourceRule`, {
  1: field.repeated('verbs', 'string'),
  2: field.repeated('nonResourceURLs', 'string'),
});

export const SelfSubjectRulesReviewMessage = message(`${AUTHORIZATION_V1}.SelfSubjectRulesReview`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', message(`${AUTHORIZATION_V1}.SelfSubjectRulesReviewSpec`, { 1: field.string('namespace') })),
  3: field.message(
    'status',
    message(`${AUTHORIZATION_V1}.SubjectRulesReviewStatus`, {
      1: field.repeated('resourceRules', ResourceRuleMessage),
      2: field.repeated('nonResourceRules', NonResourceRuleMessage),
      3: field.bool('incomplete', KEEP_ZERO),
      4: field.string('evaluationError'),
    }),
  ),
});
