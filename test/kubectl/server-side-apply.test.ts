/**
 * The real kubectl and field ownership: `apply --server-side` (re-applies that drop fields,
 * --field-manager, conflicts and --force-conflicts), the upgrade from client-side apply
 * (kubectl's kubectl-last-applied step and its managedFields migration), managedFields in
 * `get` output, and the strategic merge patches that `edit` and a strategy change send.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { deploymentYaml, useKubectlCluster } from './fixture.js';

// Without any kubectl (a machine without it) the file reports one skipped test instead of failing.
const binaries = findKubectlBinaries();
// No kubectl is a failure, not a skip: the kubectl-facing behaviour is part of the product.
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

interface Entry {
  manager: string;
  operation: string;
  subresource?: string;
  fieldsV1: Record<string, any>;
}

/** webYaml is a Deployment with a tier label and two env vars, trimmed by `drop`. */
function webYaml(name: string, { replicas = 2, image = 'nginx:1.25', tier = true, envB = true } = {}): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels:
    app: ${name}
${tier ? '    tier: frontend\n' : ''}spec:
  replicas: ${replicas}
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
        image: ${image}
        env:
        - name: A
          value: "1"
${envB ? '        - name: B\n          value: "2"\n' : ''}`;
}

const CONFLICT_HINT = 'Please review the fields above--they currently have other managers.';

describe.each(binaries)('$label: server-side apply', (binary) => {
  const k = useKubectlCluster(binary);
  const ssa = (yaml: string, ...flags: string[]) => k.run(['apply', '--server-side', ...flags, '-f', '-'], { stdin: yaml });
  const managed = async (name: string): Promise<Entry[]> =>
    JSON.parse((await k.ok(['get', 'deploy', name, '-o', 'json', '--show-managed-fields'])).stdout).metadata.managedFields;
  const entry = async (name: string, manager: string, operation = 'Apply') =>
    (await managed(name)).find((e) => e.manager === manager && e.operation === operation);
  const container = (fields: Record<string, any> | undefined) => fields?.['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"nginx"}'];

  it('a second apply that drops a label and an env var removes them, and the manager stops owning them', async () => {
    expect((await ssa(webYaml('pruned'))).stdout).toBe('deployment.apps/pruned serverside-applied\n');
    const first = await entry('pruned', 'kubectl');
    expect(first?.fieldsV1['f:metadata']['f:labels']).toEqual({ 'f:app': {}, 'f:tier': {} });
    expect(Object.keys(container(first?.fieldsV1)['f:env'])).toEqual(['k:{"name":"A"}', 'k:{"name":"B"}']);

    expect((await ssa(webYaml('pruned', { tier: false, envB: false }))).stdout).toBe('deployment.apps/pruned serverside-applied\n');
    const live = await k.json(['deploy', 'pruned']);
    expect(live.metadata.labels).toEqual({ app: 'pruned' });
    expect(live.spec.template.spec.containers[0].env).toEqual([{ name: 'A', value: '1' }]);
    const second = await entry('pruned', 'kubectl');
    expect(second?.fieldsV1['f:metadata']['f:labels']).toEqual({ 'f:app': {} });
    expect(Object.keys(container(second?.fieldsV1)['f:env'])).toEqual(['k:{"name":"A"}']);
  });

  it("--field-manager names the manager; a conflicting apply fails with kubectl's hint; --force-conflicts takes the fields", async () => {
    await ssa(webYaml('shared'));
    const conflict = await ssa(webYaml('shared', { replicas: 3, image: 'nginx:1.26' }), '--field-manager=ci');
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toContain(
      'error: Apply failed with 2 conflicts: conflicts with "kubectl":\n- .spec.replicas\n- .spec.template.spec.containers[name="nginx"].image\n',
    );
    expect(conflict.stderr).toContain(CONFLICT_HINT);
    expect(conflict.stderr).toContain('--force-conflicts');
    expect((await k.json(['deploy', 'shared'])).spec.replicas).toBe(2);

    // The same values are no conflict: ci becomes a co-owner.
    expect((await ssa(webYaml('shared'), '--field-manager=ci')).code).toBe(0);
    expect((await entry('shared', 'ci'))?.fieldsV1['f:spec']['f:replicas']).toEqual({});

    const forced = await ssa(webYaml('shared', { replicas: 3 }), '--field-manager=ci', '--force-conflicts');
    expect(forced.stdout).toBe('deployment.apps/shared serverside-applied\n');
    expect((await k.json(['deploy', 'shared'])).spec.replicas).toBe(3);
    expect((await entry('shared', 'kubectl'))?.fieldsV1['f:spec']['f:replicas']).toBeUndefined();
    expect((await entry('shared', 'ci'))?.fieldsV1['f:spec']['f:replicas']).toEqual({});
  });

  it('upgrades a client-side applied object: no conflict with kubectl-client-side-apply, whose fields move to kubectl', async () => {
    expect((await k.ok(['apply', '-f', '-'], { stdin: webYaml('upgraded') })).stdout).toBe('deployment.apps/upgraded created\n');
    expect((await managed('upgraded')).map((e) => `${e.manager}/${e.operation}`)).toEqual(['kubectl-client-side-apply/Update']);

    // Changed replicas and image, and the tier label dropped from the file.
    const applied = await ssa(webYaml('upgraded', { replicas: 4, image: 'nginx:1.26', tier: false }));
    expect(applied.stdout).toBe('deployment.apps/upgraded serverside-applied\n');
    const live = await k.json(['deploy', 'upgraded']);
    expect(live.spec.replicas).toBe(4);
    expect(live.spec.template.spec.containers[0].image).toBe('nginx:1.26');
    expect(live.metadata.labels).toEqual({ app: 'upgraded' });
    // kubectl saved the annotation under kubectl-last-applied, then migrated the client-side
    // manager's fields into its own Apply entry; the server kept the annotation up to date.
    expect((await managed('upgraded')).map((e) => `${e.manager}/${e.operation}`).sort()).toEqual(['kubectl-last-applied/Apply', 'kubectl/Apply']);
    const lastApplied = JSON.parse(live.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
    expect(lastApplied.spec.replicas).toBe(4);

    // Client-side apply still works on the upgraded object.
    const back = await k.ok(['apply', '-f', '-'], { stdin: webYaml('upgraded', { replicas: 5, image: 'nginx:1.26', tier: false }) });
    expect(back.stdout).toBe('deployment.apps/upgraded configured\n');
    expect((await k.json(['deploy', 'upgraded'])).spec.replicas).toBe(5);
  });

  it('get hides managedFields unless --show-managed-fields', async () => {
    await ssa(deploymentYaml('hidden'));
    const plain = (await k.ok(['get', 'deploy', 'hidden', '-o', 'yaml'])).stdout;
    expect(plain).not.toContain('managedFields');
    const shown = (await k.ok(['get', 'deploy', 'hidden', '-o', 'yaml', '--show-managed-fields'])).stdout;
    expect(shown).toMatch(/^ {2}managedFields:\n {2}- apiVersion: apps\/v1\n {4}fieldsType: FieldsV1\n/m);
    expect(shown).toMatch(/^ {4}manager: kubectl\n {4}operation: Apply\n {4}time: "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"$/m);
  });

  it('edit removes an env var the editor deleted and records kubectl-edit as owner of what it changed', async () => {
    await k.apply(webYaml('edited'));
    const dir = join(k.cluster().dir, 'editors');
    mkdirSync(dir, { recursive: true });
    const editor = join(dir, 'drop-env-b.sh');
    writeFileSync(editor, '#!/bin/sh\nsed -i -e \'/- name: B/,+1d\' -e \'s/value: "1"/value: "3"/\' "$1"\n');
    chmodSync(editor, 0o755);
    expect((await k.ok(['edit', 'deploy', 'edited'], { env: { KUBE_EDITOR: editor } })).stdout).toBe('deployment.apps/edited edited\n');
    expect((await k.json(['deploy', 'edited'])).spec.template.spec.containers[0].env).toEqual([{ name: 'A', value: '3' }]);
    // A removal leaves no owner behind; the changed value is kubectl-edit's now.
    const edit = await entry('edited', 'kubectl-edit', 'Update');
    expect(container(edit?.fieldsV1)).toEqual({ 'f:env': { 'k:{"name":"A"}': { 'f:value': {} } } });
    expect(container((await entry('edited', 'kubectl-client-side-apply', 'Update'))?.fieldsV1)['f:env']).not.toHaveProperty('k:{"name":"B"}');
  });

  it('apply switching the strategy to Recreate clears rollingUpdate ($retainKeys)', async () => {
    await k.apply(deploymentYaml('recreated'));
    const recreate = deploymentYaml('recreated').replace('spec:\n  replicas: 2\n', 'spec:\n  replicas: 2\n  strategy:\n    type: Recreate\n');
    expect((await k.ok(['apply', '-f', '-'], { stdin: recreate })).stdout).toBe('deployment.apps/recreated configured\n');
    expect((await k.json(['deploy', 'recreated'])).spec.strategy).toEqual({ type: 'Recreate' });
  });
});
