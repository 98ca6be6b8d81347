/**
 * The built-in control loops by name: what `kubesim controller <name>` runs and what
 * `kubesim up` starts, one process each.
 */
import { registerCronJobController } from './cronjob/index.js';
import { registerDaemonSetController } from './daemonset/index.js';
import { registerDeploymentController } from './deployment/index.js';
import { registerDisruptionController } from './disruption/index.js';
import { registerEndpointSliceController, registerEndpointsController } from './endpoints/index.js';
import { registerGarbageCollector } from './garbage-collector/index.js';
import { registerHpaController } from './hpa/index.js';
import { registerJobController } from './job/index.js';
import { registerNamespaceController } from './namespace/index.js';
import { registerNodeLifecycleController } from './node-lifecycle/index.js';
import { registerPersistentVolumeBinder } from './persistentvolume-binder/index.js';
import { registerReplicaSetController } from './replicaset/index.js';
import { registerStatefulSetController } from './statefulset/index.js';
import { registerTtlAfterFinishedController } from './ttl-after-finished/index.js';
import type { Manager } from './runtime/manager.js';

export interface ControllerEntry {
  summary: string;
  register(manager: Manager): void;
}

export const CONTROLLERS = {
  replicaset: { summary: 'keeps spec.replicas pods per ReplicaSet', register: (m) => void registerReplicaSetController(m) },
  deployment: { summary: 'rolls Deployments out through ReplicaSets', register: (m) => void registerDeploymentController(m) },
  daemonset: { summary: 'runs one pod per eligible node for each DaemonSet', register: (m) => void registerDaemonSetController(m) },
  'garbage-collector': { summary: 'deletes dependents whose owners are gone', register: (m) => void registerGarbageCollector(m) },
  namespace: { summary: 'empties and removes terminating namespaces', register: (m) => void registerNamespaceController(m) },
  'node-lifecycle': { summary: 'marks silent nodes NotReady, taints them, evicts their pods', register: (m) => void registerNodeLifecycleController(m) },
  hpa: { summary: 'scales Deployments and other /scale targets on CPU and memory metrics', register: (m) => void registerHpaController(m) },
  disruption: { summary: 'keeps PodDisruptionBudgets’ healthy counts and allowed disruptions current', register: (m) => void registerDisruptionController(m) },
  endpointslice: { summary: 'publishes each selector Service’s ready pods as EndpointSlices', register: (m) => void registerEndpointSliceController(m) },
  endpoints: { summary: 'keeps the core/v1 Endpoints of each selector Service', register: (m) => void registerEndpointsController(m) },
  statefulset: { summary: 'runs StatefulSets: ordered pods <set>-<ordinal>, claims, rolling updates, revisions', register: (m) => void registerStatefulSetController(m) },
  'persistentvolume-binder': { summary: 'binds each pending PersistentVolumeClaim to a generated PersistentVolume', register: (m) => void registerPersistentVolumeBinder(m) },
  job: { summary: 'runs Jobs’ pods to completion: parallelism, completions, backoffLimit, deadlines, suspend', register: (m) => void registerJobController(m) },
  cronjob: { summary: 'creates a Job <cronjob>-<minutes> at each schedule time of a CronJob', register: (m) => void registerCronJobController(m) },
  'ttl-after-finished': { summary: 'deletes finished Jobs after spec.ttlSecondsAfterFinished', register: (m) => void registerTtlAfterFinishedController(m) },
} satisfies Record<string, ControllerEntry>;

export type ControllerName = keyof typeof CONTROLLERS;
export const CONTROLLER_NAMES = Object.keys(CONTROLLERS) as ControllerName[];

export function isControllerName(name: string): name is ControllerName {
  return Object.hasOwn(CONTROLLERS, name);
}
