/**
 * The real kubectl deleting Deployments with each cascade policy while the ReplicaSet,
 * Deployment and garbage-collector controllers and a kubelet run: background (dependents
 * collected afterwards), orphan (the ReplicaSet stays, without its owner reference) and
 * foreground (kubectl returns only once the dependents are gone).
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { tableRows } from './fixture.js';
import { useWorkloadCluster } from './workload-fixture.js';

// Without any kubectl (a machine without it) the file reports one skipped test instead of failing.
const binaries = findKubectlBinaries();
// No kubectl is a failure, not a skip: the kubectl-facing behaviour is part of the product.
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

/** deploymentYaml is a two-replica nginx Deployment selecting app=<name>. */
function deploymentYaml(name: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: 2
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
`;
}

const NOTHING = 'No resources found in default namespace.';

describe.each(binaries)('$label: deleting Deployments', (binary) => {
  const k = useWorkloadCluster(binary);

  /** rolledOut creates Deployment `name` and waits until its two pods are available. */
  const rolledOut = async (name: string) => {
    expect((await k.apply(deploymentYaml(name))).stdout).toBe(`deployment.apps/${name} created\n`);
    const status = await k.ok(['rollout', 'status', `deployment/${name}`, '--timeout=30s'], { timeoutMs: 35_000 });
    expect(status.stdout.trimEnd().split('\n').at(-1)).toBe(`deployment "${name}" successfully rolled out`);
  };
  /** dependents is `kubectl get rs,pods -l app=<name>` as [kind/name, ...] rows. */
  const dependents = async (name: string) => {
    const result = await k.ok(['get', 'rs,pods', '-l', `app=${name}`, '-o', 'name']);
    return result.stdout.split('\n').filter((line) => line !== '');
  };

  it('delete (background) removes the Deployment; the garbage collector then removes its ReplicaSet and pods', async () => {
    await rolledOut('web');
    const before = await dependents('web');
    expect(before.filter((line) => line.startsWith('replicaset.apps/web-'))).toHaveLength(1);
    expect(before.filter((line) => line.startsWith('pod/web-'))).toHaveLength(2);

    expect((await k.ok(['delete', 'deployment', 'web'])).stdout).toBe('deployment.apps "web" deleted\n');
    const gone = await k.run(['get', 'deploy', 'web']);
    expect(gone.stderr.trim()).toBe('Error from server (NotFound): deployments.apps "web" not found');
    await eventually(async () => expect(await dependents('web')).toEqual([]));
    const listed = await k.ok(['get', 'rs,pods', '-l', 'app=web']);
    expect(listed.stdout).toBe('');
    expect(listed.stderr.trim()).toBe(NOTHING);
  });

  it('delete --cascade=orphan keeps the ReplicaSet and its pods, without the owner reference', async () => {
    await rolledOut('web2');
    const [rs] = (await dependents('web2')).filter((line) => line.startsWith('replicaset.apps/'));
    expect((await k.json([rs ?? ''])).metadata.ownerReferences).toMatchObject([{ kind: 'Deployment', name: 'web2', controller: true }]);

    expect((await k.ok(['delete', 'deployment', 'web2', '--cascade=orphan'])).stdout).toBe('deployment.apps "web2" deleted\n');
    // kubectl waited for the Deployment to go, and the garbage collector orphans before that.
    expect((await k.json([rs ?? ''])).metadata.ownerReferences).toBeUndefined();
    // The orphans keep running under their ReplicaSet.
    const rows = tableRows((await k.ok(['get', rs ?? ''])).stdout);
    expect(rows[1]?.slice(0, 4)).toEqual([rs?.slice('replicaset.apps/'.length), '2', '2', '2']);
    const pods = (await dependents('web2')).filter((line) => line.startsWith('pod/'));
    expect(pods).toHaveLength(2);
    for (const pod of pods) expect((await k.json([pod])).metadata.ownerReferences).toMatchObject([{ kind: 'ReplicaSet', controller: true }]);
  });

  it('delete --cascade=foreground returns once the ReplicaSet and pods are gone', async () => {
    await rolledOut('web3');
    // Watch the Deployment's deletion: it stays, marked, until its dependents are deleted.
    const watch = k.watch(['get', 'deploy', 'web3', '-w', '-v=6', '-o', 'jsonpath={.metadata.finalizers} {.metadata.deletionTimestamp}{"\\n"}']);
    await watch.waitFor((lines) => lines.length >= 1);
    await watch.watching();

    expect((await k.ok(['delete', 'deployment', 'web3', '--cascade=foreground'])).stdout).toBe('deployment.apps "web3" deleted\n');
    // No waiting here: kubectl returned only after the Deployment, and so its dependents, went.
    expect(await dependents('web3')).toEqual([]);
    const marked = await watch.waitFor((lines) => lines.some((line) => line.startsWith('["foregroundDeletion"] ')));
    expect(marked.find((line) => line.startsWith('["foregroundDeletion"] '))).toMatch(/^\["foregroundDeletion"\] \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    await watch.stop();
  });
});
