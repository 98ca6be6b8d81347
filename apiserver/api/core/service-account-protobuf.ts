/** Protobuf tables of service-account.ts (k8s.io/api/core/v1 generated.proto). */
import { ObjectMetaMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import { LocalObjectReferenceMessage, ObjectReferenceMessage } from './object-reference-protobuf.js';
import { K8S_CORE } from './schema-helpers.js';

export const ServiceAccountMessage = message(`${K8S_CORE}.ServiceAccount`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.repeated('secrets', ObjectReferenceMessage),
  3: field.repeated('imagePullSecrets', LocalObjectReferenceMessage),
  4: field.bool('automountServiceAccountToken', KEEP_ZERO),
});
