/** Protobuf tables of TokenReview and SelfSubjectReview (k8s.io/api/authentication/v1
 * generated.proto): kubectl ≥ 1.32 sends `auth whoami` as protobuf. */
import { ObjectMetaMessage, TimeMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';

const AUTHENTICATION_V1 = 'io.k8s.api.authentication.v1';

const UserInfoMessage = message(`${AUTHENTICATION_V1}.UserInfo`, {
  1: field.string('username'),
  2: field.string('uid'),
  3: field.repeated('groups', 'string'),
  4: field.map(
    'extra',
    message(`${AUTHENTICATION_V1}.ExtraValue`, { 1: field.repeated('items', 'string') }, ({ items }) => items ?? []),
  ),
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

/** TokenRequest, the body of POST serviceaccounts/{name}/token (`kubectl create token`). */
export const TokenRequestMessage = message(`${AUTHENTICATION_V1}.TokenRequest`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message(
    'spec',
    message(`${AUTHENTICATION_V1}.TokenRequestSpec`, {
      1: field.repeated('audiences', 'string'),
      3: field.message(
        'boundObjectRef',
        message(`${AUTHENTICATION_V1}.BoundObjectReference`, {
          1: field.string('kind'),
          2: field.string('apiVersion'),
          3: field.string('name'),
          4: field.string('uid'),
        }),
      ),
      4: field.int64('expirationSeconds', KEEP_ZERO),
    }),
  ),
  3: field.message(
    'status',
    message(`${AUTHENTICATION_V1}.TokenRequestStatus`, { 1: field.string('token'), 2: field.message('expirationTimestamp', TimeMessage) }),
  ),
});
