import { deploymentDefinition } from './deployment.js';
import { replicaSetDefinition } from './replica-set.js';
export { defaultDeployment, deploymentDefinition, DeploymentConditionSchema, DeploymentSchema, DeploymentSpecSchema, DeploymentStatusSchema, DeploymentStrategySchema, RollingUpdateDeploymentSchema, } from './deployment.js';
export { validateDeployment } from './deployment-validation.js';
export { APPS_V1, defaultReplicaSet, replicaSetDefinition, ReplicaSetConditionSchema, ReplicaSetSchema, ReplicaSetSpecSchema, ReplicaSetStatusSchema, validateReplicaSet, } from './replica-set.js';
/** appsDefinitions lists the group's served kinds. */
export const appsDefinitions = [deploymentDefinition, replicaSetDefinition];
//# sourceMappingURL=index.js.map