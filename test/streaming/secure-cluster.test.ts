/**
 * exec on the cluster `kubesim up` and startCluster() run by default: HTTPS, client
 * certificates and RBAC. The upgrade is authenticated by kubectl's admin certificate on the
 * TLS socket, authorized, and proxied to the kubelet; the `userland` option of startCluster
 * reaches the kubelet.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../../cli/cluster/index.js';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, requireKubectl, runKubectl } from '../support/kubectl.js';
import { testUserland } from '../support/test-userland.js';

// The newest installed kubectl is enough here: the version matrix is in kubectl-exec.test.ts.
const binary = findKubectlBinaries().at(-1);
if (!binary) it('finds a kubectl binary', () => requireKubectl());

describe.runIf(binary)('exec on an HTTPS cluster with RBAC', () => {
  let cluster: Cluster;
  const kubectl = (args: string[], stdin?: string) =>
    runKubectl(binary!, args, { kubeconfigPath: cluster.kubeconfigPath, cacheDir: join(cluster.kubeconfigPath, '..', 'streaming-cache'), stdin });

  beforeAll(async () => {
    cluster = await startCluster({ userland: testUserland });
  });
  afterAll(() => cluster?.stop());

  it('runs a command and passes its exit code back', async () => {
    const created = await kubectl(['run', 'web', '--image=busybox', '--restart=Never']);
    expect(created.stdout).toBe('pod/web created\n');
    await eventually(async () => expect((await kubectl(['get', 'pod', 'web', '-o', 'jsonpath={.status.phase}'])).stdout).toBe('Running'), {
      timeoutMs: 20_000,
    });
    expect(await kubectl(['exec', 'web', '--', 'echo', 'over', 'tls'])).toMatchObject({ code: 0, stdout: 'over tls\n', stderr: '' });
    expect(await kubectl(['exec', 'web', '--', 'exit', '4'])).toMatchObject({ code: 4, stderr: 'command terminated with exit code 4\n' });
  });

  it('refuses a user allowed to get pods/exec but not create it', async () => {
    await kubectl(['create', 'role', 'exec-get', '--verb=get', '--resource=pods,pods/exec']);
    await kubectl(['create', 'rolebinding', 'exec-get', '--role=exec-get', '--user=alice']);
    const result = await eventually(async () => {
      const attempt = await kubectl(['exec', 'web', '--as=alice', '--', 'echo', 'hi']);
      expect(attempt.stderr).toContain('pods/exec');
      return attempt;
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'Error from server (Forbidden): pods "web" is forbidden: User "alice" cannot create resource "pods/exec" in API group "" in the namespace "default"\n',
    );
  });
});
