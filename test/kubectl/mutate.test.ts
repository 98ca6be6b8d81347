/**
 * The real kubectl changing live objects: label, annotate, the three patch types, scale,
 * wait, edit and delete (orphan, no wait, namespaces).
 */
import { describe, expect, it } from 'vitest';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { configMapYaml, deploymentYaml, namespaceYaml, useKubectlCluster } from './fixture.js';

// Without any kubectl (a machine without it) the file reports one skipped test instead of failing.
const binaries = findKubectlBinaries();
// No kubectl is a failure, not a skip: the kubectl-facing behaviour is part of the product.
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

describe.each(binaries)('$label: label, patch, scale, edit, delete', (binary) => {
  const k = useKubectlCluster(binary);

  it('label adds, overwrites and removes a label', async () => {
    await k.apply(configMapYaml('labels'));
    expect((await k.ok(['label', 'cm', 'labels', 'env=prod'])).stdout).toBe('configmap/labels labeled\n');
    expect((await k.json(['cm', 'labels'])).metadata.labels).toEqual({ env: 'prod' });

    const clash = await k.run(['label', 'cm', 'labels', 'env=dev']);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain(`'env' already has a value (prod), and --overwrite is false`);
    await k.ok(['label', 'cm', 'labels', 'env=dev', '--overwrite']);
    expect((await k.json(['cm', 'labels'])).metadata.labels).toEqual({ env: 'dev' });

    const removed = await k.ok(['label', 'cm', 'labels', 'env-']);
    expect(removed.stdout).toBe(binary.minor >= 27 ? 'configmap/labels unlabeled\n' : 'configmap/labels labeled\n');
    // Like kube-apiserver (omitempty), the emptied map is gone rather than `labels: {}`.
    expect((await k.json(['cm', 'labels'])).metadata).not.toHaveProperty('labels');
  });

  it('annotate adds and removes an annotation', async () => {
    await k.apply(configMapYaml('notes'));
    expect((await k.ok(['annotate', 'cm', 'notes', 'owner=team-a'])).stdout).toBe('configmap/notes annotated\n');
    expect((await k.json(['cm', 'notes'])).metadata.annotations.owner).toBe('team-a');
    await k.ok(['annotate', 'cm', 'notes', 'owner-']);
    expect((await k.json(['cm', 'notes'])).metadata.annotations?.owner).toBeUndefined();
  });

  it('patch --type=merge, strategic (default) and --type=json', async () => {
    await k.apply(deploymentYaml('patched'));
    const merge = await k.ok(['patch', 'deploy', 'patched', '--type=merge', '-p', '{"metadata":{"labels":{"patched":"yes"}}}']);
    expect(merge.stdout).toBe('deployment.apps/patched patched\n');
    expect((await k.json(['deploy', 'patched'])).metadata.labels).toEqual({ app: 'patched', patched: 'yes' });

    // Strategic merge: the container list merges by name, so only the image changes.
    const strategic = await k.ok(['patch', 'deploy', 'patched', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.27"}]}}}}']);
    expect(strategic.stdout).toBe('deployment.apps/patched patched\n');
    const container = (await k.json(['deploy', 'patched'])).spec.template.spec.containers;
    expect(container).toHaveLength(1);
    expect(container[0]).toMatchObject({ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80, protocol: 'TCP' }] });

    const json = await k.ok(['patch', 'deploy', 'patched', '--type=json', '-p', '[{"op":"replace","path":"/spec/replicas","value":4}]']);
    expect(json.stdout).toBe('deployment.apps/patched patched\n');
    expect((await k.json(['deploy', 'patched'])).spec.replicas).toBe(4);

    const badTest = await k.run(['patch', 'deploy', 'patched', '--type=json', '-p', '[{"op":"test","path":"/spec/replicas","value":9}]']);
    expect(badTest.code).toBe(1);
    // kubectl < 1.27 prints only the reason of an Invalid status without details.
    const detail = binary.minor >= 27 ? ': testing value /spec/replicas failed: test failed' : '';
    expect(badTest.stderr.trim()).toBe(`The request is invalid${detail}`);
  });

  it('a patch that changes nothing prints (no change) and keeps the resourceVersion', async () => {
    await k.apply(deploymentYaml('noop', { replicas: 3 }));
    const before = (await k.json(['deploy', 'noop'])).metadata.resourceVersion;
    const merge = await k.ok(['patch', 'deploy', 'noop', '--type=merge', '-p', '{"spec":{"replicas":3}}']);
    expect(merge.stdout).toBe('deployment.apps/noop patched (no change)\n');
    const strategic = await k.ok(['patch', 'deploy', 'noop', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.25"}]}}}}']);
    expect(strategic.stdout).toBe('deployment.apps/noop patched (no change)\n');
    expect((await k.json(['deploy', 'noop'])).metadata.resourceVersion).toBe(before);
  });

  it('scale sets spec.replicas through the scale subresource', async () => {
    await k.apply(deploymentYaml('scaled'));
    expect((await k.ok(['scale', 'deploy', 'scaled', '--replicas=3'])).stdout).toBe('deployment.apps/scaled scaled\n');
    expect((await k.json(['deploy', 'scaled'])).spec.replicas).toBe(3);

    const stale = await k.run(['scale', 'deploy', 'scaled', '--current-replicas=2', '--replicas=5']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('Expected replicas to be 2, was 3');
    if (binary.minor < 27) return; // get --subresource arrived in 1.27.
    const scale = await k.json(['deploy', 'scaled', '--subresource=scale']);
    expect(scale).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 3 }, status: { selector: 'app=scaled' } });
  });

  // wait --for=jsonpath arrived in kubectl 1.23.
  it.skipIf(binary.minor < 23)('wait --for=jsonpath sees a scale', async () => {
    await k.apply(deploymentYaml('waited'));
    await k.ok(['scale', 'deploy', 'waited', '--replicas=3']);
    const waited = await k.ok(['wait', '--for=jsonpath={.spec.replicas}=3', 'deploy/waited', '--timeout=10s']);
    expect(waited.stdout).toBe('deployment.apps/waited condition met\n');
  });

  // Same reason: the jsonpath condition needs kubectl 1.23 or later.
  it.skipIf(binary.minor < 23)('wait times out when the condition never holds', async () => {
    await k.apply(deploymentYaml('waiting'));
    const result = await k.run(['wait', '--for=jsonpath={.spec.replicas}=7', 'deploy/waiting', '--timeout=1s']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('timed out waiting for the condition on deployments/waiting');
  });

  it('edit applies the change the editor made', async () => {
    await k.apply(deploymentYaml('edited'));
    const result = await k.ok(['edit', 'deploy', 'edited'], { env: { KUBE_EDITOR: 'sed -i s/replicas:\\ 2/replicas:\\ 4/' } });
    expect(result.stdout).toBe('deployment.apps/edited edited\n');
    expect((await k.json(['deploy', 'edited'])).spec.replicas).toBe(4);

    const untouched = await k.ok(['edit', 'deploy', 'edited'], { env: { KUBE_EDITOR: 'true' } });
    expect(untouched.stderr).toContain('Edit cancelled, no changes made.');
  });

  it('delete removes a ConfigMap and reports it', async () => {
    await k.apply(configMapYaml('doomed'));
    expect((await k.ok(['delete', 'configmap', 'doomed'])).stdout).toBe('configmap "doomed" deleted\n');
    const gone = await k.run(['get', 'cm', 'doomed']);
    expect(gone.stderr.trim()).toBe('Error from server (NotFound): configmaps "doomed" not found');
    const again = await k.run(['delete', 'configmap', 'doomed']);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe('Error from server (NotFound): configmaps "doomed" not found');
  });

  it('delete deploy (background) waits until it is gone', async () => {
    await k.apply(deploymentYaml('bg'));
    expect((await k.ok(['delete', 'deploy', 'bg'])).stdout).toBe('deployment.apps "bg" deleted\n');
    expect((await k.run(['get', 'deploy', 'bg'])).code).toBe(1);
  });

  it('delete --cascade=orphan --wait=false leaves the object for the garbage collector', async () => {
    await k.apply(deploymentYaml('orphaned'));
    const result = await k.ok(['delete', 'deploy', 'orphaned', '--cascade=orphan', '--wait=false']);
    expect(result.stdout).toBe('deployment.apps "orphaned" deleted\n');
    const marked = await k.json(['deploy', 'orphaned']);
    expect(marked.metadata.finalizers).toEqual(['orphan']);
    expect(marked.metadata.deletionTimestamp).toMatch(/Z$/);
    // Doing the garbage collector's part: clearing the last finalizer removes the object.
    await k.ok(['patch', 'deploy', 'orphaned', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
    expect((await k.run(['get', 'deploy', 'orphaned'])).stderr.trim()).toBe('Error from server (NotFound): deployments.apps "orphaned" not found');
  });

  it('delete ns --wait=false leaves the namespace Terminating', async () => {
    await k.apply(namespaceYaml('closing'));
    expect((await k.ok(['delete', 'ns', 'closing', '--wait=false'])).stdout).toBe('namespace "closing" deleted\n');
    expect((await k.ok(['get', 'ns', 'closing'])).stdout).toMatch(/^NAME\s+STATUS\s+AGE\nclosing\s+Terminating\s+\d+s\n$/);
    const ns = await k.json(['ns', 'closing']);
    expect(ns.status.phase).toBe('Terminating');
    expect(ns.spec.finalizers).toEqual(['kubernetes']);
    const create = await k.run(['create', '-f', '-', '-n', 'closing'], { stdin: configMapYaml('late') });
    expect(create.code).toBe(1);
    expect(create.stderr.trim()).toBe(
      'Error from server (Forbidden): error when creating "STDIN": configmaps "late" is forbidden: unable to create new content in namespace closing because it is being terminated',
    );
  });
});
