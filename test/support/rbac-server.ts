/**
 * An API server enforcing RBAC, reached as whichever user a test needs: a static token file
 * (kube-apiserver's --token-auth-file) names an admin in system:masters and a few ordinary
 * users; `as(user)` fetches with that user's token, `kubeconfigFor(user)` writes a kubeconfig
 * for real kubectl. kubectl sends no bearer token over plain HTTP, so its kubeconfigs point at
 * a small forwarding proxy (`/as/<user>/...`) that adds the user's token — the server sees
 * exactly what it would from a kubectl over TLS.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningApiServer, startApiServer } from '../../apiserver/start-api-server.js';
import type { JsonResponse } from './http.js';

/** The users of the token file: token = user name; groups as listed. */
export const RBAC_TEST_USERS: Record<string, string[]> = {
  admin: ['system:masters'],
  bob: [],
  alice: ['devs'],
  'system:node:node-1': ['system:nodes'],
  'system:kube-controller-manager': [],
  'system:kube-scheduler': [],
  'system:serviceaccount:kube-system:replicaset-controller': ['system:serviceaccounts', 'system:serviceaccounts:kube-system'],
};

export interface RbacServer {
  server: RunningApiServer;
  url: string;
  dir: string;
  /** Fetches `path` with the user's bearer token (no token at all for 'anonymous'). */
  as<T = any>(user: string, path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<JsonResponse<T>>;
  /** Writes a kubeconfig whose user authenticates with the user's token; returns its path. */
  kubeconfigFor(user: string): string;
  close(): Promise<void>;
}

/** The bearer token of a user of the token file. */
export const tokenOf = (user: string) => user.replace(/[^a-z0-9-]/g, '-');

/** startTokenProxy forwards `/as/<user>/<path>` to `target/<path>` with the user's token. */
async function startTokenProxy(target: URL): Promise<{ url: string; close(): Promise<void> }> {
  const forward = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const match = /^\/as\/([^/]+)(\/.*)$/.exec(incoming.url ?? '');
    if (!match) {
      outgoing.writeHead(404).end();
      return;
    }
    const headers = { ...incoming.headers, host: target.host, authorization: `Bearer ${tokenOf(decodeURIComponent(match[1]!))}` };
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: incoming.method, path: match[2], headers }, (response) => {
      outgoing.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  };
  const proxy: Server = createServer(forward);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}

export async function startRbacServer(): Promise<RbacServer> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-rbac-'));
  const tokenFile = join(dir, 'tokens.csv');
  const lines = Object.entries(RBAC_TEST_USERS).map(([user, groups], i) => `${tokenOf(user)},${user},uid-${i},"${groups.join(',')}"`);
  writeFileSync(tokenFile, `${lines.join('\n')}\n`);
  const server = await startApiServer({ port: 0, tokenAuthFile: tokenFile, security: { authorization: 'RBAC' } });
  const proxy = await startTokenProxy(new URL(server.url));
  return {
    server,
    url: server.url,
    dir,
    async as(user, path, init = {}) {
      const headers: Record<string, string> = { Accept: 'application/json', ...init.headers };
      if (user !== 'anonymous') headers['Authorization'] = `Bearer ${tokenOf(user)}`;
      if (init.body !== undefined) headers['Content-Type'] ??= 'application/json';
      const response = await fetch(`${server.url}${path}`, {
        method: init.method ?? 'GET',
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // Plain text (/healthz): the raw text is the body.
      }
      return { status: response.status, headers: response.headers, body: body as any };
    },
    kubeconfigFor(user) {
      const path = join(dir, `kubeconfig-${tokenOf(user)}`);
      const yaml = [
        'apiVersion: v1',
        'kind: Config',
        `clusters: [{name: c, cluster: {server: "${proxy.url}/as/${encodeURIComponent(user)}"}}]`,
        'users: [{name: u, user: {}}]',
        'contexts: [{name: c, context: {cluster: c, user: u, namespace: default}}]',
        'current-context: c',
      ].join('\n');
      writeFileSync(path, `${yaml}\n`);
      return path;
    },
    async close() {
      await proxy.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
