/** `kubesim kubelet`: run kubelet-sim as this process — N simulated nodes against the cluster
 * in a kubeconfig. `kubesim up` starts one; start more (with another --node-prefix or
 * --start-index) to add nodes. See docs/kubelet-sim.md. */
import { resolve } from 'node:path';
import { readClusterCa } from '../../apiserver/api/pki/cluster-ca.js';
import { parseQuantity } from '../../apiserver/api/quantity.js';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { LOG_LEVELS, type LogLevel } from '../../controllers/runtime/logger.js';
import { startKubelet } from '../../kubelet-sim/kubelet.js';
import { nodeCredentials } from '../../kubelet-sim/node-credentials.js';
import { DEFAULT_CAPACITY } from '../../kubelet-sim/node-object.js';
import { reportLoops, reportName } from '../activity.js';
import { type FlagSpec, formatFlagHelp, kubeconfigFlag, parseFlags, UsageError } from '../args.js';
import { clusterCaFromFlags } from '../cluster-signing-flags.js';
import { componentClock, componentClockFlags } from '../component-clock.js';
import { IpcPeer } from '../ipc.js';
import { metricsFlags, serveMetrics } from '../metrics-endpoint.js';
import { randomFromFlags, seedFlags } from '../seed.js';
import { serverFlags, withServerFlag } from '../server-flag.js';
import { untilSignal } from '../signals.js';

const LEVEL_NAMES = Object.keys(LOG_LEVELS);

export const kubeletFlags: Record<string, FlagSpec> = {
  kubeconfig: kubeconfigFlag,
  ...serverFlags,
  nodes: { type: 'number', description: 'number of nodes this process simulates', default: 3 },
  'node-prefix': { type: 'string', description: 'nodes are named <prefix><index>', default: 'node-' },
  'start-index': {
    type: 'number',
    description:
      'index of the first node (name, zone and pod CIDR 10.244.<index>.0/24): processes sharing a cluster need disjoint ranges, whatever their prefixes',
    default: 1,
  },
  cpu: { type: 'string', description: 'CPU capacity of each node', default: DEFAULT_CAPACITY.cpu },
  memory: { type: 'string', description: 'memory capacity of each node', default: DEFAULT_CAPACITY.memory },
  pods: { type: 'string', description: 'pod capacity of each node', default: DEFAULT_CAPACITY.pods },
  'ephemeral-storage': { type: 'string', description: 'ephemeral-storage capacity of each node', default: DEFAULT_CAPACITY.ephemeralStorage },
  port: { type: 'number', description: 'port of the kubelet server (logs, /simulation); 0 picks a free one', default: 0 },
  'cluster-signing-cert-file': {
    type: 'string',
    description: 'the cluster CA certificate (PEM): each node gets a system:node:<name> client certificate from it',
  },
  'cluster-signing-key-file': { type: 'string', description: "the cluster CA private key (PEM), to sign the nodes' client certificates" },
  ...componentClockFlags,
  ...seedFlags,
  ...metricsFlags,
  'log-level': { type: 'string', description: `one of ${LEVEL_NAMES.join(', ')}`, default: 'info' },
  help: { type: 'boolean', description: 'show this help' },
};

const usage = `Usage: kubesim kubelet [flags]\n\nSimulates nodes: registers them, heartbeats, and runs the pods bound to them.\n\nFlags:\n${formatFlagHelp(kubeletFlags)}`;

function quantityFlag(flags: Record<string, unknown>, name: string): string {
  const text = String(flags[name]);
  try {
    parseQuantity(text);
  } catch {
    throw new UsageError(`--${name} needs a quantity such as 4, 500m or 16Gi, got ${JSON.stringify(text)}`);
  }
  return text;
}

function positiveInteger(flags: Record<string, unknown>, name: string, minimum: number): number {
  const value = Number(flags[name]);
  if (!Number.isInteger(value) || value < minimum) throw new UsageError(`--${name} must be an integer ≥ ${minimum}`);
  return value;
}

/** nonDefaultRange names this process's node range (`<prefix><start index>`) unless it is the
 * default one, `kubesim up`'s kubelet: another range is one of several kubelet processes. */
function nonDefaultRange(flags: Record<string, unknown>): string | undefined {
  const range = `${String(flags['node-prefix'])}${String(flags['start-index'])}`;
  return range === `${kubeletFlags['node-prefix']!.default}${kubeletFlags['start-index']!.default}` ? undefined : range;
}

/** kubelet runs `kubesim kubelet` until SIGINT/SIGTERM. */
export async function kubelet(argv: string[]): Promise<void> {
  const { flags } = parseFlags(argv, kubeletFlags);
  if (flags['help']) {
    console.log(usage);
    return;
  }
  const level = String(flags['log-level']);
  if (!LEVEL_NAMES.includes(level)) throw new UsageError(`--log-level must be one of ${LEVEL_NAMES.join(', ')}`);
  // Each kubelet process (prefix, first index) draws its own stream.
  const random = randomFromFlags(flags, `kubelet/${String(flags['node-prefix'])}${String(flags['start-index'])}`);
  const capacity = {
    cpu: quantityFlag(flags, 'cpu'),
    memory: quantityFlag(flags, 'memory'),
    pods: quantityFlag(flags, 'pods'),
    ephemeralStorage: quantityFlag(flags, 'ephemeral-storage'),
  };
  const target = withServerFlag(flags, loadKubeconfig(resolve(String(flags['kubeconfig']))));
  const extraRange = nonDefaultRange(flags);
  const caFiles = clusterCaFromFlags(flags);
  const stop = untilSignal();
  const clock = await componentClock(flags, target, stop.signal);
  await serveMetrics(flags, process.channel ? new IpcPeer(process) : undefined, stop.signal);
  const kubelet = await startKubelet({
    server: target.server,
    token: target.token,
    tls: target.tls,
    nodeTls: caFiles && nodeCredentials(readClusterCa(caFiles)),
    nodes: positiveInteger(flags, 'nodes', 1),
    nodePrefix: String(flags['node-prefix']),
    startIndex: positiveInteger(flags, 'start-index', 0),
    // `kubesim up`'s kubelet starts as before; a process of another range checks it clashes with none.
    checkPodCidrs: extraRange !== undefined,
    capacity,
    port: positiveInteger(flags, 'port', 0),
    clock,
    random,
    logLevel: level as LogLevel,
    signal: stop.signal,
  });
  reportLoops(target, reportName('kubelet', extraRange), () => kubelet.activity(), stop.signal);
  await kubelet.done;
}
