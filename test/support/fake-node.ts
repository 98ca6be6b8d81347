/**
 * A stand-in for one kubelet-sim node in integration tests: it registers a Ready Node and its
 * heartbeat Lease in kube-node-lease, renews the Lease every `renewMs` of cluster time, and
 * lets the test silence it (`stop`) and bring it back (`resume`: Ready=True again, renewals
 * resume) — the kubelet side of the node lifecycle drill, without pods or an admin API.
 */
import { isConflict } from '../../apiserver/api/api-error.js';
import { type Lease, leaseDefinition } from '../../apiserver/api/coordination/lease.js';
import { type Node, type NodeCondition, nodeDefinition } from '../../apiserver/api/core/node.js';
import { isAbortError } from '../../apiserver/api/machinery/clock.js';
import { rfc3339, rfc3339Micro } from '../../apiserver/api/machinery/time.js';
import type { KubeClient } from '../../controllers/runtime/client/http-client.js';
import type { Clock } from '../../controllers/runtime/types.js';

/** FakeNodeOptions configure startFakeNode. */
export interface FakeNodeOptions {
  client: KubeClient;
  clock: Clock;
  name: string;
  /** Lease renewal period in cluster ms. Default 10 s, as the kubelet. */
  renewMs?: number;
  /** status.daemonEndpoints.kubeletEndpoint.Port (address 127.0.0.1). Default 10250. */
  kubeletPort?: number;
}

/** FakeNode is one simulated node's kubelet, as far as heartbeats go. */
export interface FakeNode {
  readonly name: string;
  /** Cluster time of the last Lease renewal that reached the server. */
  readonly lastRenewMs: number;
  /** Stops renewing the Lease (the kubelet fell silent); resolves once the loop has ended. */
  stop(): Promise<void>;
  /** Posts Ready=True with a fresh heartbeat and renews the Lease again. */
  resume(): Promise<void>;
  /** Stops for good (call before the cluster stops). */
  close(): Promise<void>;
}

/** startFakeNode creates the Node and its Lease and starts renewing. */
export async function startFakeNode(options: FakeNodeOptions): Promise<FakeNode> {
  const { client, clock, name } = options;
  const nodes = client.resource(nodeDefinition);
  const leases = client.resource(leaseDefinition);
  await nodes.create(nodeManifest(name, clock.now(), options.kubeletPort ?? 10250));
  let lastRenewMs = clock.now();
  await leases.create(leaseManifest(name, lastRenewMs));
  const renew = async () => {
    const lease = await leases.get('kube-node-lease', name);
    const nowMs = clock.now();
    lease.spec = { ...lease.spec, renewTime: rfc3339Micro(nowMs) };
    try {
      await leases.update(lease);
      lastRenewMs = nowMs;
    } catch (err) {
      // Somebody else wrote the Lease in between: the next period renews it.
      if (!isConflict(err)) throw err;
    }
  };
  let loop: { abort: AbortController; done: Promise<void> } | undefined;
  const start = () => {
    const abort = new AbortController();
    loop = { abort, done: renewLoop(clock, options.renewMs ?? 10_000, abort.signal, renew) };
  };
  const stop = async () => {
    loop?.abort.abort();
    await loop?.done;
    loop = undefined;
  };
  start();
  return {
    name,
    get lastRenewMs() {
      return lastRenewMs;
    },
    stop,
    async resume() {
      await stop();
      await reportReady(client, name, clock.now());
      await renew();
      start();
    },
    close: stop,
  };
}

async function renewLoop(clock: Clock, renewMs: number, signal: AbortSignal, renew: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      await clock.sleep(renewMs, signal);
    } catch (err) {
      if (isAbortError(err)) return;
      throw err;
    }
    await renew();
  }
}

/** reportReady writes the kubelet's conditions as a freshly started kubelet does (retrying a
 * 409 against the node lifecycle controller's own status writes). */
async function reportReady(client: KubeClient, name: string, nowMs: number): Promise<void> {
  const nodes = client.resource(nodeDefinition);
  for (;;) {
    const node = await nodes.get('', name);
    node.status = { ...node.status, conditions: kubeletConditions(nowMs) };
    try {
      await nodes.updateStatus(node);
      return;
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
  }
}

function kubeletConditions(nowMs: number): NodeCondition[] {
  const at = rfc3339(nowMs);
  const condition = (type: string, status: 'True' | 'False', reason: string): NodeCondition => ({
    type,
    status,
    reason,
    lastHeartbeatTime: at,
    lastTransitionTime: at,
  });
  return [
    condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory'),
    condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure'),
    condition('PIDPressure', 'False', 'KubeletHasSufficientPID'),
    condition('Ready', 'True', 'KubeletReady'),
  ];
}

function nodeManifest(name: string, nowMs: number, kubeletPort: number): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: {
      conditions: kubeletConditions(nowMs),
      addresses: [
        { type: 'InternalIP', address: '127.0.0.1' },
        { type: 'Hostname', address: name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: kubeletPort } },
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
    },
  };
}

function leaseManifest(name: string, nowMs: number): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'kube-node-lease' },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: rfc3339Micro(nowMs) },
  };
}
