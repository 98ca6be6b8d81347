/**
 * builtinProtobufMessages: the protobuf table of every built-in kind whose objects may
 * arrive as `application/vnd.kubernetes.protobuf` bodies (kubectl ≥ 1.32's typed clients),
 * keyed by `apiVersion/kind` as the body's envelope names them. Kinds absent here accept
 * JSON and YAML only. Each table lives next to its kind's zod schema.
 */
import { DeploymentMessage } from './apps/deployment-protobuf.js';
import { ReplicaSetMessage } from './apps/replica-set-protobuf.js';
import { HorizontalPodAutoscalerMessage } from './autoscaling/horizontal-pod-autoscaler-protobuf.js';
import { HorizontalPodAutoscalerV1Message, ScaleMessage } from './autoscaling/horizontal-pod-autoscaler-v1-protobuf.js';
import { CronJobMessage, JobMessage } from './batch/job-protobuf.js';
import { LeaseMessage } from './coordination/lease-protobuf.js';
import { ConfigMapMessage } from './core/config-map-protobuf.js';
import { NamespaceMessage } from './core/namespace-protobuf.js';
import { PodMessage } from './core/pod-protobuf.js';
import { SecretMessage } from './core/secret-protobuf.js';
import { ServiceAccountMessage } from './core/service-account-protobuf.js';
import { ServiceMessage } from './core/service-protobuf.js';
import { PodDisruptionBudgetMessage } from './policy/pod-disruption-budget-protobuf.js';
import type { MessageType } from './protobuf/message-type.js';

const entries: Array<[apiVersion: string, kind: string, message: MessageType]> = [
  ['v1', 'Pod', PodMessage],
  ['v1', 'Service', ServiceMessage],
  ['v1', 'Namespace', NamespaceMessage],
  ['v1', 'ConfigMap', ConfigMapMessage],
  ['v1', 'Secret', SecretMessage],
  ['v1', 'ServiceAccount', ServiceAccountMessage],
  ['apps/v1', 'Deployment', DeploymentMessage],
  ['apps/v1', 'ReplicaSet', ReplicaSetMessage],
  ['autoscaling/v2', 'HorizontalPodAutoscaler', HorizontalPodAutoscalerMessage],
  ['autoscaling/v1', 'HorizontalPodAutoscaler', HorizontalPodAutoscalerV1Message],
  ['autoscaling/v1', 'Scale', ScaleMessage],
  ['coordination.k8s.io/v1', 'Lease', LeaseMessage],
  ['policy/v1', 'PodDisruptionBudget', PodDisruptionBudgetMessage],
  ['batch/v1', 'Job', JobMessage],
  ['batch/v1', 'CronJob', CronJobMessage],
];

const byKind = new Map(entries.map(([apiVersion, kind, message]) => [`${apiVersion}/${kind}`, message]));

/** protobufMessageFor returns the table of `apiVersion`/`kind`, or undefined when that kind
 * does not accept protobuf bodies. */
export function protobufMessageFor(apiVersion: string, kind: string): MessageType | undefined {
  return byKind.get(`${apiVersion}/${kind}`);
}
