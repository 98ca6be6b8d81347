/** Protobuf table of certificate-signing-request.ts (k8s.io/api/certificates/v1
 * generated.proto): what kubectl ≥ 1.32's typed client sends to /approval
 * (`kubectl certificate approve|deny`) and on create. */
import { ObjectMetaMessage, TimeMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';

const CERTIFICATES_V1 = 'io.k8s.api.certificates.v1';

/** ExtraValue wraps a list of strings; its JSON is the bare list. */
const ExtraValueMessage = message(`${CERTIFICATES_V1}.ExtraValue`, { 1: field.repeated('items', 'string') }, ({ items }) => items ?? []);

const SpecMessage = message(`${CERTIFICATES_V1}.CertificateSigningRequestSpec`, {
  1: field.bytes('request', KEEP_ZERO),
  2: field.string('username'),
  3: field.string('uid'),
  4: field.repeated('groups', 'string'),
  5: field.repeated('usages', 'string'),
  6: field.map('extra', ExtraValueMessage),
  7: field.string('signerName', KEEP_ZERO),
  8: field.int32('expirationSeconds', KEEP_ZERO),
});

const ConditionMessage = message(`${CERTIFICATES_V1}.CertificateSigningRequestCondition`, {
  1: field.string('type', KEEP_ZERO),
  2: field.string('reason'),
  3: field.string('message'),
  4: field.message('lastUpdateTime', TimeMessage),
  5: field.message('lastTransitionTime', TimeMessage),
  6: field.string('status', KEEP_ZERO),
});

const StatusMessage = message(`${CERTIFICATES_V1}.CertificateSigningRequestStatus`, {
  1: field.repeated('conditions', ConditionMessage),
  2: field.bytes('certificate'),
});

export const CertificateSigningRequestMessage = message(`${CERTIFICATES_V1}.CertificateSigningRequest`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', SpecMessage),
  3: field.message('status', StatusMessage),
});
