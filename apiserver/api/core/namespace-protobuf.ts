/** Protobuf tables of namespace.ts (k8s.io/api/core/v1 generated.proto). */
import { ObjectMetaMessage, TimeMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import { K8S_CORE } from './schema-helpers.js';

export const NamespaceConditionMessage = message(`${K8S_CORE}.NamespaceCondition`, {
  1: field.string('type', KEEP_ZERO),
  2: field.string('status', KEEP_ZERO),
  4: field.message('lastTransitionTime', TimeMessage),
  5: field.string('reason'),
  6: field.string('message'),
});

export const NamespaceMessage = message(`${K8S_CORE}.Namespace`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', message(`${K8S_CORE}.NamespaceSpec`, { 1: field.repeated('finalizers', 'string') })),
  3: field.message(
    'status',
    message(`${K8S_CORE}.NamespaceStatus`, {
      1: field.string('phase'),
      2: field.repeated('conditions', NamespaceConditionMessage),
    }),
  ),
});
