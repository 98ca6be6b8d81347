/** Protobuf tables of pod.ts and pod-status.ts (k8s.io/api/core/v1 generated.proto). */
import { ObjectMetaMessage, QuantityMessage, TimeMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import { ResourceRequirementsMessage } from './container-protobuf.js';
import { PodSpecMessage } from './pod-spec-protobuf.js';
import { K8S_CORE } from './schema-helpers.js';

export const PodConditionMessage = message(`${K8S_CORE}.PodCondition`, {
  1: field.string('type', KEEP_ZERO),
  2: field.string('status', KEEP_ZERO),
  3: field.message('lastProbeTime', TimeMessage),
  4: field.message('lastTransitionTime', TimeMessage),
  5: field.string('reason'),
  6: field.string('message'),
  7: field.int64('observedGeneration'),
});

export const ContainerStateMessage = message(`${K8S_CORE}.ContainerState`, {
  1: field.message('waiting', message(`${K8S_CORE}.ContainerStateWaiting`, { 1: field.string('reason'), 2: field.string('message') })),
  2: field.message('running', message(`${K8S_CORE}.ContainerStateRunning`, { 1: field.message('startedAt', TimeMessage) })),
  3: field.message(
    'terminated',
    message(`${K8S_CORE}.ContainerStateTerminated`, {
      1: field.int32('exitCode', KEEP_ZERO),
      2: field.int32('signal'),
      3: field.string('reason'),
      4: field.string('message'),
      5: field.message('startedAt', TimeMessage),
      6: field.message('finishedAt', TimeMessage),
      7: field.string('containerID'),
    }),
  ),
});

export const ContainerStatusMessage = message(`${K8S_CORE}.ContainerStatus`, {
  1: field.string('name', KEEP_ZERO),
  2: field.message('state', ContainerStateMessage),
  3: field.message('lastState', ContainerStateMessage),
  4: field.bool('ready', KEEP_ZERO),
  5: field.int32('restartCount', KEEP_ZERO),
  6: field.string('image', KEEP_ZERO),
  7: field.string('imageID', KEEP_ZERO),
  8: field.string('containerID'),
  9: field.bool('started', KEEP_ZERO),
  10: field.map('allocatedResources', QuantityMessage),
  11: field.message('resources', ResourceRequirementsMessage),
});

const ip = (name: string) => message(`${K8S_CORE}.${name}`, { 1: field.string('ip', KEEP_ZERO) });

export const PodStatusMessage = message(`${K8S_CORE}.PodStatus`, {
  1: field.string('phase'),
  2: field.repeated('conditions', PodConditionMessage),
  3: field.string('message'),
  4: field.string('reason'),
  5: field.string('hostIP'),
  6: field.string('podIP'),
  7: field.message('startTime', TimeMessage),
  8: field.repeated('containerStatuses', ContainerStatusMessage),
  9: field.string('qosClass'),
  10: field.repeated('initContainerStatuses', ContainerStatusMessage),
  11: field.string('nominatedNodeName'),
  12: field.repeated('podIPs', ip('PodIP')),
  13: field.repeated('ephemeralContainerStatuses', ContainerStatusMessage),
  14: field.string('resize'),
  16: field.repeated('hostIPs', ip('HostIP')),
  17: field.int64('observedGeneration'),
});

export const PodMessage = message(`${K8S_CORE}.Pod`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', PodSpecMessage),
  3: field.message('status', PodStatusMessage),
});
