/**
 * An API server enforcing RBAC, reached as whichever user a test needs: a static token file
 * (kube-apiserver's --token-auth-file) names an admin in system:masters and a few ordinary
 * users; `as(user)` fetches with that user's token, `kubeconfigFor(user)` writes a kubeconfig
 * for real kubectl.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

const tokenOf = (user: string) => user.replace(/[^a-z0-9-]/g, '-');

export async function startRbacServer(): Promise<RbacServer> {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-rbac-'));
  const tokenFile = join(dir, 'tokens.csv');
  const lines = Object.entries(RBAC_TEST_USERS).map(([user, groups], i) => `${tokenOf(user)},${user},uid-${i},"${groups.join(',')}"`);
  writeFileSync(tokenFile, `${lines.join('\n')}\n`);
  const server = await startApiServer({ port: 0, tokenAuthFile: tokenFile, security: { authorization: 'RBAC' } });
  return {
    server,
    url: server.url,
    dir,
    async as(user, path, init = {}) {
      const headers: Record<string, string> = { Accept: 'application/json', ...init.headers };
      if (user !== 'anonymous') headers['Authorization'] = `Bearer ${tokenOf(user)}`;
      if (init.body !== undefined) headers['Content-Type'] = 'application/json';
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
        `clusters: [{name: c, cluster: {server: "${server.url}"}}]`,
        `users: [{name: u, user: {token: "${tokenOf(user)}"}}]`,
        'contexts: [{name: c, context: {cluster: c, user: u, namespace: default}}]',
        'current-context: c',
      ].join('\n');
      writeFileSync(path, `${yaml}\n`);
      return path;
    },
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
