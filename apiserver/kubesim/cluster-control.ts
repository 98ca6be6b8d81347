/**
 * ClusterControl is the API server's handle on the cluster as a whole, for tests and the
 * kubesim CLI: what every loop is doing (the activity board), whether the cluster has settled,
 * and — once the host captured the just-started state — reset to it.
 */
import type { FastifyInstance } from 'fastify';
import type { Store } from '../../store/index.js';
import { ActivityBoard } from './activity-board.js';
import { type InflightCounter, trackInflight } from './inflight.js';
import { busyParts, type SettleDeps, type SettleOptions, type SettleResult, settle } from './settle.js';

/** ResetResult counts what a reset changed and how long it took (wall ms). */
export interface ResetResult {
  created: number;
  updated: number;
  deleted: number;
  elapsedMs: number;
}

export interface ClusterControl {
  readonly board: ActivityBoard;
  readonly inflight: InflightCounter;
  settle(options?: SettleOptions): Promise<SettleResult>;
  /** What keeps the cluster from being quiet right now (empty when idle). */
  busy(): string[];
  /** Set by the host once it captured the just-started state (startCluster, kubesim up). */
  reset?: () => Promise<ResetResult>;
  /** Names the component processes that should be reporting activity (kubesim up's supervisor). */
  expectComponents(expected: () => string[]): void;
  /** Makes settle also wait for the other API servers on the same store (shared-cluster/). */
  consultPeers(peersBusy: () => Promise<string[]>): void;
}

export interface ClusterControlOptions {
  app: FastifyInstance;
  store: Store;
  clockRunning: () => boolean;
  watchHandoffs?: { readonly inTransit: number };
}

/** createClusterControl installs the in-flight counter on `app` and returns the handle. */
export function createClusterControl(options: ClusterControlOptions): ClusterControl {
  const deps: SettleDeps = {
    board: new ActivityBoard(),
    store: options.store,
    inflight: trackInflight(options.app),
    clockRunning: options.clockRunning,
    watchHandoffs: options.watchHandoffs,
  };
  return {
    board: deps.board,
    inflight: deps.inflight,
    settle: (settleOptions) => settle(deps, settleOptions),
    busy: () => busyParts(deps),
    expectComponents(expected) {
      deps.expected = expected;
    },
    consultPeers(peersBusy) {
      deps.peersBusy = peersBusy;
    },
  };
}
