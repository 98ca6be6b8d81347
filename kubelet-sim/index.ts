/**
 * kubelet-sim — one process simulating many nodes: each registers a Node, heartbeats through
 * a Lease and node status, and runs the pods bound to it through the stage engine
 * (stages/: pod behaviour as data, a pure engine, golden tests), writing pod status through
 * pods/status as a kubelet does. It serves container logs, a resource usage report
 * (/stats/summary, scraped by the API server's metrics pipeline) and a small admin API
 * (/simulation) on its kubelet HTTP server. Per-pod behaviour comes from `kubesim.io/*`
 * annotations (behaviour.ts); usage from the usage model (usage.ts) and the load a workload
 * declares (workload-load.ts).
 *
 * May import: controllers/runtime/** and apiserver/api/** only (test/architecture.test.ts).
 * Docs: docs/kubelet-sim.md.
 */

export {
  BEHAVIOUR_ANNOTATIONS,
  BEHAVIOUR_PREFIX,
  DEFAULT_BEHAVIOUR,
  JOB_RUN_SECONDS,
  type ParsedBehaviour,
  type PodBehaviour,
  parseBehaviour,
} from './behaviour.js';
export { type KubeletOptions, type RunningKubelet, runKubelet, startKubelet } from './kubelet.js';
export { DEFAULT_HEARTBEAT_INTERVALS, type HeartbeatIntervals, NodeAgent, type NodeAgentSnapshot, type NodeAgentState } from './node-agent.js';
export {
  DEFAULT_CAPACITY,
  KUBELET_VERSION,
  NODE_LEASE_DURATION_SECONDS,
  NODE_LEASE_NAMESPACE,
  type NodeCapacity,
  type NodeConfig,
  ZONES,
} from './node-object.js';
export { DEFAULT_POD_STAGES } from './stages/default-pod-stages.js';
export { applyPlan, emptyMemory, evaluate, observe } from './stages/engine.js';
export { type SimulationOptions, type SimulationStep, simulate } from './stages/simulate.js';
export { parseStages, type Stage, StageSchema } from './stages/stage.js';
export type { NodeFacts, PodMemory, StageInput, StagePlan, StageResult } from './stages/types.js';
export { createStatsSummaries, type StatsNode, type StatsSummaries, type StatsSummaryOptions } from './stats-summary.js';
export { type ContainerUsage, IDLE_USAGE, NODE_OVERHEAD, nodeUsage, type PodUsageInput, podUsage, type Usage } from './usage.js';
export {
  isServing,
  LOAD_CPU_ANNOTATION,
  LOAD_MEMORY_ANNOTATION,
  type LoadShares,
  loadShares,
  type OwnerLookup,
  ownerLookupFrom,
  type ParsedLoad,
  parseLoad,
  workloadOf,
} from './workload-load.js';
