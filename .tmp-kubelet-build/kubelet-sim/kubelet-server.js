/**
 * The kubelet HTTP server of one kubelet-sim process (all its nodes share it; each Node
 * reports its port in status.daemonEndpoints.kubeletEndpoint.Port):
 *
 *   GET  /healthz                                      → ok
 *   GET  /containerLogs/{namespace}/{pod}/{container}  → logs (see logs/serve-logs.ts)
 *   GET  /simulation/nodes                             → { items: NodeAgentSnapshot[] }
 *   POST /simulation/nodes/{name}/stop                 → power the node off (no heartbeats, no pod updates)
 *   POST /simulation/nodes/{name}/start                → power it on again (re-register, resync pods)
 *
 * Plain HTTP on loopback, like the rest of a kubesim cluster; documented in docs/kubelet-sim.md.
 */
import { createServer } from 'node:http';
import { sendStatus, serveContainerLogs } from './logs/serve-logs.js';
const json = (res, code, body) => {
    res.writeHead(code, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
};
/** startKubeletServer listens on host:port and resolves once it does. */
export async function startKubeletServer(options) {
    const server = createServer((req, res) => {
        route(options, req, res).catch((err) => {
            options.logger.error({ err, url: req.url }, 'kubelet request failed');
            if (!res.headersSent)
                sendStatus(res, 500, 'InternalError', `Internal error occurred: ${err.message}`);
            else
                res.end();
        });
    });
    await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port, options.host, () => resolve());
    });
    const port = server.address().port;
    return { port, url: `http://${options.host}:${port}`, close: () => closeServer(server) };
}
/** closeServer stops listening and cuts open (follow) connections. */
function closeServer(server) {
    return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
    });
}
async function route(options, req, res) {
    const path = new URL(req.url ?? '/', 'http://kubelet').pathname;
    const parts = path.split('/').filter((part) => part !== '').map(decodeURIComponent);
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
    if (parts[0] === 'simulation' && parts[1] === 'nodes')
        return simulation(options, method, parts.slice(2), res);
    sendStatus(res, 404, 'NotFound', 'the server could not find the requested resource');
}
/** simulation answers the admin API under /simulation/nodes. */
async function simulation(options, method, rest, res) {
    if (rest.length === 0 && method === 'GET') {
        json(res, 200, { items: [...options.nodes.values()].map((node) => node.snapshot()) });
        return;
    }
    const [name = '', action] = rest;
    const node = options.nodes.get(name);
    if (!node)
        return sendStatus(res, 404, 'NotFound', `node "${name}" is not simulated by this kubelet`);
    if (rest.length === 1 && method === 'GET')
        return json(res, 200, node.snapshot());
    if (rest.length !== 2 || method !== 'POST' || (action !== 'stop' && action !== 'start')) {
        return sendStatus(res, 405, 'MethodNotAllowed', 'use POST /simulation/nodes/{name}/stop or /start');
    }
    if (action === 'stop')
        await node.powerOff();
    else
        node.powerOn();
    options.logger.info({ node: name, action }, 'simulation: node power changed');
    json(res, 200, node.snapshot());
}
//# sourceMappingURL=kubelet-server.js.map