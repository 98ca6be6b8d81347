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
export { runKubelet, startKubelet, type KubeletOptions, type RunningKubelet } from './kubelet.js';
export { parseBehaviour, DEFAULT_BEHAVIOUR, BEHAVIOUR_ANNOTATIONS, BEHAVIOUR_PREFIX, JOB_RUN_SECONDS, type PodBehaviour, type ParsedBehaviour } from './behaviour.js';
export { NodeAgent, DEFAULT_HEARTBEAT_INTERVALS, type HeartbeatIntervals, type NodeAgentSnapshot, type NodeAgentState } from './node-agent.js';
export { DEFAULT_CAPACITY, KUBELET_VERSION, NODE_LEASE_NAMESPACE, NODE_LEASE_DURATION_SECONDS, ZONES, type NodeCapacity, type NodeConfig } from './node-object.js';
export { applyPlan, evaluate, emptyMemory, observe } from './stages/engine.js';
export { DEFAULT_POD_STAGES } from './stages/default-pod-stages.js';
export { parseStages, StageSchema, type Stage } from './stages/stage.js';
export { simulate, type SimulationOptions, type SimulationStep } from './stages/simulate.js';
export type { NodeFacts, PodMemory, StageInput, StagePlan, StageResult } from './stages/types.js';
export { podUsage, nodeUsage, IDLE_USAGE, NODE_OVERHEAD, type Usage, type ContainerUsage, type PodUsageInput } from './usage.js';
export { LOAD_CPU_ANNOTATION, LOAD_MEMORY_ANNOTATION, loadShares, parseLoad, workloadOf, ownerLookupFrom, isServing, type OwnerLookup, type LoadShares, type ParsedLoad } from './workload-load.js';
export { createStatsSummaries, type StatsNode, type StatsSummaries, type StatsSummaryOptions } from './stats-summary.js';
