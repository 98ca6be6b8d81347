/**
 * One kubelet-sim process: N simulated nodes sharing one pod informer (indexed by node
 * name), one pod controller running the pod workers, one log store and one kubelet HTTP
 * server (logs, usage report, admin API). ReplicaSet and Deployment informers let the usage
 * report follow a pod to its workload's load (workload-load.ts).
 *
 *   start: listen ─► informer synced ─► pod workers running ─► nodes register ─► resolve
 *   signal aborts: nodes stop heartbeating ─► workers and informer stop ─► server closes ─► done
 */
import { setMaxListeners } from 'node:events';
import type { Deployment } from '../apiserver/api/apps/deployment.js';
import type { ReplicaSet } from '../apiserver/api/apps/replica-set.js';
import type { Pod } from '../apiserver/api/core/pod.js';
import type { LoopActivity } from '../apiserver/api/machinery/activity.js';
import { createRealClock, isAbortError } from '../apiserver/api/machinery/clock.js';
import { createRandom, type Random } from '../apiserver/api/machinery/random.js';
import type { KubeObject } from '../apiserver/api/resource-definition.js';
import { createKubeClient, type KubeClient } from '../controllers/runtime/client/http-client.js';
import type { ClientTls } from '../controllers/runtime/client/http-transport.js';
import { type Controller, createController } from '../controllers/runtime/controller.js';
import { createEventRecorder } from '../controllers/runtime/event-recorder.js';
import { indexByNodeName, NODE_NAME_INDEX } from '../controllers/runtime/indexers.js';
import { createInformer } from '../controllers/runtime/informer.js';
import { KINDS } from '../controllers/runtime/kinds.js';
import { createLogger, type LogLevel } from '../controllers/runtime/logger.js';
import { keyOf } from '../controllers/runtime/reconciler.js';
import type { Clock, DeepReadonly, Informer, Logger, ResourceClient } from '../controllers/runtime/types.js';
import { type SimulatedNode, startKubeletServer } from './kubelet-server.js';
import { ContainerLogStore } from './logs/container-log-store.js';
import { createMainProcesses } from './main-process/main-processes.js';
import { createKubeletNetwork } from './network/kubelet-network.js';
import { type HeartbeatIntervals, NodeAgent } from './node-agent.js';
import { DEFAULT_CAPACITY, type NodeCapacity } from './node-object.js';
import { assertPodCidrsFree } from './pod-cidr.js';
import { createPodWorkers } from './pod-workers.js';
import { createProber, type Prober } from './probes/prober.js';
import type { Stage } from './stages/stage.js';
import { createStatsSummaries } from './stats-summary.js';
import { createClusterReader } from './streaming/cluster-reader.js';
import { createPodUserlands, type PodUserlands } from './streaming/pod-userlands.js';
import type { UserlandFactory } from './userland/contract.js';
import { ownerLookupFrom } from './workload-load.js';

/** KubeletOptions configures startKubelet / runKubelet. */
export interface KubeletOptions {
  server: string;
  token?: string;
  /** The CA and client certificate of an https server (KubeconfigTarget.tls). */
  tls?: ClientTls;
  /** Each node's own credentials (a system:node:<name> certificate), made before the nodes
   * start: a node then registers, heartbeats and writes its pods' status as itself, over an
   * HTTPS agent of its own; the shared pod cache keeps `tls`. Every node uses `tls` when absent. */
  nodeTls?: (nodeName: string) => Promise<ClientTls>;
  /** Number of nodes this process simulates. Default 3. */
  nodes?: number;
  /** Nodes are named <nodePrefix><index>. Default `node-`. */
  nodePrefix?: string;
  /** Index of the first node (picks names, zones and pod CIDRs). Default 1. */
  startIndex?: number;
  /** Refuse to start when another node already holds a pod CIDR of ours (pod-cidr.ts): set
   * by `kubesim kubelet`, where other processes may simulate nodes of the same cluster. */
  checkPodCidrs?: boolean;
  capacity?: Partial<NodeCapacity>;
  /** Address the kubelet server listens on and nodes report as InternalIP. Default 127.0.0.1. */
  host?: string;
  /** Kubelet server port; 0 (default) picks a free one. */
  port?: number;
  clock?: Clock;
  /** This process's randomness (seeded for a deterministic cluster); the platform's when absent. */
  random?: Random;
  logger?: Logger;
  logLevel?: LogLevel;
  intervals?: Partial<HeartbeatIntervals>;
  /** Record core/v1 Events (Pulled, Started, BackOff, Killing, ...). Default true. */
  recordEvents?: boolean;
  stages?: readonly Stage[];
  /** Concurrent pod workers. Default defaultPodWorkers(nodes). */
  workers?: number;
  /** Builds the simulated userland exec, attach and port-forward reach; kubesim's own
   * (kubelet-sim/userland/, one per kubelet process) when absent. */
  userland?: UserlandFactory;
  signal: AbortSignal;
}

/** RunningKubelet is a started kubelet-sim process. */
export interface RunningKubelet {
  /** Base URL of the kubelet server (containerLogs, /simulation). */
  readonly url: string;
  readonly port: number;
  readonly nodeNames: readonly string[];
  /** Resolves once everything stopped after the signal aborted. */
  readonly done: Promise<void>;
  /** The pod workers' queue (delayed keys are stage transitions still to come) and the node
   * agents (registering, or a heartbeat write under way). */
  activity(): LoopActivity[];
}

/** KubeletCore is the shared machinery of one kubelet-sim process. */
interface KubeletCore {
  clock: Clock;
  random: Random;
  logger: Logger;
  client: KubeClient;
  informer: Informer<Pod>;
  /** The pod informer plus the owners' (ReplicaSets, Deployments); started and synced together. */
  informers: Informer<KubeObject>[];
  owners: { replicaSets: Informer<ReplicaSet>; deployments: Informer<Deployment> };
  agents: Map<string, NodeAgent>;
  logs: ContainerLogStore;
  /** Each node's client: its own with nodeTls, else `client`. */
  nodeClients: Map<string, KubeClient>;
}

/**
 * startKubelet starts the process's parts and resolves once the kubelet server listens,
 * the pod cache synced and every node began registering. It rejects (after cleaning up)
 * if the server cannot listen or the signal aborts first.
 */
export async function startKubelet(options: KubeletOptions): Promise<RunningKubelet> {
  const core = createCore(options);
  const { informer, informers, agents, logs, clock, logger, client } = core;
  const simulated = new Map<string, SimulatedNode>();
  const isLocalNode = (name: string) => agents.has(name);
  const cluster = createClusterReader(client);
  const network = createKubeletNetwork({ lister: informer.lister, isLocalNode, cluster, clock, userlands: () => userlands });
  const userlands = createPodUserlands({
    lister: informer.lister,
    informer,
    isLocalNode,
    factory: options.userland ?? { load: async () => (await import('./userland/index.js')).createUserlandFactory() },
    cluster,
    clock,
    network,
  });
  const server = await startKubeletServer({
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    logs: { lister: informer.lister, isLocalNode, logs, clock },
    streaming: { userlands, logger },
    nodes: simulated,
    stats: createStatsSummaries({ pods: informer.lister, owners: ownerLookupOf(core), nodes: agents, clock, logger }),
    logger,
  });
  const configs = nodeConfigs(options, options.host ?? '127.0.0.1', server.port);
  try {
    if (options.checkPodCidrs) await assertPodCidrsFree(client, configs);
    await createNodeClients(core, options, configs);
  } catch (err) {
    await server.close();
    client.close();
    throw err;
  }
  const prober = createProber({ lister: informer.lister, informer, isLocalNode, userlands, clock, logger, recorderFor: (node) => agents.get(node)?.recorder });
  options.signal.addEventListener('abort', () => prober.stop(), { once: true });
  const { controller, workers, onRunning } = createPodController(core, options, prober, userlands);
  for (const agent of createNodeAgents(core, options, configs, onRunning)) {
    agents.set(agent.name, agent);
    simulated.set(agent.name, { snapshot: () => agent.snapshot(), powerOn: () => agent.start(options.signal), powerOff: () => agent.stop() });
  }
  const parts = {
    running: runParts({ informers, controller, signal: options.signal, logger }),
    agents,
    server,
    clients: [client, ...core.nodeClients.values()],
    workers,
  };
  try {
    await Promise.all(informers.map((i) => i.waitForSync(options.signal)));
  } catch (err) {
    await shutdown(parts);
    throw err;
  }
  for (const agent of agents.values()) agent.start(options.signal);
  logger.info({ nodes: [...agents.keys()], url: server.url }, `kubelet listening on ${server.url}`);
  const done = aborted(options.signal).then(() => shutdown(parts));
  const activity = (): LoopActivity[] => {
    const busyAgents = [...agents.values()].filter((agent) => agent.busy()).length;
    return [
      { ...controller.activity(), delayedIsWork: true },
      { name: 'node-agents', queued: 0, active: busyAgents, delayed: 0 },
    ];
  };
  return { url: server.url, port: server.port, nodeNames: [...agents.keys()], done, activity };
}

function createCore(options: KubeletOptions): KubeletCore {
  const clock = options.clock ?? createRealClock();
  const random = options.random ?? createRandom();
  const logger = options.logger ?? createLogger({ component: 'kubelet', level: options.logLevel ?? 'info', clock });
  const client = createKubeClient({ server: options.server, token: options.token, tls: options.tls, userAgent: 'kubesim-kubelet/0.1', logger });
  // Every node agent and follow request listens on the process signal: many listeners is the design.
  setMaxListeners(0, options.signal);
  // One informer for the pods of all nodes, bound ones only (the kubelet never sees pending pods).
  const informer = createInformer<Pod>({
    client: client.resource(KINDS.pod),
    fieldSelector: 'spec.nodeName!=',
    resyncMs: 60_000,
    clock,
    logger,
    random: random.fork('informer:pods'),
  });
  informer.addIndexer(NODE_NAME_INDEX, indexByNodeName);
  const owners = {
    replicaSets: createInformer<ReplicaSet>({
      client: client.resource(KINDS.replicaSet),
      resyncMs: 0,
      clock,
      logger,
      random: random.fork('informer:replicasets'),
    }),
    deployments: createInformer<Deployment>({
      client: client.resource(KINDS.deployment),
      resyncMs: 0,
      clock,
      logger,
      random: random.fork('informer:deployments'),
    }),
  };
  const informers = [informer, owners.replicaSets, owners.deployments];
  return { clock, random, logger, client, informer, informers, owners, agents: new Map(), logs: new ContainerLogStore(), nodeClients: new Map() };
}

/** ownerLookupOf resolves the controller owners the usage report follows to a workload. */
function ownerLookupOf(core: KubeletCore) {
  return ownerLookupFrom({
    [`apps/v1/${KINDS.replicaSet.kind}`]: core.owners.replicaSets.lister,
    [`apps/v1/${KINDS.deployment.kind}`]: core.owners.deployments.lister,
  });
}

/** MAX_DEFAULT_POD_WORKERS bounds the default, and so the status writes in flight. */
const MAX_DEFAULT_POD_WORKERS = 64;

/** defaultPodWorkers is one worker per simulated node (each real node has its own kubelet
 * writing its pods' status), at least 8 and at most MAX_DEFAULT_POD_WORKERS. A reconcile
 * holds its worker for the status write's round trip, so with a fixed 8, 1,000 nodes got
 * 8 writes in flight: at 10,000 pods the kubelet, not the API server, set the pace. */
export function defaultPodWorkers(nodes: number): number {
  return Math.min(MAX_DEFAULT_POD_WORKERS, Math.max(8, nodes));
}

/** createPodController wires the pod workers: informer events for pods on our nodes (and a
 * node that comes back on) enqueue the pod's key. */
function createPodController(core: KubeletCore, options: KubeletOptions, prober: Prober, userlands: PodUserlands) {
  const { client, informer, agents, logs, clock, logger } = core;
  const enqueueKey = (pod: DeepReadonly<Pod>) => controller.queue.add(keyOf(pod));
  const mainProcesses = createMainProcesses({ userlands, logs, clock, logger, enqueue: enqueueKey, informer });
  const workers = createPodWorkers({
    pods: client.resource(KINDS.pod),
    podsOn: core.nodeClients.size > 0 ? podsOn(core) : undefined,
    lister: informer.lister,
    hosts: agents,
    logs,
    clock,
    logger,
    stages: options.stages,
    probes: prober,
    mainProcesses,
  });
  const controller = createController({
    name: 'kubelet-pods',
    reconciler: workers,
    workers: options.workers ?? defaultPodWorkers(options.nodes ?? DEFAULT_NODES),
    clock,
    logger,
    random: core.random.fork('kubelet-pods'),
  });
  const enqueue = (pod: DeepReadonly<Pod>) => {
    if (agents.has(pod.spec.nodeName ?? '')) controller.queue.add(keyOf(pod));
  };
  informer.addEventHandlers({ onAdd: enqueue, onUpdate: (_old, pod) => enqueue(pod), onDelete: enqueue });
  prober.onChange((key) => controller.queue.add(key));
  const onRunning = (nodeName: string) => informer.lister.byIndex(NODE_NAME_INDEX, nodeName).forEach(enqueue);
  return { controller, workers, onRunning };
}

/** podsOn is each node's pods client (its own credentials), made once per node. */
function podsOn(core: KubeletCore): (nodeName: string) => ResourceClient<Pod> {
  const byNode = new Map<string, ResourceClient<Pod>>();
  return (nodeName) => {
    let pods = byNode.get(nodeName);
    if (!pods) {
      pods = (core.nodeClients.get(nodeName) ?? core.client).resource(KINDS.pod);
      byNode.set(nodeName, pods);
    }
    return pods;
  };
}

/** createNodeClients gives each node a client with its own credentials, when nodeTls is set. */
async function createNodeClients(core: KubeletCore, options: KubeletOptions, configs: Array<{ name: string }>): Promise<void> {
  const { nodeTls } = options;
  if (!nodeTls) return;
  const credentials = await Promise.all(configs.map((config) => nodeTls(config.name)));
  configs.forEach((config, i) => {
    const client = createKubeClient({ server: options.server, tls: credentials[i], userAgent: 'kubesim-kubelet/0.1', logger: core.logger });
    core.nodeClients.set(config.name, client);
  });
}

function createNodeAgents(
  core: KubeletCore,
  options: KubeletOptions,
  configs: ReturnType<typeof nodeConfigs>,
  onRunning: (nodeName: string) => void,
): NodeAgent[] {
  const { clock, logger, random } = core;
  return configs.map((config) => {
    const client = core.nodeClients.get(config.name) ?? core.client;
    const recorder =
      options.recordEvents === false
        ? undefined
        : createEventRecorder({ client, component: 'kubelet', host: config.name, clock, logger, random: random.fork(`events:${config.name}`) });
    return new NodeAgent({ config, client, clock, logger, recorder, intervals: options.intervals, onRunning, random: random.fork(`node:${config.name}`) });
  });
}

/** runKubelet runs a kubelet-sim process until `signal` aborts (see startKubelet). */
export async function runKubelet(options: KubeletOptions): Promise<void> {
  const kubelet = await startKubelet(options);
  await kubelet.done;
}

/** DEFAULT_NODES is how many nodes a kubelet-sim process simulates unless told. */
const DEFAULT_NODES = 3;

/** nodeConfigs names and sizes the nodes: <prefix><startIndex>, <prefix><startIndex+1>, ... */
function nodeConfigs(options: KubeletOptions, hostIP: string, kubeletPort: number) {
  const count = options.nodes ?? DEFAULT_NODES;
  const first = options.startIndex ?? 1;
  const capacity = { ...DEFAULT_CAPACITY, ...options.capacity };
  return Array.from({ length: count }, (_, i) => ({ name: `${options.nodePrefix ?? 'node-'}${first + i}`, index: first + i, capacity, hostIP, kubeletPort }));
}

function runParts(parts: { informers: Informer<KubeObject>[]; controller: Controller; signal: AbortSignal; logger: Logger }): Promise<void> {
  const quietly = (what: string) => (err: unknown) => {
    if (!isAbortError(err)) parts.logger.error({ err }, `${what} stopped with an error`);
  };
  const informers = parts.informers.map((informer) => informer.start(parts.signal).catch(quietly('informer')));
  return Promise.all([...informers, parts.controller.start(parts.signal).catch(quietly('pod workers'))]).then(() => undefined);
}

async function shutdown(parts: {
  running: Promise<void>;
  agents: Map<string, NodeAgent>;
  server: { close(): Promise<void> };
  clients: KubeClient[];
  workers: { forgetAll(): void };
}): Promise<void> {
  await Promise.all([...parts.agents.values()].map((agent) => agent.stop()));
  await parts.running;
  parts.workers.forgetAll();
  await parts.server.close();
  for (const client of parts.clients) client.close();
}

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
