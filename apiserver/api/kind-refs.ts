/**
 * KIND_IDS holds the identity (group, version, kind, plural, scope) of each built-in kind the
 * control loops, the scheduler and the kubelets address. Each is written once, here, and
 * spread into the kind's ResourceDefinition; the loops address kinds through these (typed in
 * controllers/runtime/kinds.ts) instead of the definitions, so their processes load neither
 * zod nor any kind's schema. Add a kind here when a loop starts using it.
 */
import type { KindRef } from './resource-definition.js';

export const KIND_IDS = {
  pod: { group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true },
  node: { group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false },
  namespace: { group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false },
  configMap: { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true },
  secret: { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true },
  service: { group: '', version: 'v1', kind: 'Service', plural: 'services', namespaced: true },
  endpoints: { group: '', version: 'v1', kind: 'Endpoints', plural: 'endpoints', namespaced: true },
  event: { group: '', version: 'v1', kind: 'Event', plural: 'events', namespaced: true },
  persistentVolume: { group: '', version: 'v1', kind: 'PersistentVolume', plural: 'persistentvolumes', namespaced: false },
  persistentVolumeClaim: { group: '', version: 'v1', kind: 'PersistentVolumeClaim', plural: 'persistentvolumeclaims', namespaced: true },
  replicationController: { group: '', version: 'v1', kind: 'ReplicationController', plural: 'replicationcontrollers', namespaced: true },
  resourceQuota: { group: '', version: 'v1', kind: 'ResourceQuota', plural: 'resourcequotas', namespaced: true },
  deployment: { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true },
  replicaSet: { group: 'apps', version: 'v1', kind: 'ReplicaSet', plural: 'replicasets', namespaced: true },
  statefulSet: { group: 'apps', version: 'v1', kind: 'StatefulSet', plural: 'statefulsets', namespaced: true },
  daemonSet: { group: 'apps', version: 'v1', kind: 'DaemonSet', plural: 'daemonsets', namespaced: true },
  controllerRevision: { group: 'apps', version: 'v1', kind: 'ControllerRevision', plural: 'controllerrevisions', namespaced: true },
  job: { group: 'batch', version: 'v1', kind: 'Job', plural: 'jobs', namespaced: true },
  cronJob: { group: 'batch', version: 'v1', kind: 'CronJob', plural: 'cronjobs', namespaced: true },
  horizontalPodAutoscaler: { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler', plural: 'horizontalpodautoscalers', namespaced: true },
  lease: { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true },
  endpointSlice: { group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice', plural: 'endpointslices', namespaced: true },
  podDisruptionBudget: { group: 'policy', version: 'v1', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets', namespaced: true },
  clusterRole: { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole', plural: 'clusterroles', namespaced: false },
} as const satisfies Record<string, KindRef>;
