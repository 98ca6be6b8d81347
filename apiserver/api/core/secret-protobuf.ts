/** Protobuf tables of secret.ts (k8s.io/api/core/v1 generated.proto): data is a
 * `map<string, bytes>`, base64 in JSON; stringData is plain text. */
import { ObjectMetaMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import { K8S_CORE } from './schema-helpers.js';

export const SecretMessage = message(`${K8S_CORE}.Secret`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.map('data', 'bytes'),
  3: field.string('type'),
  4: field.map('stringData'),
  5: field.bool('immutable', KEEP_ZERO),
});
