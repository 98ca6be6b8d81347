/**
 * The kubelet HTTP server of one kubelet-sim process (all its nodes share it; each Node
 * reports its port in status.daemonEndpoints.kubeletEndpoint.Port):
 *
 *   GET  /healthz                                      → ok
 *   GET  /containerLogs/{namespace}/{pod}/{container}  → logs (see logs/serve-logs.ts)
 *   GET  /exec|attach/{namespace}/{pod}/{container},  → WebSocket upgrades: exec, attach and port-forward
 *        /portForward/{namespace}/{pod}                 (streaming/streaming-endpoints.ts)
 *   GET  /stats/summary[?node=<name>]                  → resource usage (stats-summary.ts): a SummaryList of
 *                                                        every powered-on node, or one node's Summary
 *   GET  /simulation/nodes                             → { items: NodeAgentSnapshot[] }
 *   POST /simulation/nodes/{name}/stop                 → power the node off (no heartbeats, no pod updates)
 *   POST /simulation/nodes/{name}/start                → power it on again (re-register, resync pods)
 *
 * A request carrying X-Kubesim-Node (the API server's nodes/proxy) is one node's: its
 * /stats/summary is that node's Summary, and /simulation is not there (a real kubelet has none).
 * Any other path is Go's plain-text `404 page not found`, as a kubelet answers.
 *
 * Plain HTTP on loopback, like the rest of a kubesim cluster; documented in docs/kubelet-sim.md.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../controllers/runtime/types.js';
import { type LogsEndpointDeps, sendStatus, serveContainerLogs } from './logs/serve-logs.js';
import type { NodeAgentSnapshot } from './node-agent.js';
import type { StatsSummaries } from './stats-summary.js';
import { isStreamingPath, type StreamingDeps, serveStreaming } from './streaming/streaming-endpoints.js';

/** SimulatedNode is what the admin API can do with a node. */
export interface SimulatedNode {
  snapshot(): NodeAgentSnapshot;
  /** Powers the node on; resolves at once (registration continues in the background). */
  powerOn(): void;
  powerOff(): Promise<void>;
}

/** KubeletServerOptions configures startKubeletServer. */
export interface KubeletServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  logs: LogsEndpointDeps;
  nodes: ReadonlyMap<string, SimulatedNode>;
  stats: StatsSummaries;
  /** exec, attach and port-forward (streaming/streaming-endpoints.ts). */
  streaming: StreamingDeps;
  logger: Logger;
}

/** RunningKubeletServer is a listening server. */
export interface RunningKubeletServer {
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

const json = (res: ServerResponse, code: number, body: unknown) => {
  res.writeHead(code, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** startKubeletServer listens on host:port and resolves once it does. */
export async function startKubeletServer(options: KubeletServerOptions): Promise<RunningKubeletServer> {
  const server = createServer((req, res) => {
    route(options, req, res).catch((err: unknown) => {
      options.logger.error({ err, url: req.url }, 'kubelet request failed');
      if (!res.headersSent) sendStatus(res, 500, 'InternalError', `Internal error occurred: ${(err as Error).message}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const streaming = serveStreaming(server, options.streaming);
  const port = (server.address() as AddressInfo).port;
  const close = () => {
    streaming.close();
    return closeServer(server);
  };
  return { port, url: `http://${options.host}:${port}`, close };
}

/** closeServer stops listening and cuts open (follow) connections. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

async function route(options: KubeletServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://kubelet');
  const path = url.pathname;
  const parts = path
    .split('/')
    .filter((part) => part !== '')
    .map(decodeURIComponent);
  const method = req.method ?? 'GET';
  if (method === 'GET' && path === '/healthz') {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('ok');
    return;
  }
  if (method === 'GET' && parts[0] === 'containerLogs' && parts.length === 4) {
    const [, namespace = '', pod = '', container = ''] = parts;
    serveContainerLogs(options.logs, req, res, { namespace, pod, container });
    return;
  }
  if (isStreamingPath(parts)) return sendStatus(res, 400, 'BadRequest', 'Upgrade request required');
  // The API server's nodes/proxy names the node it means (one process runs every node).
  const node = req.headers['x-kubesim-node'] as string | undefined;
  if (method === 'GET' && path === '/stats/summary') return statsSummary(options, node ?? url.searchParams.get('node'), res);
  if (parts[0] === 'simulation' && parts[1] === 'nodes' && node === undefined) return simulation(options, method, parts.slice(2), res);
  // Go's http.NotFound, as a real kubelet answers any other path.
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end('404 page not found\n');
}

/** statsSummary answers the usage report: one node's Summary (as a real kubelet, which runs
 * one node) or, without `node`, every node's, so a scraper needs one request per process. */
function statsSummary(options: KubeletServerOptions, node: string | null, res: ServerResponse): void {
  const items = options.stats.summaries();
  if (node === null) return json(res, 200, { kind: 'SummaryList', items });
  const summary = items.find((item) => item.node.nodeName === node);
  if (!summary) return sendStatus(res, 404, 'NotFound', `node "${node}" is not simulated by this kubelet or is stopped`);
  json(res, 200, summary);
}

/** simulation answers the admin API under /simulation/nodes. */
async function simulation(options: KubeletServerOptions, method: string, rest: string[], res: ServerResponse): Promise<void> {
  if (rest.length === 0 && method === 'GET') {
    json(res, 200, { items: [...options.nodes.values()].map((node) => node.snapshot()) });
    return;
  }
  const [name = '', action] = rest;
  const node = options.nodes.get(name);
  if (!node) return sendStatus(res, 404, 'NotFound', `node "${name}" is not simulated by this kubelet`);
  if (rest.length === 1 && method === 'GET') return json(res, 200, node.snapshot());
  if (rest.length !== 2 || method !== 'POST' || (action !== 'stop' && action !== 'start')) {
    return sendStatus(res, 405, 'MethodNotAllowed', 'use POST /simulation/nodes/{name}/stop or /start');
  }
  if (action === 'stop') await node.powerOff();
  else node.powerOn();
  options.logger.info({ node: name, action }, 'simulation: node power changed');
  json(res, 200, node.snapshot());
}
