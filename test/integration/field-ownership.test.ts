/**
 * Field ownership over HTTP: managedFields on every kind of write (create, PUT, PATCH,
 * /status, /scale), server-side apply's create, conflicts, force, option checks and no-op
 * applies — and the seed document's drill "two controllers fighting over the same field":
 * the real HPA controller owns a Deployment's spec.replicas through /scale, and the real
 * kubectl's `apply --server-side` of a manifest that also sets replicas is refused with a
 * conflict naming it (docs/field-ownership.md walks through the same steps).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import { registerHpaController } from '../../controllers/hpa/index.js';
import { createKubeClient } from '../../controllers/runtime/client/http-client.js';
import { createLogger } from '../../controllers/runtime/logger.js';
import { createManager } from '../../controllers/runtime/manager.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { requireKubectl, runKubectl } from '../support/kubectl.js';
import { deployment, paths } from '../support/objects.js';
import type { TestCluster } from '../support/test-cluster.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';

interface Entry {
  manager: string;
  operation: string;
  apiVersion: string;
  time?: string;
  subresource?: string;
  fieldsV1: Record<string, any>;
}

describe('managedFields over HTTP', () => {
  const cluster = useTestCluster();
  const web = (suffix = '') => `${cluster.url}${paths.deployment('web')}${suffix}`;
  const settings = () => `${cluster.url}/api/v1/namespaces/default/configmaps/settings`;
  const entries = async (): Promise<Entry[]> => (await request(web())).body.metadata.managedFields;
  const owners = async () => (await entries()).map((e) => [e.manager, e.operation, e.subresource ?? ''].join('/'));

  it('records every write: create, PUT (manager from the User-Agent), merge patch, /status and /scale', async () => {
    const created = await request(`${cluster.url}${paths.deployments()}?fieldManager=creator`, { method: 'POST', body: deployment('web') });
    expect(created.body.metadata.managedFields).toEqual([
      expect.objectContaining({ manager: 'creator', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', time: expect.stringMatching(/Z$/) }),
    ]);

    const current = created.body;
    current.spec.minReadySeconds = 5;
    const put = await fetch(web(), {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'my-tool/1.0 (linux)' },
      body: JSON.stringify(current),
    });
    expect(put.status).toBe(200);
    await request(`${web()}?fieldManager=kubectl-label`, { method: 'PATCH', body: { metadata: { labels: { env: 'prod' } } }, contentType: MERGE });
    await request(`${web('/status')}?fieldManager=status-writer`, { method: 'PATCH', body: { status: { replicas: 1 } }, contentType: MERGE });
    await request(`${web('/scale')}?fieldManager=scaler`, { method: 'PATCH', body: { spec: { replicas: 4 } }, contentType: MERGE });

    expect((await owners()).sort()).toEqual([
      'creator/Update/',
      'kubectl-label/Update/',
      'my-tool/Update/',
      'scaler/Update/scale',
      'status-writer/Update/status',
    ]);
    const byManager = Object.fromEntries((await entries()).map((e) => [e.manager, e.fieldsV1]));
    expect(byManager['my-tool']).toEqual({ 'f:spec': { 'f:minReadySeconds': {} } });
    expect(byManager['kubectl-label']).toEqual({ 'f:metadata': { 'f:labels': { 'f:env': {} } } });
    expect(byManager['status-writer']).toEqual({ 'f:status': { 'f:replicas': {} } });
    expect(byManager['scaler']).toEqual({ 'f:spec': { 'f:replicas': {} } });
    expect(byManager['creator']?.['f:spec']['f:replicas']).toBeUndefined();
  });

  it('creates an object by apply (201) with YAML or JSON bodies, and answers 409 on a conflict, exactly as kube-apiserver words it', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  color: blue\n';
    const created = await request(`${settings()}?fieldManager=team-a`, { method: 'PATCH', raw: yaml, contentType: APPLY });
    expect(created.status).toBe(201);
    expect(created.body.metadata.managedFields).toEqual([
      { manager: 'team-a', operation: 'Apply', apiVersion: 'v1', time: expect.any(String), fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:color': {} } } },
    ]);

    const json = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { color: 'green' } };
    const conflict = await request(`${settings()}?fieldManager=team-b`, { method: 'PATCH', body: json, contentType: APPLY });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "team-a": .data.color',
      reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "team-a"', field: '.data.color' }] },
      code: 409,
    });

    const forced = await request(`${settings()}?fieldManager=team-b&force=true`, { method: 'PATCH', body: json, contentType: APPLY });
    expect(forced.status).toBe(200);
    expect(forced.body.data).toEqual({ color: 'green' });
    expect(forced.body.metadata.managedFields.map((e: Entry) => e.manager)).toEqual(['team-b']);
  });

  it('checks PatchOptions: apply needs a fieldManager, force is for apply only', async () => {
    await request(`${cluster.url}${paths.deployments()}`, { method: 'POST', body: deployment('web') });
    const noManager = await request(web(), { method: 'PATCH', body: deployment('web'), contentType: APPLY });
    expect(noManager.status).toBe(422);
    expect(noManager.body.message).toBe('PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    const force = await request(`${web()}?force=true`, { method: 'PATCH', body: { spec: { replicas: 3 } }, contentType: MERGE });
    expect(force.status).toBe(422);
    expect(force.body.message).toBe('PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
    const misnamed = await request(`${cluster.url}${paths.deployment('api')}?fieldManager=x`, {
      method: 'PATCH',
      body: deployment('other'),
      contentType: APPLY,
    });
    expect(misnamed.status).toBe(400);
    expect(misnamed.body.message).toBe('the name of the object (other) does not match the name on the URL (api)');
  });

  it('applies to /status as a status manager, and keeps a no-op apply a no-op', async () => {
    const manifest = deployment('web');
    const first = await request(`${web()}?fieldManager=deployer`, { method: 'PATCH', body: manifest, contentType: APPLY });
    expect(first.status).toBe(201);
    const again = await request(`${web()}?fieldManager=deployer`, { method: 'PATCH', body: manifest, contentType: APPLY });
    expect(again.body.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion);

    const status = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, status: { replicas: 2 } };
    const applied = await request(`${web('/status')}?fieldManager=reporter`, { method: 'PATCH', body: status, contentType: APPLY });
    expect(applied.status).toBe(200);
    expect(applied.body.status.replicas).toBe(2);
    expect((await entries()).find((e) => e.manager === 'reporter')).toMatchObject({
      operation: 'Apply',
      subresource: 'status',
      fieldsV1: { 'f:status': { 'f:replicas': {} } },
    });
  });
});

const kubectl = requireKubectl();

// The seed's drill needs the real kubectl; without one the block is skipped.
describe('the drill: an HPA and a manifest both set spec.replicas', () => {
  const cluster = useTestCluster();
  let stopHpa: (() => Promise<void>) | undefined;
  const run = (args: string[], stdin?: string) =>
    runKubectl(kubectl!, args, { kubeconfigPath: cluster.kubeconfigPath, cacheDir: `${cluster.dir}/kubectl-cache`, stdin });
  const replicasAndOwners = async () => {
    const live = JSON.parse((await run(['get', 'deploy', 'web', '-o', 'json', '--show-managed-fields'])).stdout);
    const owners = (live.metadata.managedFields as Entry[]).filter((e) => e.fieldsV1['f:spec']?.['f:replicas']).map((e) => e.manager);
    return { replicas: live.spec.replicas as number, owners };
  };

  beforeEach(async () => {
    stopHpa = startHpaController(cluster);
  });
  afterEach(async () => {
    await stopHpa?.();
  });

  it("refuses the apply naming the HPA's manager; without replicas it applies; --force-conflicts starts the fight", async () => {
    expect((await run(['apply', '--server-side', '-f', '-'], webYaml(2))).stdout).toBe('deployment.apps/web serverside-applied\n');
    expect((await run(['apply', '--server-side', '-f', '-'], HPA_YAML)).stdout).toBe('horizontalpodautoscaler.autoscaling/web serverside-applied\n');
    // Below minReplicas: the HPA scales to 3 through /scale and so owns spec.replicas.
    await eventually(async () => expect(await replicasAndOwners()).toEqual({ replicas: 3, owners: ['kubesim-hpa-controller'] }), { timeoutMs: 10_000 });

    const refused = await run(['apply', '--server-side', '-f', '-'], webYaml(2));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^error: Apply failed with 1 conflict: conflict with "kubesim-hpa-controller" with subresource "scale" using apps\/v1: \.spec\.replicas\nPlease review the fields above--they currently have other managers/,
    );
    expect(refused.stderr).toContain('--force-conflicts');

    // The fix the seed names: a manifest without replicas leaves the field to the HPA.
    expect((await run(['apply', '--server-side', '-f', '-'], webYaml(undefined))).code).toBe(0);
    expect(await replicasAndOwners()).toEqual({ replicas: 3, owners: ['kubesim-hpa-controller'] });

    // Forcing takes the field — and the HPA, a loop, takes it straight back: the flapping.
    expect((await run(['apply', '--server-side', '--force-conflicts', '-f', '-'], webYaml(2))).code).toBe(0);
    await eventually(async () => expect(await replicasAndOwners()).toEqual({ replicas: 3, owners: ['kubesim-hpa-controller'] }), { timeoutMs: 10_000 });
  });
});

/** startHpaController runs the real HPA controller as `kubesim up` does (its own process
 * there, so its User-Agent — and field manager — is kubesim-hpa-controller), with a cluster
 * clock 60× faster than wall time so its 15 s sync takes 250 ms. */
function startHpaController(cluster: TestCluster): () => Promise<void> {
  const client = createKubeClient({ server: cluster.url, userAgent: 'kubesim-hpa-controller/0.1' });
  const clock = createRealClock({ speed: 60 });
  const manager = createManager({ client, clock, logger: createLogger({ component: 'hpa', level: 'silent' }), component: 'hpa-controller' });
  registerHpaController(manager);
  const abort = new AbortController();
  const done = manager.start(abort.signal);
  return async () => {
    abort.abort();
    await done;
    client.close();
  };
}

function webYaml(replicas: number | undefined): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
${replicas === undefined ? '' : `  replicas: ${replicas}\n`}  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
`;
}

const HPA_YAML = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
  minReplicas: 3
  maxReplicas: 5
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 80
`;
