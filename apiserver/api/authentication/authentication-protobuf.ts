/** Protobuf tables of TokenReview and SelfSubjectReview (k8s.io/api/authentication/v1
 * generated.proto): kubectl ≥ 1.32 sends `auth whoami` as protobuf. */
import { ObjectMetaMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';

const AUTHENTICATION_V1 = 'io.k8s.api.authentication.v1';

const UserInfoMessage = message(`${AUTHENTICATION_V1}.UserInfo`, {
  1: field.string('username'),
  2: field.string('uid'),
  3: field.repeated('groups', 'string'),
});

export const SelfSubjectReviewMessage = message(`${AUTHENTICATION_V1}.SelfSubjectReview`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('status', message(`${AUTHENTICATION_V1}.SelfSubjectReviewStatus`, { 1: field.message('userInfo', UserInfoMessage) })),
});

export const TokenReviewMessage = message(`${AUTHENTICATION_V1}.TokenReview`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', message(`${AUTHENTICATION_V1}.TokenReviewSpec`, { 1: field.string('token'), 2: field.repeated('audiences', 'string') })),
  3: field.message(
    'status',
    message(`${AUTHENTICATION_V1}.TokenReviewStatus`, {
      1: field.bool('authenticated', KEEP_ZERO),
      2: field.message('user', UserInfoMessage),
      3: field.string('error'),
      4: field.repeated('audiences', 'string'),
    }),
  ),
});
