/** PATCH in its four content types with the bodies kubectl sends (docs/kubectl-wire.md,
 * "Request bodies kubectl sends"), the /scale subresource, and autoscaling v1 ⇄ v2 conversion
 * of HPAs. */
import { beforeEach, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { deployment, paths } from '../support/objects.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const APPLY = 'application/apply-patch+yaml';

describe('PATCH and subresources', () => {
  const cluster = useTestCluster();
  const url = (path: string) => `${cluster.url}${path}`;
  const web = () => url(paths.deployment('web'));
  const patch = (target: string, body: unknown, contentType: string) => request(target, { method: 'PATCH', body, contentType });

  beforeEach(async () => {
    const body = deployment('web');
    body.spec.template.spec.containers = [
      {
        name: 'nginx',
        image: 'nginx:1.25',
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
      },
      { name: 'sidecar', image: 'busybox:1.36' },
    ];
    expect((await request(url(paths.deployments()), { method: 'POST', body })).status).toBe(201);
  });

  describe('merge patch (label, annotate, patch --type=merge)', () => {
    it('adds and removes labels as kubectl label does', async () => {
      const added = await patch(`${web()}?fieldManager=kubectl-label`, { metadata: { labels: { env: 'prod' } } }, MERGE);
      expect(added.status).toBe(200);
      expect(added.body.metadata.labels).toEqual({ app: 'web', env: 'prod' });
      const removed = await patch(web(), { metadata: { labels: { env: null } } }, MERGE);
      expect(removed.body.metadata.labels).toEqual({ app: 'web' });
    });

    it('replaces lists wholesale', async () => {
      const res = await patch(web(), { spec: { template: { spec: { containers: [{ name: 'only', image: 'nginx:1.27' }] } } } }, MERGE);
      expect(res.status).toBe(200);
      expect(res.body.spec.template.spec.containers.map((c: any) => c.name)).toEqual(['only']);
      expect(res.body.spec.template.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
    });

    it('answers 404 for a missing object', async () => {
      const res = await patch(url(paths.deployment('nope')), { spec: { replicas: 1 } }, MERGE);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('deployments.apps "nope" not found');
    });
  });

  describe('JSON patch (rollout undo, client-node default)', () => {
    it('replaces /spec/template and /metadata/annotations as rollout undo does', async () => {
      await patch(web(), { metadata: { annotations: { 'deployment.kubernetes.io/revision': '2', keep: 'me' } } }, MERGE);
      const template = {
        metadata: { labels: { app: 'web' }, annotations: { 'kubernetes.io/change-cause': 'v1' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.24' }] },
      };
      const res = await patch(
        web(),
        [
          { op: 'replace', path: '/spec/template', value: template },
          { op: 'replace', path: '/metadata/annotations', value: { 'deployment.kubernetes.io/revision': '2', 'kubernetes.io/change-cause': 'v1' } },
        ],
        JSON_PATCH,
      );
      expect(res.status).toBe(200);
      expect(res.body.spec.template.spec.containers).toHaveLength(1);
      expect(res.body.spec.template.spec.containers[0]).toMatchObject({ name: 'nginx', image: 'nginx:1.24', imagePullPolicy: 'IfNotPresent' });
      expect(res.body.spec.template.spec.restartPolicy).toBe('Always');
      expect(res.body.metadata.annotations).toEqual({ 'deployment.kubernetes.io/revision': '2', 'kubernetes.io/change-cause': 'v1' });
      expect(res.body.metadata.generation).toBe(2);
    });

    it('supports add, remove, test, move and copy', async () => {
      const res = await patch(
        web(),
        [
          { op: 'test', path: '/spec/replicas', value: 2 },
          { op: 'add', path: '/metadata/labels/tier', value: 'fe' },
          { op: 'copy', from: '/metadata/labels/tier', path: '/metadata/labels/copy' },
          { op: 'move', from: '/metadata/labels/copy', path: '/metadata/labels/moved' },
          { op: 'remove', path: '/spec/template/spec/containers/1' },
          { op: 'add', path: '/spec/template/spec/containers/0/env/-', value: { name: 'C', value: '3' } },
        ],
        JSON_PATCH,
      );
      expect(res.status).toBe(200);
      expect(res.body.metadata.labels).toEqual({ app: 'web', tier: 'fe', moved: 'fe' });
      expect(res.body.spec.template.spec.containers.map((c: any) => c.name)).toEqual(['nginx']);
      expect(res.body.spec.template.spec.containers[0].env.map((e: any) => e.name)).toEqual(['A', 'B', 'C']);
    });

    it('answers 422 for replace of a missing path, as evanphx/json-patch words it', async () => {
      const res = await patch(web(), [{ op: 'replace', path: '/metadata/annotations', value: { a: 'b' } }], JSON_PATCH);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        reason: 'Invalid',
        message: 'replace operation does not apply: doc is missing key: /metadata/annotations: missing value',
      });
    });

    it('answers 400 when the patch renames the object', async () => {
      const res = await patch(web(), [{ op: 'replace', path: '/metadata/name', value: 'other' }], JSON_PATCH);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('the name of the object (other) does not match the name on the URL (web)');
      expect((await request(url(paths.deployment('other')))).status).toBe(404);
    });

    it('fails as a whole when one operation fails', async () => {
      const before = (await request(web())).body;
      const failedTest = await patch(
        web(),
        [
          { op: 'add', path: '/metadata/labels/x', value: 'y' },
          { op: 'test', path: '/spec/replicas', value: 7 },
        ],
        JSON_PATCH,
      );
      expect(failedTest.status).toBeGreaterThanOrEqual(400);
      expect(failedTest.status).toBeLessThan(500);
      expect(failedTest.body.kind).toBe('Status');
      const missing = await patch(web(), [{ op: 'remove', path: '/metadata/nothing/here' }], JSON_PATCH);
      expect(missing.status).toBeGreaterThanOrEqual(400);
      expect(missing.status).toBeLessThan(500);
      expect((await request(web())).body).toEqual(before);
    });
  });

  describe('strategic merge patch (apply, edit, rollout restart, patch)', () => {
    it('merges containers by name with $setElementOrder, as re-apply sends', async () => {
      const res = await patch(
        `${web()}?fieldManager=kubectl-client-side-apply&fieldValidation=Strict`,
        {
          metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"kind":"Deployment"}\n' } },
          spec: {
            template: {
              spec: {
                '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'nginx' }],
                containers: [{ image: 'nginx:1.26', name: 'nginx' }],
              },
            },
          },
        },
        STRATEGIC,
      );
      expect(res.status).toBe(200);
      const containers = res.body.spec.template.spec.containers;
      expect(containers.map((c: any) => c.name)).toEqual(['sidecar', 'nginx']);
      expect(containers[1].image).toBe('nginx:1.26');
      expect(containers[1].env).toEqual([
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
      ]);
      expect(containers[0].image).toBe('busybox:1.36');
      expect(res.body.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toBe('{"kind":"Deployment"}\n');
      expect(JSON.stringify(res.body)).not.toContain('$setElementOrder');
      expect(JSON.stringify((await request(web())).body)).not.toContain('$setElementOrder');
    });

    it('adds the restartedAt template annotation as rollout restart does', async () => {
      const at = '2026-11-22T02:13:25Z';
      const res = await patch(
        `${web()}?fieldManager=kubectl-rollout`,
        { spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': at } } } } },
        STRATEGIC,
      );
      expect(res.status).toBe(200);
      expect(res.body.spec.template.metadata).toEqual({ labels: { app: 'web' }, annotations: { 'kubectl.kubernetes.io/restartedAt': at } });
      expect(res.body.spec.template.spec.containers).toHaveLength(2);
      expect(res.body.metadata.generation).toBe(2);
    });

    it('deletes a container with $patch: delete', async () => {
      const res = await patch(web(), { spec: { template: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } } } }, STRATEGIC);
      expect(res.status).toBe(200);
      expect(res.body.spec.template.spec.containers.map((c: any) => c.name)).toEqual(['nginx']);
    });

    it('removes an env var as apply does, and updates another in place', async () => {
      const res = await patch(
        web(),
        {
          spec: {
            template: {
              spec: {
                '$setElementOrder/containers': [{ name: 'nginx' }, { name: 'sidecar' }],
                containers: [
                  {
                    name: 'nginx',
                    '$setElementOrder/env': [{ name: 'B' }],
                    env: [
                      { $patch: 'delete', name: 'A' },
                      { name: 'B', value: 'two' },
                    ],
                  },
                ],
              },
            },
          },
        },
        STRATEGIC,
      );
      expect(res.status).toBe(200);
      expect(res.body.spec.template.spec.containers[0].env).toEqual([{ name: 'B', value: 'two' }]);
      expect(res.body.spec.template.spec.containers[1].name).toBe('sidecar');
    });

    it('drops rollingUpdate with $retainKeys when switching to Recreate', async () => {
      const res = await patch(web(), { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, STRATEGIC);
      expect(res.status).toBe(200);
      expect(res.body.spec.strategy).toEqual({ type: 'Recreate' });
    });

    it('removes a finalizer with $deleteFromPrimitiveList and replaces a map with $patch: replace', async () => {
      await patch(web(), { metadata: { finalizers: ['example.com/a', 'example.com/b'] } }, MERGE);
      const res = await patch(
        web(),
        { metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/a'], labels: { $patch: 'replace', only: 'this' } } },
        STRATEGIC,
      );
      expect(res.status).toBe(200);
      expect(res.body.metadata.finalizers).toEqual(['example.com/b']);
      expect(res.body.metadata.labels).toEqual({ only: 'this' });
      await patch(web(), { metadata: { finalizers: null } }, MERGE);
    });

    it('answers an error Status for a list entry without its merge key', async () => {
      const res = await patch(web(), { spec: { template: { spec: { containers: [{ image: 'nginx:1.27' }] } } } }, STRATEGIC);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.message).toContain('does not contain declared merge key: name');
    });
  });

  describe('server-side apply', () => {
    it('creates an absent object (201) and merges into a present one (200)', async () => {
      const manifest = deployment('api', 1);
      const created = await patch(`${url(paths.deployment('api'))}?fieldManager=kubectl&fieldValidation=Strict&force=false`, manifest, APPLY);
      expect(created.status).toBe(201);
      expect(created.body.metadata.generation).toBe(1);
      const applied = await request(`${url(paths.deployment('api'))}?fieldManager=kubectl-last-applied`, {
        method: 'PATCH',
        raw: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\n  annotations:\n    note: only-this\n',
        contentType: APPLY,
      });
      expect(applied.status).toBe(200);
      expect(applied.body.spec.replicas).toBe(1);
      expect(applied.body.spec.template.spec.containers[0].name).toBe('nginx');
      expect(applied.body.metadata.annotations).toEqual({ note: 'only-this' });
    });
  });

  describe('/scale', () => {
    const scale = () => `${web()}/scale`;

    it('GET answers the autoscaling/v1 Scale of the deployment', async () => {
      await patch(`${web()}/status`, { status: { replicas: 1 } }, MERGE);
      const current = (await request(web())).body;
      const res = await request(scale());
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        metadata: {
          name: 'web',
          namespace: 'default',
          uid: current.metadata.uid,
          resourceVersion: current.metadata.resourceVersion,
          creationTimestamp: current.metadata.creationTimestamp,
        },
        spec: { replicas: 2 },
        status: { replicas: 1, selector: 'app=web' },
      });
    });

    it('renders a selector with expressions as its canonical string', async () => {
      const body = deployment('expr');
      body.spec.selector.matchExpressions = [
        { key: 'tier', operator: 'In', values: ['b', 'a'] },
        { key: 'canary', operator: 'DoesNotExist' },
      ];
      body.spec.template.metadata.labels.tier = 'a';
      expect((await request(url(paths.deployments()), { method: 'POST', body })).status).toBe(201);
      const res = await request(`${url(paths.deployment('expr'))}/scale`);
      expect(res.body.status.selector).toBe('app=expr,!canary,tier in (a,b)');
    });

    it('PUT with the fetched Scale sets spec.replicas (kubectl scale --current-replicas)', async () => {
      const current = (await request(scale())).body;
      const res = await request(scale(), { method: 'PUT', body: { ...current, spec: { replicas: 5 } } });
      expect(res.status).toBe(200);
      expect(res.body.kind).toBe('Scale');
      expect(res.body.spec.replicas).toBe(5);
      expect(Number(res.body.metadata.resourceVersion)).toBeGreaterThan(Number(current.metadata.resourceVersion));
      const dep = (await request(web())).body;
      expect(dep.spec.replicas).toBe(5);
      expect(dep.metadata.generation).toBe(2);
      expect(dep.metadata.resourceVersion).toBe(res.body.metadata.resourceVersion);
    });

    it('PUT with a stale Scale resourceVersion answers 409', async () => {
      const stale = (await request(scale())).body;
      await patch(web(), { metadata: { labels: { bump: '1' } } }, MERGE);
      const res = await request(scale(), { method: 'PUT', body: { ...stale, spec: { replicas: 5 } } });
      expect(res.status).toBe(409);
      expect(res.body.reason).toBe('Conflict');
      expect(res.body.message).toBe(
        'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again',
      );
      expect((await request(web())).body.spec.replicas).toBe(2);
    });

    it('PATCH with a merge patch (kubectl scale) and a strategic merge patch (Python client)', async () => {
      const merged = await patch(scale(), { spec: { replicas: 3 } }, MERGE);
      expect(merged.status).toBe(200);
      expect(merged.body).toMatchObject({ kind: 'Scale', spec: { replicas: 3 }, status: { selector: 'app=web' } });
      const strategic = await patch(scale(), { spec: { replicas: 4 } }, STRATEGIC);
      expect(strategic.status).toBe(200);
      expect(strategic.body.spec.replicas).toBe(4);
      const json = await patch(scale(), [{ op: 'replace', path: '/spec/replicas', value: 0 }], JSON_PATCH);
      expect(json.body.spec.replicas).toBe(0);
      expect((await request(web())).body.spec.replicas).toBe(0);
    });

    it('a PATCH to the current count is a no-op', async () => {
      const before = (await request(scale())).body;
      const res = await patch(scale(), { spec: { replicas: 2 } }, MERGE);
      expect(res.body.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    });

    it('answers 422 for negative replicas', async () => {
      const res = await patch(scale(), { spec: { replicas: -1 } }, MERGE);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        reason: 'Invalid',
        code: 422,
        message: 'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      });
      expect(res.body.details.causes).toEqual([
        { reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'spec.replicas' },
      ]);
      const put = await request(scale(), {
        method: 'PUT',
        body: { kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'web' }, spec: { replicas: -2 } },
      });
      expect(put.status).toBe(422);
      expect((await request(web())).body.spec.replicas).toBe(2);
    });

    it('is served for ReplicaSets and not for ConfigMaps', async () => {
      const rs = deployment('rs');
      rs.kind = 'ReplicaSet';
      delete rs.spec.strategy;
      expect((await request(url('/apis/apps/v1/namespaces/default/replicasets'), { method: 'POST', body: rs })).status).toBe(201);
      const res = await patch(url('/apis/apps/v1/namespaces/default/replicasets/rs/scale'), { spec: { replicas: 7 } }, MERGE);
      expect(res.status).toBe(200);
      expect(res.body.status.selector).toBe('app=rs');
      expect((await request(url(`${paths.configmap('c')}/scale`))).status).toBe(404);
    });
  });

  describe('HorizontalPodAutoscaler conversion', () => {
    const v1 = (name = '') => url(`/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers${name ? `/${name}` : ''}`);
    const v2 = (name = '') => url(`/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers${name ? `/${name}` : ''}`);
    const autoscaleBody = {
      kind: 'HorizontalPodAutoscaler',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'web', creationTimestamp: null },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 80 },
      status: { currentReplicas: 0, desiredReplicas: 0 },
    };

    it('reads an autoscaling/v1 HPA (kubectl autoscale) back as autoscaling/v2', async () => {
      const created = await request(`${v1()}?fieldManager=kubectl-autoscale`, { method: 'POST', body: autoscaleBody });
      expect(created.status).toBe(201);
      expect(created.body.apiVersion).toBe('autoscaling/v1');
      expect(created.body.spec.targetCPUUtilizationPercentage).toBe(80);
      const res = await request(v2('web'));
      expect(res.status).toBe(200);
      expect(res.body.apiVersion).toBe('autoscaling/v2');
      expect(res.body.metadata.uid).toBe(created.body.metadata.uid);
      expect(res.body.spec).toMatchObject({
        scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
        minReplicas: 2,
        maxReplicas: 5,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
      });
      expect(res.body.spec.targetCPUUtilizationPercentage).toBeUndefined();
      const list = await request(v2());
      expect(list.body.items.map((i: any) => [i.apiVersion, i.metadata.name])).toEqual([['autoscaling/v2', 'web']]);
    });

    it('reads an autoscaling/v2 HPA as autoscaling/v1, keeping other metrics in the round-trip annotation', async () => {
      const memory = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } };
      const body = {
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'web' },
        spec: {
          scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
          minReplicas: 1,
          maxReplicas: 4,
          metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }, memory],
        },
      };
      expect((await request(v2(), { method: 'POST', body })).status).toBe(201);
      const res = await request(v1('web'));
      expect(res.status).toBe(200);
      expect(res.body.apiVersion).toBe('autoscaling/v1');
      expect(res.body.spec).toEqual({
        scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
        minReplicas: 1,
        maxReplicas: 4,
        targetCPUUtilizationPercentage: 60,
      });
      expect(JSON.parse(res.body.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics'])).toHaveLength(1);

      // A v1 client writing the object back (kubectl edit on v1) keeps the v2-only metric.
      const put = await request(v1('web'), { method: 'PUT', body: { ...res.body, spec: { ...res.body.spec, maxReplicas: 6 } } });
      expect(put.status).toBe(200);
      const again = await request(v2('web'));
      expect(again.body.spec.maxReplicas).toBe(6);
      // As in Kubernetes' v1 → v2 conversion, metrics from the annotation come first, CPU last.
      expect(again.body.spec.metrics).toEqual([memory, body.spec.metrics[0]]);
      expect(again.body.metadata.annotations ?? {}).not.toHaveProperty('autoscaling.alpha.kubernetes.io/metrics');
    });
  });
});
