/** Cluster is what startCluster gives a test: where the cluster is, and its handles. */

import type { LoopActivity } from '../../apiserver/api/machinery/activity.js';
import type { ClusterClock } from '../../apiserver/api/machinery/cluster-clock.js';
import type { FaultInjector } from '../../apiserver/faults/index.js';
import type { ResetResult } from '../../apiserver/kubesim/cluster-control.js';
import type { SettleOptions, SettleResult } from '../../apiserver/kubesim/settle.js';
import type { RunningApiServer } from '../../apiserver/start-api-server.js';
import type { RestoreResult, StoreSnapshot } from '../../store/index.js';

export interface Cluster {
  /** The API server's URL (https://127.0.0.1:<port>; http:// with `insecure`). */
  readonly url: string;
  /** A kubeconfig for the cluster, as YAML text (the cluster CA and a kubernetes-admin client
   * certificate, inline)… */
  readonly kubeconfig: string;
  /** …and as a file (for kubectl --kubeconfig, KUBECONFIG, client libraries); removed on stop. */
  readonly kubeconfigPath: string;
  /** The cluster clock every component and every server timestamp follows: now(), advance(ms),
   * pause(), resume(), setSpeed(n). advance settles the cluster between due timers. */
  readonly clock: ClusterClock;
  /** Fault rules: add({ verbs, resource, userAgent, error: 409, count }) etc.; injected() lists what fired. */
  readonly faults: FaultInjector;
  /** Resolves when every loop is idle, no request is in flight and no write happened for a
   * quiet period; rejects with SettleTimeoutError naming what was still busy. */
  settle(options?: SettleOptions): Promise<SettleResult>;
  /** Back to the state the cluster had when startCluster resolved, or at the last
   * markBaseline() (fault rules are not cleared). */
  reset(): Promise<ResetResult>;
  /** Makes the current state the one reset() returns to (e.g. after installing your CRDs once). */
  markBaseline(): void;
  /** Counts a loop of your own in settle(): `activity` reports its queue (see LoopActivity);
   * returns a function that stops counting it. */
  track(name: string, activity: () => LoopActivity | LoopActivity[]): () => void;
  /** Every object in the store, as a JSON-serialisable value. */
  snapshot(): StoreSnapshot;
  /** Makes the store equal to `snapshot` (ordinary writes: watchers see the changes), then settles. */
  restore(snapshot: StoreSnapshot): Promise<RestoreResult>;
  /** Stops every loop and the server and removes the cluster's files. Idempotent. */
  stop(): Promise<void>;
  /** The in-process API server, for what the handles above do not cover. */
  readonly server: RunningApiServer;
}
