/** Protobuf table of priority-class.ts (k8s.io/api/scheduling/v1 generated.proto): what
 * `kubectl create priorityclass` (kubectl ≥ 1.32) posts. */
import { ObjectMetaMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';

export const PriorityClassMessage = message('io.k8s.api.scheduling.v1.PriorityClass', {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.int32('value', KEEP_ZERO),
  3: field.bool('globalDefault'),
  4: field.string('description'),
  5: field.string('preemptionPolicy', KEEP_ZERO),
});
