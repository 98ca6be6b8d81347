/**
 * KINDS are the built-in kinds the loops address, each typed with its object type: the
 * identities of apiserver/api/kind-refs.ts, without the schemas (see there for why).
 */
import type { ControllerRevision } from '../../apiserver/api/apps/controller-revision.js';
import type { DaemonSet } from '../../apiserver/api/apps/daemon-set.js';
import type { Deployment } from '../../apiserver/api/apps/deployment.js';
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';
import type { StatefulSet } from '../../apiserver/api/apps/stateful-set.js';
import type { HorizontalPodAutoscaler } from '../../apiserver/api/autoscaling/horizontal-pod-autoscaler.js';
import type { CronJob } from '../../apiserver/api/batch/cron-job.js';
import type { Job } from '../../apiserver/api/batch/job.js';
import type { Lease } from '../../apiserver/api/coordination/lease.js';
import type { ConfigMap } from '../../apiserver/api/core/config-map.js';
import type { Endpoints } from '../../apiserver/api/core/endpoints.js';
import type { Event } from '../../apiserver/api/core/event.js';
import type { Namespace } from '../../apiserver/api/core/namespace.js';
import type { Node } from '../../apiserver/api/core/node.js';
import type { PersistentVolume } from '../../apiserver/api/core/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../apiserver/api/core/persistent-volume-claim.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { ReplicationController } from '../../apiserver/api/core/replication-controller.js';
import type { ResourceQuota } from '../../apiserver/api/core/resource-quota.js';
import type { Secret } from '../../apiserver/api/core/secret.js';
import type { Service } from '../../apiserver/api/core/service.js';
import type { EndpointSlice } from '../../apiserver/api/discovery/endpoint-slice.js';
import { KIND_IDS } from '../../apiserver/api/kind-refs.js';
import type { PodDisruptionBudget } from '../../apiserver/api/policy/pod-disruption-budget.js';
import type { ClusterRole } from '../../apiserver/api/rbac/cluster-role.js';
import type { KindRef, KubeObject } from '../../apiserver/api/resource-definition.js';

// The type parameter is only carried (KindRef.objectType is never set), so the cast is safe.
const typed = <T extends KubeObject>(id: KindRef): KindRef<T> => id as KindRef<T>;

export const KINDS = {
  pod: typed<Pod>(KIND_IDS.pod),
  node: typed<Node>(KIND_IDS.node),
  namespace: typed<Namespace>(KIND_IDS.namespace),
  configMap: typed<ConfigMap>(KIND_IDS.configMap),
  secret: typed<Secret>(KIND_IDS.secret),
  service: typed<Service>(KIND_IDS.service),
  endpoints: typed<Endpoints>(KIND_IDS.endpoints),
  event: typed<Event>(KIND_IDS.event),
  persistentVolume: typed<PersistentVolume>(KIND_IDS.persistentVolume),
  persistentVolumeClaim: typed<PersistentVolumeClaim>(KIND_IDS.persistentVolumeClaim),
  replicationController: typed<ReplicationController>(KIND_IDS.replicationController),
  resourceQuota: typed<ResourceQuota>(KIND_IDS.resourceQuota),
  deployment: typed<Deployment>(KIND_IDS.deployment),
  replicaSet: typed<ReplicaSet>(KIND_IDS.replicaSet),
  statefulSet: typed<StatefulSet>(KIND_IDS.statefulSet),
  daemonSet: typed<DaemonSet>(KIND_IDS.daemonSet),
  controllerRevision: typed<ControllerRevision>(KIND_IDS.controllerRevision),
  job: typed<Job>(KIND_IDS.job),
  cronJob: typed<CronJob>(KIND_IDS.cronJob),
  horizontalPodAutoscaler: typed<HorizontalPodAutoscaler>(KIND_IDS.horizontalPodAutoscaler),
  lease: typed<Lease>(KIND_IDS.lease),
  endpointSlice: typed<EndpointSlice>(KIND_IDS.endpointSlice),
  podDisruptionBudget: typed<PodDisruptionBudget>(KIND_IDS.podDisruptionBudget),
  clusterRole: typed<ClusterRole>(KIND_IDS.clusterRole),
};
