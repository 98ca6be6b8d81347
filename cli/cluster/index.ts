/**
 * kubesim's embeddable test API: `import { startCluster } from 'kubesim'`. See
 * docs/testing-controllers.md.
 */
export { startCluster } from './start-cluster.js';
export type { Cluster } from './cluster.js';
export type { StartClusterOptions, ClockOption } from './options.js';
export { SettleTimeoutError, type SettleOptions, type SettleResult } from '../../apiserver/kubesim/settle.js';
export type { LoopActivity } from '../../apiserver/api/machinery/activity.js';
export type { ResetResult } from '../../apiserver/kubesim/cluster-control.js';
export type { ClusterClock, ClockState } from '../../apiserver/api/machinery/cluster-clock.js';
export type { StoreSnapshot, RestoreResult } from '../../store/index.js';
export { CONTROLLER_NAMES, type ControllerName } from '../../controllers/catalog.js';
