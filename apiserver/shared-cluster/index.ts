/**
 * shared-cluster: what makes several API servers on one store (etcd) serve one cluster
 * (docs/architecture.md, "Several API servers"): each server's Lease and the live set behind
 * the `kubernetes` endpoints (api-server-leases.ts), the clock and fault rules kept in one
 * record every server follows (shared-state.ts), and settle asking the peers what keeps them
 * busy (peer-activity.ts). A server on SQLite, alone by construction, runs none of it.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../api/machinery/clock-types.js';
import { sleepOn } from '../api/machinery/sleep.js';
import type { ClusterCa } from '../api/pki/cluster-ca.js';
import type { ClientIdentity, KeyPair } from '../api/pki/issue.js';
import type { ApiAddress, ApiServerDirectory } from '../controlplane/index.js';
import { ObjectWriter } from '../controlplane/writes.js';
import type { ApiServer } from '../server.js';
import { ApiServerLeases } from './api-server-leases.js';
import { peerActivity } from './peer-activity.js';
import { SharedState } from './shared-state.js';

export { ApiServerLeases, apiServerLeaseName } from './api-server-leases.js';
export { CLUSTER_STATE_NAME } from './shared-state.js';

/** Who a server is when it calls its peers: kube-apiserver's loopback identity. */
const PEER_IDENTITY: ClientIdentity = { commonName: 'system:apiserver', organizations: ['system:masters'] };

export interface SharedClusterOptions {
  server: ApiServer;
  address: ApiAddress;
  scheme: 'http' | 'https';
  clientCertificate(identity: ClientIdentity): Promise<KeyPair>;
  clusterCa: ClusterCa;
}

export interface SharedCluster {
  /** The live API servers (this one among them once its Lease is written). */
  apiServers: ApiServerDirectory;
  /** This server's Lease name. */
  leaseName: string;
  stop(): void;
}

/** startSharedCluster writes this server's Lease, joins the shared state and lets settle
 * consult the peers. */
export async function startSharedCluster(options: SharedClusterOptions): Promise<SharedCluster> {
  const { server } = options;
  const writer = new ObjectWriter({ ...server.context, actor: { user: 'system:apiserver', fieldManager: 'kube-apiserver' } });
  const clock = server.clock ?? wallTimers(server.context.now);
  // Not from the server's random streams: a seeded server's uids stay as they were.
  const leases = new ApiServerLeases({ writer, address: options.address, clock, uuid: randomUUID, logger: server.app.log });
  leases.start();
  const state = new SharedState({ writer, serverName: leases.name, clock: server.clock, faults: server.faults, logger: server.app.log });
  try {
    await state.start();
  } catch (err) {
    leases.stop();
    throw err;
  }
  server.control.consultPeers(
    peerActivity({
      directory: leases,
      self: options.address,
      scheme: options.scheme,
      credentials: async () => ({ pair: await options.clientCertificate(PEER_IDENTITY), caPem: options.clusterCa.certPem }),
    }),
  );
  return {
    apiServers: leases,
    leaseName: leases.name,
    stop() {
      state.stop();
      leases.stop();
    },
  };
}

/** wallTimers is a Clock for a server given only a time source (`now`): its time, wall timers. */
function wallTimers(now: () => number): Clock {
  const clock: Clock = {
    now,
    setTimeout(fn, delayMs) {
      const timer = setTimeout(fn, delayMs);
      timer.unref();
      return { cancel: () => clearTimeout(timer) };
    },
    sleep: (delayMs, signal) => sleepOn(clock, delayMs, signal),
  };
  return clock;
}
