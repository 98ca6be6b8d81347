/**
 * The built-in control loops by name: what `kubesim controller <name>` runs and what
 * `kubesim up` starts, one process each.
 */
import { registerDeploymentController } from './deployment/index.js';
import { registerGarbageCollector } from './garbage-collector/index.js';
import { registerNamespaceController } from './namespace/index.js';
import { registerNodeLifecycleController } from './node-lifecycle/index.js';
import { registerReplicaSetController } from './replicaset/index.js';
export const CONTROLLERS = {
    replicaset: { summary: 'keeps spec.replicas pods per ReplicaSet', register: (m) => void registerReplicaSetController(m) },
    deployment: { summary: 'rolls Deployments out through ReplicaSets', register: (m) => void registerDeploymentController(m) },
    'garbage-collector': { summary: 'deletes dependents whose owners are gone', register: (m) => void registerGarbageCollector(m) },
    namespace: { summary: 'empties and removes terminating namespaces', register: (m) => void registerNamespaceController(m) },
    'node-lifecycle': { summary: 'marks silent nodes NotReady, taints them, evicts their pods', register: (m) => void registerNodeLifecycleController(m) },
};
export const CONTROLLER_NAMES = Object.keys(CONTROLLERS);
export function isControllerName(name) {
    return Object.hasOwn(CONTROLLERS, name);
}
//# sourceMappingURL=catalog.js.map