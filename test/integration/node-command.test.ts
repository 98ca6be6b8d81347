/**
 * `kubesim node list|stop|start` against a real API server and a stand-in for kubelet-sim's
 * admin API (a plain HTTP server recording what it is asked), including the errors a learner
 * can run into: a node that does not exist, a kubelet that is not running, a cluster that is
 * not up.
 */

import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeDefinition } from '../../apiserver/api/core/node.js';
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import { UsageError } from '../../cli/args.js';
import { listNodes, node, setNodeKubelet } from '../../cli/commands/node.js';
import { kubeconfigYaml } from '../../cli/kubeconfig.js';
import { type FakeNode, startFakeNode } from '../support/fake-node.js';
import { freePort } from '../support/ports.js';
import { useTestCluster } from '../support/use-test-cluster.js';

/** AdminApi stands in for kubelet-sim's admin API: it records requests and answers `reply`. */
interface AdminApi {
  port: number;
  requests: string[];
  reply: { status: number; body: string };
  close(): Promise<void>;
}

async function startAdminApi(): Promise<AdminApi> {
  const server: Server = createServer((request, response) => {
    api.requests.push(`${request.method} ${request.url}`);
    response.writeHead(api.reply.status, { 'Content-Type': 'application/json' }).end(api.reply.body);
  });
  const api: AdminApi = {
    port: 0,
    requests: [],
    reply: { status: 200, body: '{}' },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.port = (server.address() as AddressInfo).port;
  return api;
}

describe('kubesim node', () => {
  const cluster = useTestCluster({ userAgent: 'test' });
  let admin: AdminApi;
  const fakeNodes: FakeNode[] = [];

  beforeEach(async () => {
    admin = await startAdminApi();
    const clock = createRealClock();
    fakeNodes.push(await startFakeNode({ client: cluster.client, clock, name: 'node-1', kubeletPort: admin.port }));
    fakeNodes.push(await startFakeNode({ client: cluster.client, clock, name: 'node-2', kubeletPort: await freePort() }));
  });

  afterEach(async () => {
    for (const fake of fakeNodes.splice(0)) await fake.close();
    await admin.close();
  });

  const kubeconfig = () => cluster.kubeconfigPath;

  it("stop and start POST to the admin API of the node's kubelet", async () => {
    expect(await setNodeKubelet({ kubeconfig: kubeconfig(), name: 'node-1', action: 'stop' })).toMatch(/^node\/node-1 stopped: /);
    expect(await setNodeKubelet({ kubeconfig: kubeconfig(), name: 'node-1', action: 'start' })).toMatch(/^node\/node-1 started: /);
    expect(admin.requests).toEqual(['POST /simulation/nodes/node-1/stop', 'POST /simulation/nodes/node-1/start']);
  });

  it('says which node does not exist', async () => {
    await expect(setNodeKubelet({ kubeconfig: kubeconfig(), name: 'node-7', action: 'stop' })).rejects.toThrow(/^node-7 not found/);
  });

  it('says when the kubelet of a node cannot be reached', async () => {
    const port = (await cluster.client.resource(nodeDefinition).get('', 'node-2')).status?.daemonEndpoints?.kubeletEndpoint?.Port;
    await expect(setNodeKubelet({ kubeconfig: kubeconfig(), name: 'node-2', action: 'stop' })).rejects.toThrow(
      `cannot reach the kubelet of node-2 at 127.0.0.1:${port}: is its kubelet process running?`,
    );
  });

  it("passes on the kubelet's refusal", async () => {
    admin.reply = { status: 409, body: JSON.stringify({ message: 'node node-1 is already stopped' }) };
    await expect(setNodeKubelet({ kubeconfig: kubeconfig(), name: 'node-1', action: 'stop' })).rejects.toThrow(
      'the kubelet of node-1 refused to stop: node node-1 is already stopped',
    );
  });

  it('says when the cluster is not up', async () => {
    const path = join(cluster.dir, 'down.kubeconfig');
    writeFileSync(path, kubeconfigYaml(`http://127.0.0.1:${await freePort()}`));
    await expect(setNodeKubelet({ kubeconfig: path, name: 'node-1', action: 'stop' })).rejects.toThrow(
      /^cannot reach the cluster at http:\/\/127\.0\.0\.1:\d+: is `kubesim up` running\?$/,
    );
  });

  it('lists the nodes with status, taints, kubelet endpoint and last heartbeat', async () => {
    const lines = (await listNodes(kubeconfig())).split('\n');
    expect(lines[0]).toMatch(/^NAME\s+STATUS\s+TAINTS\s+KUBELET\s+LAST HEARTBEAT$/);
    expect(lines[1]).toMatch(new RegExp(`^node-1\\s+Ready\\s+<none>\\s+127\\.0\\.0\\.1:${admin.port}\\s+\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$`));
    expect(lines[2]).toMatch(/^node-2\s+Ready\s+/);
  });

  it('rejects unknown actions and a missing node name as usage errors', async () => {
    await expect(node(['reboot', 'node-1', '--kubeconfig', kubeconfig()])).rejects.toBeInstanceOf(UsageError);
    await expect(node(['stop', '--kubeconfig', kubeconfig()])).rejects.toBeInstanceOf(UsageError);
  });
});
