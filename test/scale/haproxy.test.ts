/**
 * HAProxy in front of API servers (test/support/haproxy.ts, the kubeadm HA layout): kubectl
 * reaches them through it with TLS passed through (it verifies the cluster CA and presents its
 * client certificate end to end), connections go round-robin, and when one server dies the
 * next request is answered by another. Two independent API servers in this process stand in
 * for replicas (they share this process's cluster CA); each answers a ConfigMap naming itself,
 * so the test sees which one served a request.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { type RunningHaproxy, startHaproxy } from '../support/haproxy.js';
import { runKubectl } from '../support/kubectl.js';
import { startTestCluster, type TestCluster } from '../support/test-cluster.js';

describe('HAProxy in front of two API servers', () => {
  let servers: TestCluster[] = [];
  let haproxy: RunningHaproxy;
  let dir: string;
  let kubeconfigPath: string;

  const kubectl = async (args: string[]) => {
    const result = await runKubectl('kubectl', args, { kubeconfigPath, cacheDir: join(dir, 'cache') });
    if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
    return result.stdout;
  };
  const whoAnswers = () => kubectl(['get', 'configmap', 'who', '-o', 'jsonpath={.data.server}']);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubesim-haproxy-test-'));
    servers = await Promise.all([startTestCluster({ tls: true }), startTestCluster({ tls: true })]);
    for (const [i, server] of servers.entries()) {
      const args = ['create', 'configmap', 'who', `--from-literal=server=apiserver-${i}`];
      const created = await runKubectl('kubectl', args, { kubeconfigPath: server.kubeconfigPath, cacheDir: join(server.dir, 'cache') });
      expect(created.code, created.stderr).toBe(0);
    }
    haproxy = await startHaproxy(
      servers.map((s, i) => ({ name: `apiserver-${i}`, host: '127.0.0.1', port: s.server.port })),
      { checkIntervalMs: 200 },
    );
    kubeconfigPath = join(dir, 'kubeconfig');
    writeFileSync(kubeconfigPath, servers[0]!.kubeconfig.replace(servers[0]!.url, haproxy.url));
  });
  afterAll(async () => {
    await haproxy?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('health-checks each server on /readyz and finds both up', async () => {
    await haproxy.waitFor('UP', ['apiserver-0', 'apiserver-1']);
  });

  it('passes TLS through: kubectl verifies the cluster CA and authenticates with its certificate', async () => {
    expect(await kubectl(['get', '--raw', '/readyz'])).toBe('ok');
    expect(await kubectl(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'])).toBe('kubernetes-admin');
  });

  it('spreads connections over the servers round-robin', async () => {
    const seen = new Set<string>();
    await eventually(async () => {
      seen.add(await whoAnswers());
      return seen.size === 2;
    });
    expect([...seen].sort()).toEqual(['apiserver-0', 'apiserver-1']);
  });

  it('sends every request to the survivor once a server dies', async () => {
    await servers[0]!.server.close();
    // A connection the dead server refuses is redispatched, so even now a request is answered.
    expect(await kubectl(['get', '--raw', '/readyz'])).toBe('ok');
    await haproxy.waitFor('DOWN', ['apiserver-0']);
    const answers = [await whoAnswers(), await whoAnswers(), await whoAnswers(), await whoAnswers()];
    expect(answers).toEqual(['apiserver-1', 'apiserver-1', 'apiserver-1', 'apiserver-1']);
  });
});
