/**
 * The built-in control loops by name: what `kubesim controller <name>` runs and what
 * `kubesim up` starts, one process each.
 */
import { registerDeploymentController } from './deployment/index.js';
import { registerGarbageCollector } from './garbage-collector/index.js';
import { registerHpaController } from './hpa/index.js';
import { registerNamespaceController } from './namespace/index.js';
import { registerNodeLifecycleController } from './node-lifecycle/index.js';
import { registerReplicaSetController } from './replicaset/index.js';
import type { Manager } from './runtime/manager.js';

export interface ControllerEntry {
  summary: string;
  register(manager: Manager): void;
}

export const CONTROLLERS = {
  replicaset: { summary: 'keeps spec.replicas pods per ReplicaSet', register: (m) => void registerReplicaSetController(m) },
  deployment: { summary: 'rolls Deployments out through ReplicaSets', register: (m) => void registerDeploymentController(m) },
  'garbage-collector': { summary: 'deletes dependents whose owners are gone', register: (m) => void registerGarbageCollector(m) },
  namespace: { summary: 'empties and removes terminating namespaces', register: (m) => void registerNamespaceController(m) },
  'node-lifecycle': { summary: 'marks silent nodes NotReady, taints them, evicts their pods', register: (m) => void registerNodeLifecycleController(m) },
  hpa: { summary: 'scales Deployments and other /scale targets on CPU and memory metrics', register: (m) => void registerHpaController(m) },
} satisfies Record<string, ControllerEntry>;

export type ControllerName = keyof typeof CONTROLLERS;
export const CONTROLLER_NAMES = Object.keys(CONTROLLERS) as ControllerName[];

export function isControllerName(name: string): name is ControllerName {
  return Object.hasOwn(CONTROLLERS, name);
}
