/**
 * The real kubectl writing manifests: create -f, client-side apply (created, unchanged,
 * configured, removed fields), server-side validation errors and the HPA v1/v2 round trip.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findKubectlBinaries, needsOpenApiV2, requireKubectl } from '../support/kubectl.js';
import { configMapYaml, deploymentYaml, tableRows, useKubectlCluster } from './fixture.js';

// Without any kubectl (a machine without it) the file reports one skipped test instead of failing.
const binaries = findKubectlBinaries();
// No kubectl is a failure, not a skip: the kubectl-facing behaviour is part of the product.
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

describe.each(binaries)('$label: create and apply', (binary) => {
  const k = useKubectlCluster(binary);
  /** Writes a manifest file in the cluster's private dir (kubectl prints file names in errors). */
  const manifest = (name: string, text: string) => {
    const dir = join(k.cluster().dir, 'manifests');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('create -f creates a Deployment, a Service and a ConfigMap', async () => {
    const path = manifest('create.yaml', `${deploymentYaml('web')}---\n${serviceYaml('web')}---\n${configMapYaml('web-config')}`);
    const { stdout, stderr } = await k.ok(['create', '-f', path]);
    expect(stdout).toBe('deployment.apps/web created\nservice/web created\nconfigmap/web-config created\n');
    expect(stderr).toBe('');
    const deployment = await k.json(['deploy', 'web']);
    expect(deployment.metadata.generation).toBe(1);
    expect(deployment.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration']).toBeUndefined();
    const service = await k.json(['svc', 'web']);
    expect(service.spec).toMatchObject({ type: 'ClusterIP', ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }] });
    expect((await k.json(['cm', 'web-config'])).data).toEqual({ key: 'value' });

    const again = await k.run(['create', '-f', path]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Error from server (AlreadyExists): error when creating "${path}": deployments.apps "web" already exists`);
    expect(again.stderr).toContain(`Error from server (AlreadyExists): error when creating "${path}": configmaps "web-config" already exists`);

    const deleted = await k.ok(['delete', '-f', path]);
    expect(deleted.stdout).toBe('deployment.apps "web" deleted\nservice "web" deleted\nconfigmap "web-config" deleted\n');
    expect((await k.run(['get', 'svc', 'web'])).stderr.trim()).toBe('Error from server (NotFound): services "web" not found');
  });

  it('apply creates, then reports unchanged, then configured after an image change', async () => {
    const first = await k.ok(['apply', '-f', '-'], { stdin: FULL_DEPLOYMENT });
    expect(first.stdout).toBe('deployment.apps/applied created\n');
    const created = await k.json(['deploy', 'applied']);
    expect(JSON.parse(created.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'])).toMatchObject({
      kind: 'Deployment',
      metadata: { name: 'applied' },
    });

    const second = await k.ok(['apply', '-f', '-'], { stdin: FULL_DEPLOYMENT });
    expect(second.stdout).toBe('deployment.apps/applied unchanged\n');
    expect((await k.json(['deploy', 'applied'])).metadata.resourceVersion).toBe(created.metadata.resourceVersion);

    const third = await k.ok(['apply', '-f', '-'], { stdin: FULL_DEPLOYMENT.replace('image: nginx:1.25', 'image: nginx:1.26') });
    expect(third.stdout).toBe('deployment.apps/applied configured\n');
    const configured = await k.json(['deploy', 'applied']);
    expect(configured.spec.template.spec.containers[0].image).toBe('nginx:1.26');
    expect(configured.metadata.generation).toBe(2);
    // The rest of the container survived the strategic merge.
    expect(configured.spec.template.spec.containers[0].env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ]);
  });

  it('apply sends strategic merge patches: a re-applied PodDisruptionBudget is unchanged', async () => {
    // kubectl picks the patch type from the kind's PATCH in the OpenAPI documents; with a
    // JSON merge patch, what the server defaulted reads as a change on every apply.
    const path = manifest('smp.yaml', PDB);
    expect((await k.ok(['apply', '-f', path])).stdout).toBe('poddisruptionbudget.policy/smp created\n');
    expect((await k.ok(['apply', '-f', path])).stdout).toBe('poddisruptionbudget.policy/smp unchanged\n');
  });

  it('apply removes a container port and an env var that left the file', async () => {
    await k.ok(['apply', '-f', '-'], { stdin: FULL_DEPLOYMENT.replace(/applied/g, 'pruned') });
    const before = (await k.json(['deploy', 'pruned'])).spec.template.spec.containers[0];
    expect(before.ports.map((p: any) => p.containerPort)).toEqual([80, 8080]);

    const trimmed = FULL_DEPLOYMENT.replace(/applied/g, 'pruned')
      .replace('        - containerPort: 8080\n          name: alt\n', '')
      .replace('        - name: B\n          value: "2"\n', '');
    const result = await k.ok(['apply', '-f', '-'], { stdin: trimmed });
    expect(result.stdout).toBe('deployment.apps/pruned configured\n');
    const after = (await k.json(['deploy', 'pruned'])).spec.template.spec.containers[0];
    expect(after.ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
    expect(after.env).toEqual([{ name: 'A', value: '1' }]);

    // Dropping the last env var removes the field.
    const result2 = await k.ok(['apply', '-f', '-'], { stdin: trimmed.replace('        env:\n        - name: A\n          value: "1"\n', '') });
    expect(result2.stdout).toBe('deployment.apps/pruned configured\n');
    expect((await k.json(['deploy', 'pruned'])).spec.template.spec.containers[0].env).toBeUndefined();
  });

  it('apply of a ConfigMap adds, changes and removes data keys', async () => {
    expect((await k.apply(configMapYaml('settings', { a: '1', b: '2' }))).stdout).toBe('configmap/settings created\n');
    expect((await k.apply(configMapYaml('settings', { a: '1', c: '3' }))).stdout).toBe('configmap/settings configured\n');
    expect((await k.json(['cm', 'settings'])).data).toEqual({ a: '1', c: '3' });
  });

  it('create -f of an invalid Deployment prints the Invalid status and exits 1', async () => {
    const result = await k.run(['create', '-f', '-'], {
      stdin: deploymentYaml('bad').replace('      labels:\n        app: bad\n    spec:', '      labels:\n        app: other\n    spec:'),
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^The Deployment "bad" is invalid: spec\.template\.metadata\.labels: Invalid value: .*`selector` does not match template `labels`\n$/,
    );
    expect((await k.run(['get', 'deploy', 'bad'])).code).toBe(1);
  });

  // kubectl < 1.27 learns server-side validation from /openapi/v2 only; no such kubectl is installed to prove it (see needsOpenApiV2).
  it.skipIf(needsOpenApiV2(binary))('create -f with an unknown field is a strict decoding error', async () => {
    const path = manifest('unknown.yaml', configMapYaml('unknown').replace('\ndata:', '\nbogus: 1\ndata:'));
    const result = await k.run(['create', '-f', path]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `Error from server (BadRequest): error when creating "${path}": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus"`,
    );

    const nested = await k.run(['apply', '-f', '-'], { stdin: deploymentYaml('nested').replace('  replicas: 2\n', '  replicas: 2\n  replica: 3\n') });
    expect(nested.code).toBe(1);
    expect(nested.stderr).toContain('Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"');

    const lenient = await k.ok(['create', '--validate=false', '-f', path]);
    expect(lenient.stdout).toBe('configmap/unknown created\n');
  });

  it('apply --server-side creates and updates', async () => {
    const created = await k.ok(['apply', '--server-side', '-f', '-'], { stdin: deploymentYaml('ssa') });
    expect(created.stdout).toBe('deployment.apps/ssa serverside-applied\n');
    const updated = await k.ok(['apply', '--server-side', '-f', '-'], { stdin: deploymentYaml('ssa', { replicas: 3 }) });
    expect(updated.stdout).toBe('deployment.apps/ssa serverside-applied\n');
    expect((await k.json(['deploy', 'ssa'])).spec.replicas).toBe(3);
  });

  // More in server-side-apply.test.ts (field ownership, --force-conflicts, the upgrade from
  // client-side apply).
  it('apply --server-side by a second manager conflicts on a field the first one owns', async () => {
    await k.ok(['apply', '--server-side', '-f', '-'], { stdin: deploymentYaml('owned') });
    const result = await k.run(['apply', '--server-side', '--field-manager=other', '-f', '-'], { stdin: deploymentYaml('owned', { replicas: 3 }) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: Apply failed with 1 conflict: conflict with "kubectl": \.spec\.replicas\n/);
    expect((await k.json(['deploy', 'owned'])).spec.replicas).toBe(2);
  });

  it('an autoscaling/v1 HPA is served as autoscaling/v2 and as v1', async () => {
    await k.apply(deploymentYaml('scaled'));
    expect((await k.ok(['create', '-f', '-'], { stdin: HPA_V1 })).stdout).toBe('horizontalpodautoscaler.autoscaling/scaled created\n');

    const rows = tableRows((await k.ok(['get', 'hpa'])).stdout);
    expect(rows[0]).toEqual(['NAME', 'REFERENCE', 'TARGETS', 'MINPODS', 'MAXPODS', 'REPLICAS', 'AGE']);
    expect(rows[1]).toEqual(['scaled', 'Deployment/scaled', 'cpu: <unknown>/80%', '2', '5', '0', expect.stringMatching(/^\d+s$/)]);

    // kubectl ≥ 1.29 drops the version of a short name (`hpa.v1.autoscaling` reads v2), so the
    // v1 view is asked for by the full resource name.
    const v1 = (await k.ok(['get', 'horizontalpodautoscalers.v1.autoscaling', 'scaled', '-o', 'yaml'])).stdout;
    expect(v1).toMatch(/^apiVersion: autoscaling\/v1\nkind: HorizontalPodAutoscaler\n/);
    expect(v1).toMatch(/^ {2}targetCPUUtilizationPercentage: 80$/m);

    const v2 = await k.json(['hpa', 'scaled']);
    expect(v2.apiVersion).toBe('autoscaling/v2');
    expect(v2.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
  });
});

function serviceYaml(name: string): string {
  return `apiVersion: v1
kind: Service
metadata:
  name: ${name}
spec:
  selector:
    app: ${name}
  ports:
  - port: 80
`;
}

const FULL_DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: applied
spec:
  replicas: 2
  selector:
    matchLabels:
      app: applied
  template:
    metadata:
      labels:
        app: applied
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
        ports:
        - containerPort: 80
        - containerPort: 8080
          name: alt
        env:
        - name: A
          value: "1"
        - name: B
          value: "2"
`;

const HPA_V1 = `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: scaled
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: scaled
  minReplicas: 2
  maxReplicas: 5
  targetCPUUtilizationPercentage: 80
`;

const PDB = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: smp
spec:
  minAvailable: 1
  selector:
    matchLabels:
      app: smp
`;
