/**
 * apps: the workload kinds that manage pods from a template, Deployments and ReplicaSets
 * (apps/v1, the only served version).
 *
 * Role: schemas, defaults, validation and table columns of the group. May import only from
 * apiserver/api/ (meta, printing, validation, patch-meta, core/pod-spec) and zod. See
 * docs/api-conventions.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { controllerRevisionDefinition } from './controller-revision.js';
import { daemonSetDefinition } from './daemon-set.js';
import { deploymentDefinition } from './deployment.js';
import { replicaSetDefinition } from './replica-set.js';
import { statefulSetDefinition } from './stateful-set.js';

export { APPS_V1 } from './apps-v1.js';
export * from './controller-revision.js';
export { type DaemonSet, DaemonSetSchema, type DaemonSetStatus, daemonSetDefinition, defaultDaemonSet } from './daemon-set.js';
export {
  type Deployment,
  type DeploymentCondition,
  DeploymentConditionSchema,
  DeploymentSchema,
  DeploymentSpecSchema,
  DeploymentStatusSchema,
  DeploymentStrategySchema,
  defaultDeployment,
  deploymentDefinition,
  RollingUpdateDeploymentSchema,
  validateDeployment,
} from './deployment.js';
export {
  defaultReplicaSet,
  type ReplicaSet,
  ReplicaSetConditionSchema,
  ReplicaSetSchema,
  ReplicaSetSpecSchema,
  ReplicaSetStatusSchema,
  replicaSetDefinition,
  validateReplicaSet,
} from './replica-set.js';
export * from './stateful-set.js';

/** appsDefinitions lists the group's served kinds. */
export const appsDefinitions: AnyResourceDefinition[] = [
  deploymentDefinition,
  replicaSetDefinition,
  daemonSetDefinition,
  statefulSetDefinition,
  controllerRevisionDefinition,
];
