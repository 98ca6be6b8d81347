/** Protobuf tables of deployment.ts (k8s.io/api/apps/v1 generated.proto). */
import { PodTemplateSpecMessage } from '../core/pod-spec-protobuf.js';
import { IntOrStringMessage, LabelSelectorMessage, ObjectMetaMessage, TimeMessage } from '../meta-protobuf.js';
import { field, KEEP_ZERO, message } from '../protobuf/message-type.js';
import { APPS_V1 } from './apps-v1.js';

export const RollingUpdateDeploymentMessage = message(`${APPS_V1}.RollingUpdateDeployment`, {
  1: field.message('maxUnavailable', IntOrStringMessage),
  2: field.message('maxSurge', IntOrStringMessage),
});

export const DeploymentStrategyMessage = message(`${APPS_V1}.DeploymentStrategy`, {
  1: field.string('type'),
  2: field.message('rollingUpdate', RollingUpdateDeploymentMessage),
});

export const DeploymentSpecMessage = message(`${APPS_V1}.DeploymentSpec`, {
  1: field.int32('replicas', KEEP_ZERO),
  2: field.message('selector', LabelSelectorMessage),
  3: field.message('template', PodTemplateSpecMessage),
  4: field.message('strategy', DeploymentStrategyMessage),
  5: field.int32('minReadySeconds'),
  6: field.int32('revisionHistoryLimit', KEEP_ZERO),
  7: field.bool('paused'),
  9: field.int32('progressDeadlineSeconds', KEEP_ZERO),
});

export const DeploymentConditionMessage = message(`${APPS_V1}.DeploymentCondition`, {
  1: field.string('type', KEEP_ZERO),
  2: field.string('status', KEEP_ZERO),
  4: field.string('reason'),
  5: field.string('message'),
  6: field.message('lastUpdateTime', TimeMessage),
  7: field.message('lastTransitionTime', TimeMessage),
});

export const DeploymentStatusMessage = message(`${APPS_V1}.DeploymentStatus`, {
  1: field.int64('observedGeneration'),
  2: field.int32('replicas'),
  3: field.int32('updatedReplicas'),
  4: field.int32('availableReplicas'),
  5: field.int32('unavailableReplicas'),
  6: field.repeated('conditions', DeploymentConditionMessage),
  7: field.int32('readyReplicas'),
  8: field.int32('collisionCount', KEEP_ZERO),
  9: field.int32('terminatingReplicas', KEEP_ZERO),
});

export const DeploymentMessage = message(`${APPS_V1}.Deployment`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('spec', DeploymentSpecMessage),
  3: field.message('status', DeploymentStatusMessage),
});
