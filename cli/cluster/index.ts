/**
 * kubesim's embeddable test API: `import { startCluster } from 'kubesim'`. See
 * docs/testing-controllers.md.
 */

export type { LoopActivity } from '../../apiserver/api/machinery/activity.js';
export type { ClockState, ClusterClock } from '../../apiserver/api/machinery/cluster-clock.js';
export type { ResetResult } from '../../apiserver/kubesim/cluster-control.js';
export { type SettleOptions, type SettleResult, SettleTimeoutError } from '../../apiserver/kubesim/settle.js';
export { CONTROLLER_NAMES, type ControllerName } from '../../controllers/catalog.js';
export type { RestoreResult, StoreSnapshot } from '../../store/index.js';
export type { Cluster } from './cluster.js';
export type { ClockOption, StartClusterOptions } from './options.js';
export { startCluster } from './start-cluster.js';
