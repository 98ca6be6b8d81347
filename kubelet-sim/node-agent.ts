/**
 * NodeAgent: one simulated node's own loops — registration and heartbeats — as a kubelet
 * runs them. Pods bound to the node are run by the process's pod workers (pod-workers.ts),
 * which ask the agent whether the node is powered on and for its pod IPs.
 *
 *            start()          registered
 *   Stopped ────────► Registering ────────► Running
 *      ▲                                       │
 *      └──────────── stop() / shutdown ────────┘
 *
 * While Running: the Lease in kube-node-lease is renewed every leaseRenewMs; the Node's
 * status is checked every statusUpdateMs and written when it differs from what the kubelet
 * would report, or when statusReportMs passed since the last report (the heartbeat). A
 * stopped node does none of this and its pods get no status updates, as if it lost power
 * or network; start() registers again and resyncs its pods.
 */
import { isAlreadyExists, isNotFound } from '../apiserver/api/api-error.js';

import type { Lease } from '../apiserver/api/coordination/lease.js';
import type { Node } from '../apiserver/api/core/node.js';
import { deepEqual } from '../apiserver/api/deep-equal.js';
import { runWithCause } from '../apiserver/api/machinery/cause.js';
import { createRandom, type Random } from '../apiserver/api/machinery/random.js';
import { rfc3339 } from '../apiserver/api/machinery/time.js';
import { signalActivity } from '../controllers/runtime/activity-signal.js';
import type { KubeClient } from '../controllers/runtime/client/http-client.js';
import type { HttpEventRecorder } from '../controllers/runtime/event-recorder.js';
import { KINDS } from '../controllers/runtime/kinds.js';
import type { Clock, Logger, ResourceClient } from '../controllers/runtime/types.js';
import {
  isStatusCurrent,
  NODE_LEASE_NAMESPACE,
  type NodeCapacity,
  type NodeConfig,
  newNode,
  nodeLabels,
  nodeLease,
  nodeStatus,
  podCidrOf,
} from './node-object.js';
import { PodIpAllocator } from './pod-ip-allocator.js';

/** HeartbeatIntervals are the kubelet's defaults, in cluster time (so they scale with speed). */
export interface HeartbeatIntervals {
  leaseRenewMs: number;
  statusUpdateMs: number;
  statusReportMs: number;
  /** Wait before retrying a failed registration or renewal. */
  retryMs: number;
}

export const DEFAULT_HEARTBEAT_INTERVALS: Readonly<HeartbeatIntervals> = Object.freeze({
  leaseRenewMs: 10_000,
  statusUpdateMs: 10_000,
  statusReportMs: 60_000,
  retryMs: 1_000,
});

export type NodeAgentState = 'Stopped' | 'Registering' | 'Running';

/** NodeAgentSnapshot is what `GET /simulation/nodes` reports per node. */
export interface NodeAgentSnapshot {
  name: string;
  state: NodeAgentState;
  podCIDR: string;
  pods: number;
  lastLeaseRenewal?: string;
  lastStatusReport?: string;
}

/** NodeAgentOptions configures a NodeAgent. */
export interface NodeAgentOptions {
  config: NodeConfig;
  client: KubeClient;
  clock: Clock;
  logger: Logger;
  /** Records Events about this node's pods (source.host = the node). */
  recorder?: HttpEventRecorder;
  intervals?: Partial<HeartbeatIntervals>;
  /** Called each time the node (re)enters Running, so its pods are looked at again. */
  onRunning(nodeName: string): void;
  /** Source of the heartbeat writes' reconcile ids; the platform's when absent. */
  random?: Random;
}

export class NodeAgent {
  readonly name: string;
  readonly hostIP: string;
  readonly ips: PodIpAllocator;
  readonly recorder: HttpEventRecorder | undefined;
  readonly capacity: NodeCapacity;
  private readonly nodes: ResourceClient<Node>;
  private readonly leases: ResourceClient<Lease>;
  private readonly intervals: HeartbeatIntervals;
  private readonly random: Random;
  private readonly logger: Logger;
  private state: NodeAgentState = 'Stopped';
  private writesInFlight = 0;
  private power: AbortController | undefined;
  private loops: Promise<void> = Promise.resolve();
  private node: Node | undefined;
  private lease: Lease | undefined;
  private lastLeaseRenewalMs: number | undefined;
  private lastStatusReportMs: number | undefined;

  constructor(private readonly options: NodeAgentOptions) {
    this.name = options.config.name;
    this.hostIP = options.config.hostIP;
    this.ips = new PodIpAllocator(options.config.index);
    this.recorder = options.recorder;
    this.capacity = options.config.capacity;
    this.nodes = options.client.resource(KINDS.node);
    this.leases = options.client.resource(KINDS.lease);
    this.intervals = { ...DEFAULT_HEARTBEAT_INTERVALS, ...options.intervals };
    this.random = options.random ?? createRandom();
    this.logger = options.logger.child({ node: this.name });
  }

  /** isPoweredOn: the node runs (or is registering); its pods may be updated. */
  isPoweredOn(): boolean {
    return this.state !== 'Stopped';
  }

  /** start powers the node on (no-op when on); the loops stop when `parent` aborts or stop(). */
  start(parent: AbortSignal): void {
    if (this.power || parent.aborted) return;
    const power = (this.power = new AbortController());
    const onParentAbort = () => power.abort();
    parent.addEventListener('abort', onParentAbort, { once: true });
    this.state = 'Registering';
    this.loops = this.run(power.signal).finally(() => {
      parent.removeEventListener('abort', onParentAbort);
      if (this.power !== power) return;
      this.power = undefined;
      this.state = 'Stopped';
    });
  }

  /** stop powers the node off and resolves once its loops have ended. */
  async stop(): Promise<void> {
    this.power?.abort();
    await this.loops;
    await this.recorder?.flush();
  }

  snapshot(): NodeAgentSnapshot {
    const snapshot: NodeAgentSnapshot = { name: this.name, state: this.state, podCIDR: podCidrOf(this.options.config), pods: this.ips.size };
    if (this.lastLeaseRenewalMs !== undefined) snapshot.lastLeaseRenewal = rfc3339(this.lastLeaseRenewalMs);
    if (this.lastStatusReportMs !== undefined) snapshot.lastStatusReport = rfc3339(this.lastStatusReportMs);
    return snapshot;
  }

  private async run(signal: AbortSignal): Promise<void> {
    if (!(await this.retryUntil(signal, () => this.register(), 'registration failed'))) return;
    this.state = 'Running';
    this.logger.info({ uid: this.node?.metadata.uid }, 'node registered');
    this.options.onRunning(this.name);
    await Promise.all([
      this.every(signal, this.intervals.leaseRenewMs, () => this.renewLease()),
      this.every(signal, this.intervals.statusUpdateMs, () => this.syncStatus()),
    ]);
  }

  /** every runs `tick` now and then every periodMs (retryMs after a failure) until abort. */
  private async every(signal: AbortSignal, periodMs: number, tick: () => Promise<void>): Promise<void> {
    while (!signal.aborted) {
      const ok = await this.attempt(tick, 'heartbeat failed');
      if (!(await this.pause(ok ? periodMs : Math.min(periodMs, this.intervals.retryMs), signal))) return;
    }
  }

  private async retryUntil(signal: AbortSignal, action: () => Promise<void>, what: string): Promise<boolean> {
    while (!signal.aborted) {
      if (await this.attempt(action, what)) return true;
      if (!(await this.pause(this.intervals.retryMs, signal))) return false;
    }
    return false;
  }

  /** attempt runs `action`; a failure is logged (the loop retries) and reported as false. Its
   * writes carry the cause `kubelet/<node>`, key = the node, trigger = heartbeat. */
  private async attempt(action: () => Promise<void>, what: string): Promise<boolean> {
    this.writesInFlight++;
    signalActivity();
    try {
      return await this.attemptOnce(action, what);
    } finally {
      this.writesInFlight--;
    }
  }

  /** busy tells whether the agent is registering or has a heartbeat write under way (settle). */
  busy(): boolean {
    return this.state === 'Registering' || this.writesInFlight > 0;
  }

  private async attemptOnce(action: () => Promise<void>, what: string): Promise<boolean> {
    const cause = { controller: `kubelet/${this.name}`, key: this.name, reconcileId: this.random.hex(4), trigger: { kind: 'heartbeat' as const } };
    try {
      await runWithCause(cause, action);
      return true;
    } catch (err) {
      this.logger.warn({ err }, what);
      return false;
    }
  }

  private async pause(delayMs: number, signal: AbortSignal): Promise<boolean> {
    try {
      await this.options.clock.sleep(delayMs, signal);
      return true;
    } catch (err) {
      if (signal.aborted) return false;
      throw err;
    }
  }

  /** register creates the Node, or (a restart) brings an existing one up to date. */
  private async register(): Promise<void> {
    const { config, clock } = this.options;
    try {
      this.node = await this.nodes.create(newNode(config, clock.now()));
      this.lastStatusReportMs = clock.now();
      return;
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
    let node = await this.nodes.get('', this.name);
    const labels = { ...node.metadata.labels, ...nodeLabels(config) };
    const podCIDR = node.spec?.podCIDR ?? podCidrOf(config);
    if (!deepEqual(labels, node.metadata.labels) || node.spec?.podCIDR !== podCIDR) {
      node = await this.nodes.update({ ...node, metadata: { ...node.metadata, labels }, spec: { ...node.spec, podCIDR, podCIDRs: [podCIDR] } });
    }
    this.node = await this.nodes.updateStatus({ ...node, status: nodeStatus(config, node.status, clock.now()) });
    this.lastStatusReportMs = clock.now();
  }

  /** renewLease updates the cached Lease (creating it when missing); any failure drops the
   * cache so the next attempt starts from a fresh read. */
  private async renewLease(): Promise<void> {
    const nowMs = this.options.clock.now();
    const node = this.node;
    if (!node) return;
    try {
      this.lease ??= await this.leases.get(NODE_LEASE_NAMESPACE, this.name).catch((err: unknown) => {
        if (isNotFound(err)) return undefined;
        throw err;
      });
      const renewed = nodeLease(node, nowMs, this.lease);
      this.lease = this.lease ? await this.leases.update(renewed) : await this.leases.create(renewed);
      this.lastLeaseRenewalMs = nowMs;
    } catch (err) {
      this.lease = undefined;
      throw err;
    }
  }

  /** syncStatus writes the node status when it changed or the report period passed; a Node
   * deleted behind our back is registered again. */
  private async syncStatus(): Promise<void> {
    const { config, clock } = this.options;
    const nowMs = clock.now();
    let node: Node;
    try {
      node = await this.nodes.get('', this.name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      this.logger.warn({}, 'node object is gone; registering again');
      return this.register();
    }
    const desired = nodeStatus(config, node.status, nowMs);
    const due = this.lastStatusReportMs === undefined || nowMs - this.lastStatusReportMs >= this.intervals.statusReportMs;
    if (!due && isStatusCurrent(node.status, desired)) return;
    this.node = await this.nodes.updateStatus({ ...node, status: desired });
    this.lastStatusReportMs = nowMs;
  }
}
