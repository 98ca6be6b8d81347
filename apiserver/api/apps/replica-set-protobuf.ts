/** Protobuf tables of replica-set.ts (k8s.io/api/apps/v1 generated.proto). */
import { PodTemplateSpecMessage } from '../core/pod-spec-protobuf.js';
import { kindConditionMessage, LabelSelectorMessage, ObjectMetaMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import { APPS_V1 } from './apps-v1.js';

export const ReplicaSetSpecMessage = message(`${APPS_V1}.ReplicaSetSpec`, {
  1: field.int32('replicas', KEEP_ZERO),
  2: field.message('selector', LabelSelectorMessage),
  3: field.message('template', PodTemplateSpecMessage),
  4: field.int32('minReadySeconds'),
});

export const ReplicaSetConditionMessage = kindConditionMessage(`${APPS_V1}.ReplicaSetCondition`);

export const ReplicaSetStatusMessage = message(`${APPS_V1}.ReplicaSetStatus`, {
  1: field.int32('replicas', KEEP_ZERO),
  2: field.int32('fullyLabeledReplicas'),
  3: field.int64('observedGeneration'),
  4: field.int32('readyReplicas'),
  5: field.int32('availableReplicas'),
  6: field.repeated('conditions', ReplicaSetConditionMessage),
  7: field.int32('terminatingReplicas', KEEP_ZERO),
});

export const ReplicaSetMessage = message(`${APPS_V1}.ReplicaSet`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', ReplicaSetSpecMessage),
  3: field.message('status', ReplicaSetStatusMessage),
});
