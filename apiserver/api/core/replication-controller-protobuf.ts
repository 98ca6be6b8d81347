/** Protobuf tables of replication-controller.ts (k8s.io/api/core/v1 generated.proto). */
import { kindConditionMessage, ObjectMetaMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import { PodTemplateSpecMessage } from './pod-spec-protobuf.js';
import { K8S_CORE } from './schema-helpers.js';

export const ReplicationControllerSpecMessage = message(`${K8S_CORE}.ReplicationControllerSpec`, {
  1: field.int32('replicas', KEEP_ZERO),
  2: field.map('selector'),
  3: field.message('template', PodTemplateSpecMessage),
  4: field.int32('minReadySeconds'),
});

export const ReplicationControllerConditionMessage = kindConditionMessage(`${K8S_CORE}.ReplicationControllerCondition`);

export const ReplicationControllerStatusMessage = message(`${K8S_CORE}.ReplicationControllerStatus`, {
  1: field.int32('replicas', KEEP_ZERO),
  2: field.int32('fullyLabeledReplicas'),
  3: field.int64('observedGeneration'),
  4: field.int32('readyReplicas'),
  5: field.int32('availableReplicas'),
  6: field.repeated('conditions', ReplicationControllerConditionMessage),
});

export const ReplicationControllerMessage = message(`${K8S_CORE}.ReplicationController`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', ReplicationControllerSpecMessage),
  3: field.message('status', ReplicationControllerStatusMessage),
});
