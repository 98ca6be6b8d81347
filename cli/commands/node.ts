/**
 * `kubesim node list|stop|start`: look at the simulated nodes and stop or resume one node's
 * kubelet (its heartbeats and pod status updates) through kubelet-sim's admin API — the
 * self-healing drill: stop a node and watch the node lifecycle controller mark it NotReady,
 * taint it and evict its pods, and the ReplicaSets replace them on the other nodes.
 *
 * The API server tells where a node's kubelet listens (its InternalIP and
 * status.daemonEndpoints.kubeletEndpoint.Port); the admin API is
 * `POST /simulation/nodes/{name}/stop|start` there.
 */
import { resolve } from 'node:path';
import { isNotFound } from '../../apiserver/api/api-error.js';
import { leaseDefinition } from '../../apiserver/api/coordination/lease.js';
import { type Node, nodeDefinition, nodeStatusCell } from '../../apiserver/api/core/node.js';
import { createKubeClient, type KubeClient } from '../../controllers/runtime/client/http-client.js';
import { isNetworkError } from '../../controllers/runtime/client/http-transport.js';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { type FlagSpec, formatFlagHelp, kubeconfigFlag, parseFlags, UsageError } from '../args.js';

export const nodeFlags: Record<string, FlagSpec> = {
  kubeconfig: kubeconfigFlag,
  help: { type: 'boolean', description: 'show this help' },
};

const usage = `Usage: kubesim node <list | stop <name> | start <name>> [flags]

  list          the nodes, their status, taints and kubelet endpoint
  stop <name>   stop the node's kubelet heartbeats and pod status updates (simulated failure)
  start <name>  resume them

Flags:
${formatFlagHelp(nodeFlags)}`;

/** How long the CLI waits for a kubelet's admin API (wall time: this is a network timeout). */
const KUBELET_TIMEOUT_MS = 5_000;

/** NodeAction is what `kubesim node stop|start` asks a node's kubelet to do. */
export type NodeAction = 'stop' | 'start';

/** node runs `kubesim node ...` (see usage); throws UsageError for bad arguments and Error
 * with a message that says what to do for everything else. */
export async function node(argv: string[]): Promise<void> {
  const { flags, positional } = parseFlags(argv, nodeFlags);
  const [action, name] = positional;
  if (flags['help'] || action === undefined) return void console.log(usage);
  const kubeconfig = String(flags['kubeconfig']);
  if (action === 'list') return void console.log(await listNodes(kubeconfig));
  if (action !== 'stop' && action !== 'start') throw new UsageError(`unknown action ${JSON.stringify(action)}\n\n${usage}`);
  if (!name) throw new UsageError(`usage: kubesim node ${action} <name>   (see \`kubesim node list\`)`);
  console.log(await setNodeKubelet({ kubeconfig, name, action }));
}

/** SetNodeKubeletOptions name the node and what its kubelet should do. */
export interface SetNodeKubeletOptions {
  kubeconfig: string;
  name: string;
  action: NodeAction;
}

/**
 * setNodeKubelet stops or resumes the kubelet of node `name` and returns a line describing
 * the result. Throws an Error saying what is wrong: the cluster is unreachable, the node does
 * not exist or has no kubelet endpoint, the kubelet cannot be reached, or it refused.
 */
export async function setNodeKubelet({ kubeconfig, name, action }: SetNodeKubeletOptions): Promise<string> {
  const endpoint = await withClient(kubeconfig, async (client) => kubeletEndpoint(await getNode(client, name)));
  const url = `http://${endpoint}/simulation/nodes/${encodeURIComponent(name)}/${action}`;
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', signal: AbortSignal.timeout(KUBELET_TIMEOUT_MS) });
  } catch {
    throw new Error(`cannot reach the kubelet of ${name} at ${endpoint}: is its kubelet process running?`);
  }
  if (!response.ok) throw new Error(`the kubelet of ${name} refused to ${action}: ${await errorText(response)}`);
  return action === 'stop'
    ? `node/${name} stopped: no more heartbeats or pod status updates (the node turns NotReady after the grace period, 40 s of cluster time by default)`
    : `node/${name} started: heartbeats and pod status updates resumed`;
}

/** listNodes returns the node table: name, status, taints, kubelet endpoint, last heartbeat
 * (the Lease's renewTime; the CLI does not know the cluster clock, so no age). */
export async function listNodes(kubeconfig: string): Promise<string> {
  return withClient(kubeconfig, async (client) => {
    const nodes = (await client.resource(nodeDefinition).list()).items;
    const leases = (await client.resource(leaseDefinition).list({ namespace: 'kube-node-lease' })).items;
    const rows = nodes.map((n) => {
      const renewTime = leases.find((lease) => lease.metadata.name === n.metadata.name)?.spec?.renewTime;
      const taints = (n.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).join(',');
      return [n.metadata.name ?? '', nodeStatusCell(n), taints || '<none>', endpointOrNone(n), renewTime?.replace(/\.\d+Z$/, 'Z') ?? '<none>'];
    });
    return formatTable([['NAME', 'STATUS', 'TAINTS', 'KUBELET', 'LAST HEARTBEAT'], ...rows]);
  });
}

/** withClient runs `fn` with a client for the kubeconfig's cluster, turning an unreachable
 * server into an error that says so. */
export async function withClient<T>(kubeconfig: string, fn: (client: KubeClient) => Promise<T>): Promise<T> {
  const target = loadKubeconfig(resolve(kubeconfig));
  const client = createKubeClient({ server: target.server, token: target.token, tls: target.tls, userAgent: 'kubesim-cli/0.1' });
  try {
    return await fn(client);
  } catch (err) {
    if (isNetworkError(err)) throw new Error(`cannot reach the cluster at ${target.server}: is \`kubesim up\` running?`);
    throw err;
  } finally {
    client.close();
  }
}

async function getNode(client: KubeClient, name: string): Promise<Node> {
  try {
    return await client.resource(nodeDefinition).get('', name);
  } catch (err) {
    if (isNotFound(err)) throw new Error(`${name} not found: see \`kubesim node list\``);
    throw err;
  }
}

/** kubeletEndpoint is `host:port` of the node's kubelet; throws when the node does not say. */
function kubeletEndpoint(node: Node): string {
  const endpoint = endpointOf(node);
  if (endpoint === undefined) {
    const name = node.metadata.name ?? '';
    throw new Error(`${name} has no kubelet endpoint (InternalIP and status.daemonEndpoints.kubeletEndpoint.Port): is it a kubelet-sim node?`);
  }
  return endpoint;
}

function endpointOf(node: Node): string | undefined {
  const ip = node.status?.addresses?.find((address) => address.type === 'InternalIP')?.address;
  const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port;
  if (!ip || !port) return undefined;
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

const endpointOrNone = (node: Node) => endpointOf(node) ?? '<none>';

/** errorText is the message of a Status-like JSON body, or the body's text, or the status. */
async function errorText(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    if (typeof message === 'string' && message) return message;
  } catch {
    // Not JSON: the text itself is the best explanation there is.
  }
  return text.trim() || `HTTP ${response.status}`;
}

/** formatTable lays rows (the first is the header) out in space-padded columns, kubectl style. */
export function formatTable(rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd((widths[column] ?? 0) + 3))).join('')).join('\n');
}
