/**
 * The built-in control loops by name: what `kubesim controller <name>` runs and what
 * `kubesim up` starts, one process each.
 */
import type { Manager } from './runtime/manager.js';

export interface ControllerEntry {
  summary: string;
  /** Loads the loop's module on demand, so each process's module graph holds only its own loops. */
  register(manager: Manager): Promise<void>;
}

export const CONTROLLERS = {
  replicaset: {
    summary: 'keeps spec.replicas pods per ReplicaSet',
    register: async (m) => void (await import('./replicaset/index.js')).registerReplicaSetController(m),
  },
  replicationcontroller: {
    summary: 'keeps spec.replicas pods per ReplicationController (the ReplicaSet loop, equality selector)',
    register: async (m) => void (await import('./replicaset/index.js')).registerReplicationController(m),
  },
  deployment: {
    summary: 'rolls Deployments out through ReplicaSets',
    register: async (m) => void (await import('./deployment/index.js')).registerDeploymentController(m),
  },
  daemonset: {
    summary: 'runs one pod per eligible node for each DaemonSet',
    register: async (m) => void (await import('./daemonset/index.js')).registerDaemonSetController(m),
  },
  'garbage-collector': {
    summary: 'deletes dependents whose owners are gone',
    register: async (m) => void (await import('./garbage-collector/index.js')).registerGarbageCollector(m),
  },
  namespace: {
    summary: 'empties and removes terminating namespaces',
    register: async (m) => void (await import('./namespace/index.js')).registerNamespaceController(m),
  },
  'node-lifecycle': {
    summary: 'marks silent nodes NotReady, taints them, evicts their pods',
    register: async (m) => void (await import('./node-lifecycle/index.js')).registerNodeLifecycleController(m),
  },
  hpa: {
    summary: 'scales Deployments and other /scale targets on CPU and memory metrics',
    register: async (m) => void (await import('./hpa/index.js')).registerHpaController(m),
  },
  disruption: {
    summary: 'keeps PodDisruptionBudgets’ healthy counts and allowed disruptions current',
    register: async (m) => void (await import('./disruption/index.js')).registerDisruptionController(m),
  },
  endpointslice: {
    summary: 'publishes each selector Service’s ready pods as EndpointSlices',
    register: async (m) => void (await import('./endpoints/index.js')).registerEndpointSliceController(m),
  },
  endpoints: {
    summary: 'keeps the core/v1 Endpoints of each selector Service',
    register: async (m) => void (await import('./endpoints/index.js')).registerEndpointsController(m),
  },
  statefulset: {
    summary: 'runs StatefulSets: ordered pods <set>-<ordinal>, claims, rolling updates, revisions',
    register: async (m) => void (await import('./statefulset/index.js')).registerStatefulSetController(m),
  },
  'persistentvolume-binder': {
    summary: 'binds each pending PersistentVolumeClaim to a generated PersistentVolume',
    register: async (m) => void (await import('./persistentvolume-binder/index.js')).registerPersistentVolumeBinder(m),
  },
  job: {
    summary: 'runs Jobs’ pods to completion: parallelism, completions, backoffLimit, deadlines, suspend',
    register: async (m) => void (await import('./job/index.js')).registerJobController(m),
  },
  cronjob: {
    summary: 'creates a Job <cronjob>-<minutes> at each schedule time of a CronJob',
    register: async (m) => void (await import('./cronjob/index.js')).registerCronJobController(m),
  },
  resourcequota: {
    summary: 'keeps each ResourceQuota’s status.hard and status.used current',
    register: async (m) => void (await import('./resourcequota/index.js')).registerResourceQuotaController(m),
  },
  'ttl-after-finished': {
    summary: 'deletes finished Jobs after spec.ttlSecondsAfterFinished',
    register: async (m) => void (await import('./ttl-after-finished/index.js')).registerTtlAfterFinishedController(m),
  },
  'clusterrole-aggregation': {
    summary: 'writes each aggregated ClusterRole’s rules: the union of the rules of the ClusterRoles it selects',
    register: async (m) => void (await import('./clusterrole-aggregation/index.js')).registerClusterRoleAggregationController(m),
  },
  csrsigning: {
    summary: 'signs approved kube-apiserver-client and kubelet CertificateSigningRequests with the cluster CA',
    register: async (m) => void (await import('./csr-signing/index.js')).registerCsrSigningController(m),
  },
  'root-ca-cert-publisher': {
    summary: 'publishes the cluster CA certificate as the kube-root-ca.crt ConfigMap of every namespace',
    register: async (m) => void (await import('./root-ca-publisher/index.js')).registerRootCaPublisher(m),
  },
  serviceaccount: {
    summary: 'keeps a default ServiceAccount in every namespace',
    register: async (m) => void (await import('./serviceaccount/index.js')).registerServiceAccountController(m),
  },
  'serviceaccount-token': {
    summary: 'fills kubernetes.io/service-account-token Secrets with a long-lived token of their ServiceAccount',
    register: async (m) => void (await import('./serviceaccount/index.js')).registerTokensController(m),
  },
  'pvc-protection': {
    summary: 'keeps a claim with its kubernetes.io/pvc-protection finalizer until no scheduled pod uses it',
    register: async (m) => void (await import('./storage-protection/index.js')).registerPvcProtectionController(m),
  },
  'pv-protection': {
    summary: 'keeps a volume with its kubernetes.io/pv-protection finalizer until it is no longer Bound',
    register: async (m) => void (await import('./storage-protection/index.js')).registerPvProtectionController(m),
  },
} satisfies Record<string, ControllerEntry>;

export type ControllerName = keyof typeof CONTROLLERS;
export const CONTROLLER_NAMES = Object.keys(CONTROLLERS) as ControllerName[];

export function isControllerName(name: string): name is ControllerName {
  return Object.hasOwn(CONTROLLERS, name);
}

/** componentName names a process running `names` (events' source, logs, the Lease). */
export function componentName(names: ControllerName[]): string {
  return names.length === 1 ? `${names[0]}-controller` : 'kubesim-controller-manager';
}
