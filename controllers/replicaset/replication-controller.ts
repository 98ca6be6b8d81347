/**
 * The ReplicationController controller: the ReplicaSet loop run over core/v1
 * ReplicationControllers seen as ReplicaSets (kube-controller-manager's
 * pkg/controller/replication does the same). An RC's equality-based selector is a
 * ReplicaSet's matchLabels; its status has no terminatingReplicas.
 */
import type { ReplicaSet } from '../../apiserver/api/apps/replica-set.js';

import type { ReplicationController } from '../../apiserver/api/core/replication-controller.js';
import type { Controller } from '../runtime/controller.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import type { DeepReadonly } from '../runtime/types.js';
import type { ReplicaSetView } from './replica-set-view.js';
import { type ReplicaSetControllerOptions, registerReplicaSetLoop } from './replicaset-controller.js';

/** REPLICATION_CONTROLLER_NAME names the loop in logs and counters. */
export const REPLICATION_CONTROLLER_NAME = 'replicationcontroller';

/** REPLICATION_CONTROLLER_EVENT_SOURCE is its events' source.component, as kube-controller-manager's. */
export const REPLICATION_CONTROLLER_EVENT_SOURCE = 'replication-controller';

/** RC_VIEW converts ReplicationControllers to ReplicaSets and back (conversion.go's roles). */
export const RC_VIEW: ReplicaSetView<ReplicationController> = {
  toReplicaSet: (rc) => {
    const { replicas, minReadySeconds, selector, template } = rc.spec;
    return {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: rc.metadata,
      spec: { replicas, minReadySeconds, selector: { matchLabels: selector ?? {} }, template },
      status: rc.status,
    } as DeepReadonly<ReplicaSet>;
  },
  fromReplicaSet: (rs) => {
    const { replicas, minReadySeconds, selector, template } = rs.spec;
    const { terminatingReplicas: _dropped, ...status } = rs.status ?? {};
    return {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: rs.metadata,
      spec: { replicas, minReadySeconds, selector: selector.matchLabels ?? {}, template },
      status,
    };
  },
};

/** registerReplicationController adds the ReplicationController loop to `manager`
 * (registerReplicaSetController's counterpart; see it for the informers and indexes). */
export function registerReplicationController(manager: Manager, options: ReplicaSetControllerOptions = {}): Controller {
  return registerReplicaSetLoop(
    manager,
    {
      name: REPLICATION_CONTROLLER_NAME,
      eventSource: REPLICATION_CONTROLLER_EVENT_SOURCE,
      definition: KINDS.replicationController,
      owner: { apiVersion: 'v1', kind: 'ReplicationController' },
      view: RC_VIEW,
      omitTerminatingReplicas: true,
    },
    options,
  );
}
