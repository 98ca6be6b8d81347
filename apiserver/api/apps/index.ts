/**
 * apps: the workload kinds that manage pods from a template, Deployments and ReplicaSets
 * (apps/v1, the only served version).
 *
 * Role: schemas, defaults, validation and table columns of the group. May import only from
 * apiserver/api/ (meta, printing, validation, patch-meta, core/pod-spec) and zod. See
 * docs/api-conventions.md.
 */
import type { ResourceDefinition } from '../resource-definition.js';
import { daemonSetDefinition } from './daemon-set.js';
import { deploymentDefinition } from './deployment.js';
import { replicaSetDefinition } from './replica-set.js';
import { controllerRevisionDefinition } from './controller-revision.js';
import { statefulSetDefinition } from './stateful-set.js';

export {
  defaultDeployment,
  deploymentDefinition,
  DeploymentConditionSchema,
  DeploymentSchema,
  DeploymentSpecSchema,
  DeploymentStatusSchema,
  DeploymentStrategySchema,
  RollingUpdateDeploymentSchema,
  type Deployment,
  type DeploymentCondition,
  validateDeployment,
} from './deployment.js';
export { daemonSetDefinition, DaemonSetSchema, defaultDaemonSet, type DaemonSet, type DaemonSetStatus } from './daemon-set.js';
export { APPS_V1 } from './apps-v1.js';
export {
  defaultReplicaSet,
  replicaSetDefinition,
  ReplicaSetConditionSchema,
  ReplicaSetSchema,
  ReplicaSetSpecSchema,
  ReplicaSetStatusSchema,
  validateReplicaSet,
  type ReplicaSet,
} from './replica-set.js';
export * from './stateful-set.js';
export * from './controller-revision.js';

/** appsDefinitions lists the group's served kinds. */
export const appsDefinitions: ResourceDefinition<any>[] = [deploymentDefinition, replicaSetDefinition, daemonSetDefinition, statefulSetDefinition, controllerRevisionDefinition];
