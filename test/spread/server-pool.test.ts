/**
 * A client given several API servers (server-pool.ts) through the real transport: a dead first
 * URL, a server answering 503 and a server cutting a write mid-flight, in front of a real API
 * server. The components' flags and failover mid-watch are tested in failover.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isNotFound } from '../../apiserver/api/api-error.js';
import { type ConfigMap, configMapDefinition } from '../../apiserver/api/core/config-map.js';
import { createKubeClient, type KubeClient } from '../../controllers/runtime/client/http-client.js';
import { isNetworkError } from '../../controllers/runtime/client/http-transport.js';
import { parseKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { createLogger } from '../../controllers/runtime/logger.js';
import { freePort } from '../support/ports.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const cluster = useTestCluster({ lifetime: 'file', userAgent: 'server-pool-test', tls: true });
const opened: Array<{ close(): void }> = [];

afterEach(async () => {
  for (const one of opened.splice(0)) one.close();
});

/** clientOf is an admin client of the test cluster aimed at `servers`, logging into `lines`. */
function clientOf(servers: string[], lines: string[]): KubeClient {
  const { tls, token } = parseKubeconfig(cluster.kubeconfig, cluster.kubeconfigPath);
  const logger = createLogger({ component: 'test', level: 'info', destination: { write: (line: string) => lines.push(JSON.parse(line).msg) } });
  const client = createKubeClient({ server: servers.join(','), tls, token, userAgent: 'server-pool-test/0.1', logger });
  opened.push(client);
  return client;
}

/** standIn is an HTTP(S)-less server on loopback whose answer `handle` decides; `requests`
 * counts what reached it. */
async function standIn(handle: Parameters<typeof createServer>[1]): Promise<{ url: string; requests: () => number }> {
  let count = 0;
  const server: Server = createServer((request, response) => {
    count++;
    handle!(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push({ close: () => server.close() && server.closeAllConnections() });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => count };
}

const configMap = (name: string): ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { a: '1' } });

describe('a client given several API servers', () => {
  it('moves past a dead first server, says so once, and stays on the live one', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const lines: string[] = [];
    const client = clientOf([dead, cluster.url], lines);
    const configMaps = client.resource(configMapDefinition);
    await configMaps.create(configMap('first'));
    expect((await configMaps.get('default', 'first')).data).toEqual({ a: '1' });
    expect(lines).toEqual([`apiserver ${dead} unreachable (ECONNREFUSED); using ${cluster.url}`]);
    expect(client.server).toBe(`${dead},${cluster.url}`);
  });

  it('moves past a server failing the TLS handshake, and sends even a create there', async () => {
    // Plain HTTP where TLS is expected: the handshake fails before any byte of the request.
    const plain = await standIn((_request, response) => response.end());
    const notTls = plain.url.replace('http:', 'https:');
    const lines: string[] = [];
    const configMaps = clientOf([notTls, cluster.url], lines).resource(configMapDefinition);
    await configMaps.create(configMap('after-tls-failure'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^apiserver ${notTls} unreachable \\((EPROTO|ERR_SSL_\\w+)\\); using ${cluster.url}$`));
  });

  it('moves on from a server answering 503, but not from one answering 404', async () => {
    const shuttingDown = await standIn((_request, response) => {
      response.writeHead(503, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'ServiceUnavailable', code: 503, message: 'shutting down' }));
    });
    const lines: string[] = [];
    const configMaps = clientOf([shuttingDown.url, cluster.url], lines).resource(configMapDefinition);
    const missing = await configMaps.get('default', 'no-such-map').catch((err: unknown) => err);
    expect(isNotFound(missing)).toBe(true);
    expect(shuttingDown.requests()).toBe(1);
    expect(lines).toEqual([`apiserver ${shuttingDown.url} unreachable (503 ServiceUnavailable); using ${cluster.url}`]);
  });

  it('does not send a create again after the connection was cut mid-request', async () => {
    const cutting = await standIn((request) => request.socket.destroy());
    const lines: string[] = [];
    const configMaps = clientOf([cutting.url, cluster.url], lines).resource(configMapDefinition);
    // The first server may have applied it: only the caller knows whether to try again.
    const failure = await configMaps.create(configMap('cut')).catch((err: unknown) => err);
    expect(isNetworkError(failure)).toBe(true);
    expect(cutting.requests()).toBe(1);
    expect(lines).toEqual([`apiserver ${cutting.url} unreachable (ECONNRESET); using ${cluster.url}`]);
    // The pool moved on: the caller's retry goes to the live server.
    await configMaps.create(configMap('cut'));
    expect(cutting.requests()).toBe(1);
  });
});
