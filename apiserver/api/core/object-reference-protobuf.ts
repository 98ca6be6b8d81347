/** Protobuf tables of object-reference.ts (k8s.io/api/core/v1 generated.proto). */
import { field, message } from '../protobuf/message-type.js';
import { K8S_CORE } from './schema-helpers.js';

export const ObjectReferenceMessage = message(`${K8S_CORE}.ObjectReference`, {
  1: field.string('kind'),
  2: field.string('namespace'),
  3: field.string('name'),
  4: field.string('uid'),
  5: field.string('apiVersion'),
  6: field.string('resourceVersion'),
  7: field.string('fieldPath'),
});

export const LocalObjectReferenceMessage = message(`${K8S_CORE}.LocalObjectReference`, {
  1: field.string('name'),
});
