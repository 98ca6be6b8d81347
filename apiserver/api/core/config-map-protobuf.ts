/** Protobuf tables of config-map.ts (k8s.io/api/core/v1 generated.proto): binaryData is a
 * `map<string, bytes>`, base64 in JSON. */
import { ObjectMetaMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import { K8S_CORE } from './schema-helpers.js';

export const ConfigMapMessage = message(`${K8S_CORE}.ConfigMap`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.map('data'),
  3: field.map('binaryData', 'bytes'),
  4: field.bool('immutable', KEEP_ZERO),
});
