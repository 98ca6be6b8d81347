/** The pod network of a kubelet process: connections reach the servers of the containers this
 * process runs, whichever of its simulated nodes they are on. */
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { Clock, Lister } from '../../controllers/runtime/types.js';
import type { PodUserlands } from '../streaming/pod-userlands.js';
import type { ClusterReader, PodNetwork } from '../userland/contract.js';
import { createPodNetwork } from './pod-network.js';

export interface KubeletNetworkDeps {
  readonly lister: Lister<Pod>;
  readonly isLocalNode: (name: string) => boolean;
  readonly cluster: ClusterReader;
  readonly clock: Clock;
  /** The process's userlands (made after the network, which their containers are given). */
  readonly userlands: () => PodUserlands;
}

export function createKubeletNetwork(deps: KubeletNetworkDeps): PodNetwork {
  return createPodNetwork({
    cluster: deps.cluster,
    clock: deps.clock,
    pods: () => deps.lister.list(),
    async open(pod, port) {
      if (!deps.isLocalNode(pod.spec?.nodeName ?? '')) return 'remote';
      const userlands = deps.userlands();
      await userlands.ready();
      for (const container of pod.spec?.containers ?? []) {
        const found = userlands.container(pod.metadata.namespace ?? '', pod.metadata.name ?? '', container.name);
        const connection = found.found ? found.userland.connect?.(port) : undefined;
        if (connection) return connection;
      }
      return undefined;
    },
  });
}
