/**
 * kubelet-sim — one process simulating many nodes: each registers a Node, heartbeats through
 * a Lease and node status, and runs the pods bound to it through the stage engine
 * (stages/: pod behaviour as data, a pure engine, golden tests), writing pod status through
 * pods/status as a kubelet does. It serves container logs and a small admin API
 * (/simulation) on its kubelet HTTP server. Per-pod behaviour comes from `kubesim.io/*`
 * annotations (behaviour.ts).
 *
 * May import: controllers/runtime/** and apiserver/api/** only (test/architecture.test.ts).
 * Docs: docs/kubelet-sim.md.
 */
export { runKubelet, startKubelet } from './kubelet.js';
export { parseBehaviour, DEFAULT_BEHAVIOUR, BEHAVIOUR_ANNOTATIONS, BEHAVIOUR_PREFIX, JOB_RUN_SECONDS } from './behaviour.js';
export { NodeAgent, DEFAULT_HEARTBEAT_INTERVALS } from './node-agent.js';
export { DEFAULT_CAPACITY, KUBELET_VERSION, NODE_LEASE_NAMESPACE, NODE_LEASE_DURATION_SECONDS, ZONES } from './node-object.js';
export { applyPlan, evaluate, emptyMemory, observe } from './stages/engine.js';
export { DEFAULT_POD_STAGES } from './stages/default-pod-stages.js';
export { parseStages, StageSchema } from './stages/stage.js';
export { simulate } from './stages/simulate.js';
//# sourceMappingURL=index.js.map