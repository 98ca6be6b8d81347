/** Create, read, update and delete through real HTTP, with Kubernetes' error bodies. */
import { describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { configMap, deployment, names, namespace, paths, pod } from '../support/objects.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RFC3339_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe('API CRUD', () => {
  const cluster = useTestCluster();
  const url = (path: string) => `${cluster.url}${path}`;

  describe('create', () => {
    it('answers 201 with server-set metadata, ignoring what the client sent for it', async () => {
      const body = deployment('web');
      body.metadata.uid = 'client-uid';
      body.metadata.resourceVersion = '999';
      body.metadata.creationTimestamp = '2000-01-01T00:00:00Z';
      body.metadata.generation = 7;
      const before = cluster.server.store.currentRevision;
      const res = await request(url(paths.deployments()), { method: 'POST', body });
      expect(res.status).toBe(201);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const meta = res.body.metadata;
      expect(res.body.kind).toBe('Deployment');
      expect(res.body.apiVersion).toBe('apps/v1');
      expect(meta.name).toBe('web');
      expect(meta.namespace).toBe('default');
      expect(meta.uid).toMatch(UUID);
      expect(meta.uid).not.toBe('client-uid');
      expect(meta.creationTimestamp).toMatch(RFC3339_SECONDS);
      expect(meta.creationTimestamp).not.toBe('2000-01-01T00:00:00Z');
      expect(Math.abs(Date.parse(meta.creationTimestamp) - Date.now())).toBeLessThan(5_000);
      expect(meta.resourceVersion).toBe(String(before + 1));
      expect(meta.generation).toBe(1);
      expect(res.body.status).toEqual({});
    });

    it('applies the Deployment and pod template defaults', async () => {
      const body = deployment('web');
      delete body.spec.replicas;
      const res = await request(url(paths.deployments()), { method: 'POST', body });
      expect(res.status).toBe(201);
      const spec = res.body.spec;
      expect(spec.replicas).toBe(1);
      expect(spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } });
      expect(spec.revisionHistoryLimit).toBe(10);
      expect(spec.progressDeadlineSeconds).toBe(600);
      const podSpec = spec.template.spec;
      expect(podSpec).toMatchObject({
        restartPolicy: 'Always',
        dnsPolicy: 'ClusterFirst',
        schedulerName: 'default-scheduler',
        terminationGracePeriodSeconds: 30,
        securityContext: {},
      });
      expect(podSpec.containers[0]).toMatchObject({
        imagePullPolicy: 'IfNotPresent',
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
      });
    });

    it('defaults imagePullPolicy to Always for :latest and untagged images', async () => {
      const body = pod(
        'p',
        {},
        {
          containers: [
            { name: 'a', image: 'nginx' },
            { name: 'b', image: 'nginx:latest', ports: [{ containerPort: 80 }] },
          ],
        },
      );
      const res = await request(url(paths.pods()), { method: 'POST', body });
      expect(res.status).toBe(201);
      expect(res.body.spec.containers.map((c: any) => c.imagePullPolicy)).toEqual(['Always', 'Always']);
      expect(res.body.spec.containers[1].ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
    });

    it('applies the Service defaults and allocates a cluster IP', async () => {
      const body = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } };
      const res = await request(url('/api/v1/namespaces/default/services'), { method: 'POST', body });
      expect(res.status).toBe(201);
      expect(res.body.spec).toMatchObject({ type: 'ClusterIP', sessionAffinity: 'None', ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }] });
      expect(res.body.spec.clusterIP).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
      expect(res.body.spec.clusterIPs).toEqual([res.body.spec.clusterIP]);
    });

    it('names an object from generateName with a 5-character random suffix', async () => {
      const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'cfg-' }, data: { a: 'b' } };
      const first = await request(url(paths.configmaps()), { method: 'POST', body });
      const second = await request(url(paths.configmaps()), { method: 'POST', body });
      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(first.body.metadata.name).toMatch(/^cfg-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(first.body.metadata.generateName).toBe('cfg-');
      expect(second.body.metadata.name).not.toBe(first.body.metadata.name);
      const got = await request(url(paths.configmap(first.body.metadata.name)));
      expect(got.status).toBe(200);
    });

    it('ignores unknown query parameters, as kubectl and client libraries send them', async () => {
      const res = await request(url(`${paths.configmaps()}?fieldManager=kubectl-create&fieldValidation=Strict&timeout=32s&pretty=true&bogus=1`), {
        method: 'POST',
        body: configMap('c'),
      });
      expect(res.status).toBe(201);
      const listed = await request(url(`${paths.configmaps()}?limit=500&timeout=32s&whatever=x`));
      expect(names(listed.body)).toEqual(['c']);
    });

    it('answers 409 AlreadyExists for a taken name', async () => {
      expect((await request(url(paths.deployments()), { method: 'POST', body: deployment('web') })).status).toBe(201);
      const res = await request(url(paths.deployments()), { method: 'POST', body: deployment('web') });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'deployments.apps "web" already exists',
        reason: 'AlreadyExists',
        details: { name: 'web', group: 'apps', kind: 'deployments' },
        code: 409,
      });
    });

    it('answers 404 when the namespace does not exist', async () => {
      const res = await request(url(paths.configmaps('nope')), { method: 'POST', body: configMap('c') });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'namespaces "nope" not found', code: 404 });
    });

    it('answers 400 when the body namespace differs from the URL', async () => {
      const body = configMap('c');
      body.metadata.namespace = 'kube-system';
      const res = await request(url(paths.configmaps()), { method: 'POST', body });
      expect(res.status).toBe(400);
      expect(res.body.reason).toBe('BadRequest');
      expect(res.body.message).toBe('the namespace of the provided object does not match the namespace sent on the request');
    });

    it('answers 403 Forbidden with a NamespaceTerminating cause in a terminating namespace', async () => {
      expect((await request(url(paths.namespaces()), { method: 'POST', body: namespace('doomed') })).status).toBe(201);
      const deleted = await request(url(paths.namespace('doomed')), { method: 'DELETE' });
      expect(deleted.status).toBe(200);
      const res = await request(url(paths.configmaps('doomed')), { method: 'POST', body: configMap('c') });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        kind: 'Status',
        status: 'Failure',
        reason: 'Forbidden',
        code: 403,
        message: 'configmaps "c" is forbidden: unable to create new content in namespace doomed because it is being terminated',
      });
      expect(res.body.details.causes).toEqual([
        { reason: 'NamespaceTerminating', message: 'namespace doomed is being terminated', field: 'metadata.namespace' },
      ]);
    });

    it('does not persist with dryRun=All but returns the would-be object', async () => {
      const before = cluster.server.store.currentRevision;
      const res = await request(url(`${paths.deployments()}?dryRun=All`), { method: 'POST', body: deployment('web') });
      expect(res.status).toBe(201);
      expect(res.body.metadata.name).toBe('web');
      expect(res.body.metadata.uid).toMatch(UUID);
      expect(res.body.spec.strategy.type).toBe('RollingUpdate');
      expect((await request(url(paths.deployment('web')))).status).toBe(404);
      expect(cluster.server.store.currentRevision).toBe(before);
    });

    it('rejects an unknown dryRun value', async () => {
      const res = await request(url(`${paths.configmaps()}?dryRun=Some`), { method: 'POST', body: configMap('c') });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid dry run value: "Some", supported values: All');
    });
  });

  describe('read', () => {
    it('gets an object exactly as it was created', async () => {
      const created = await request(url(paths.deployments()), { method: 'POST', body: deployment('web') });
      const got = await request(url(paths.deployment('web')));
      expect(got.status).toBe(200);
      expect(got.body).toEqual(created.body);
    });

    it('answers 404 NotFound naming the resource for a missing object', async () => {
      const res = await request(url(paths.deployment('x')));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'deployments.apps "x" not found',
        reason: 'NotFound',
        details: { name: 'x', group: 'apps', kind: 'deployments' },
        code: 404,
      });
      const core = await request(url(paths.pod('x')));
      expect(core.body.message).toBe('pods "x" not found');
      expect(core.body.details).toEqual({ name: 'x', group: '', kind: 'pods' });
    });

    it.each([
      '/apis/apps/v1/namespaces/default/widgets',
      '/apis/nope.example.com/v1/things',
      '/api/v2/pods',
      '/api/v1/namespaces/default/configmaps/c/nosuchsub',
      '/api/v1/namespaces/default/configmaps/c/status',
      '/not/an/api',
    ])('answers 404 for the unknown path %s', async (path) => {
      const res = await request(url(path));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'the server could not find the requested resource',
        reason: 'NotFound',
        details: {},
        code: 404,
      });
    });

    it('answers 405 MethodNotAllowed for a verb the path does not serve', async () => {
      for (const [method, path] of [
        ['POST', paths.configmap('c')],
        ['PUT', paths.configmaps()],
        ['PATCH', paths.configmaps()],
        ['DELETE', `${paths.pod('p')}/binding`],
      ] as const) {
        const res = await request(url(path), { method, body: {} });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'MethodNotAllowed', code: 405 });
      }
    });

    it('only lists on the all-namespaces path: no create, no deletecollection across namespaces', async () => {
      await request(url(paths.configmaps()), { method: 'POST', body: configMap('a') });
      for (const [method, body] of [
        ['POST', configMap('x')],
        ['POST', { ...configMap('x'), metadata: { name: 'x', namespace: 'default' } }],
        ['DELETE', undefined],
      ] as const) {
        const res = await request(url('/api/v1/configmaps'), { method, body });
        expect(res.status, method).toBe(405);
        expect(res.body.reason).toBe('MethodNotAllowed');
      }
      expect((await request(url('/apis/apps/v1/deployments'), { method: 'DELETE' })).status).toBe(405);
      expect(names((await request(url('/api/v1/configmaps'))).body)).toEqual(['a']);
      expect((await request(url('/api/v1/namespaces/default/services/kubernetes'))).status).toBe(200);
    });

    it('lists with kind, apiVersion and resourceVersion on the list and every item', async () => {
      await request(url(paths.configmaps()), { method: 'POST', body: configMap('b') });
      await request(url(paths.configmaps()), { method: 'POST', body: configMap('a') });
      const list = await request(url(paths.configmaps()));
      expect(list.status).toBe(200);
      expect(list.body.kind).toBe('ConfigMapList');
      expect(list.body.apiVersion).toBe('v1');
      expect(list.body.metadata.resourceVersion).toBe(String(cluster.server.store.currentRevision));
      expect(names(list.body)).toEqual(['a', 'b']);
      for (const item of list.body.items) expect([item.kind, item.apiVersion]).toEqual(['ConfigMap', 'v1']);
    });
  });

  describe('update', () => {
    it('replaces the object with PUT, bumping resourceVersion and generation', async () => {
      const created = await request(url(paths.deployments()), { method: 'POST', body: deployment('web') });
      const next = structuredClone(created.body);
      next.spec.replicas = 5;
      const res = await request(url(paths.deployment('web')), { method: 'PUT', body: next });
      expect(res.status).toBe(200);
      expect(res.body.spec.replicas).toBe(5);
      expect(res.body.metadata.generation).toBe(2);
      expect(Number(res.body.metadata.resourceVersion)).toBeGreaterThan(Number(created.body.metadata.resourceVersion));
      expect(res.body.metadata.uid).toBe(created.body.metadata.uid);
      expect(res.body.metadata.creationTimestamp).toBe(created.body.metadata.creationTimestamp);
      expect((await request(url(paths.deployment('web')))).body).toEqual(res.body);
    });

    it('keeps server-owned metadata when PUT changes it', async () => {
      const created = await request(url(paths.configmaps()), { method: 'POST', body: configMap('c') });
      const next = structuredClone(created.body);
      next.metadata.uid = undefined;
      next.metadata.creationTimestamp = '2000-01-01T00:00:00Z';
      next.data = { k: 'changed' };
      const res = await request(url(paths.configmap('c')), { method: 'PUT', body: next });
      expect(res.status).toBe(200);
      expect(res.body.metadata.uid).toBe(created.body.metadata.uid);
      expect(res.body.metadata.creationTimestamp).toBe(created.body.metadata.creationTimestamp);
      expect(res.body.data).toEqual({ k: 'changed' });
    });

    it('answers 404 for PUT of a missing object and 400 for a name mismatch', async () => {
      const missing = await request(url(paths.configmap('c')), { method: 'PUT', body: configMap('c') });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe('configmaps "c" not found');
      await request(url(paths.configmaps()), { method: 'POST', body: configMap('c') });
      const mismatch = await request(url(paths.configmap('c')), { method: 'PUT', body: configMap('d') });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.message).toBe('the name of the object (d) does not match the name on the URL (c)');
    });

    it('does not persist a PUT with dryRun=All', async () => {
      const created = await request(url(paths.configmaps()), { method: 'POST', body: configMap('c') });
      const next = { ...created.body, data: { k: 'dry' } };
      const res = await request(url(`${paths.configmap('c')}?dryRun=All`), { method: 'PUT', body: next });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ k: 'dry' });
      expect((await request(url(paths.configmap('c')))).body).toEqual(created.body);
    });
  });

  describe('delete', () => {
    it('answers a Success Status for a ConfigMap and removes it', async () => {
      const created = await request(url(paths.configmaps()), { method: 'POST', body: configMap('c') });
      const res = await request(url(paths.configmap('c')), { method: 'DELETE' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Success',
        details: { name: 'c', group: '', kind: 'configmaps', uid: created.body.metadata.uid },
      });
      expect((await request(url(paths.configmap('c')))).status).toBe(404);
    });

    it("accepts kubectl's DeleteOptions body", async () => {
      await request(url(paths.deployments()), { method: 'POST', body: deployment('web') });
      const res = await request(url(paths.deployment('web')), { method: 'DELETE', body: { propagationPolicy: 'Background' } });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('Success');
      expect(res.body.details).toMatchObject({ name: 'web', group: 'apps', kind: 'deployments' });
      expect((await request(url(paths.deployment('web')))).status).toBe(404);
    });

    it('accepts an empty body with Content-Type: application/json, as client-node sends it', async () => {
      await request(url(paths.configmaps()), { method: 'POST', body: configMap('c') });
      const res = await request(url(paths.configmap('c')), { method: 'DELETE', raw: '', contentType: 'application/json' });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('Success');
    });

    it('answers 400 for an unknown propagationPolicy', async () => {
      await request(url(paths.configmaps()), { method: 'POST', body: configMap('c') });
      const res = await request(url(paths.configmap('c')), { method: 'DELETE', body: { propagationPolicy: 'Sideways' } });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('propagationPolicy: Unsupported value: "Sideways"');
      expect((await request(url(paths.configmap('c')))).status).toBe(200);
    });

    it('answers the deleted Pod object for an unscheduled pod', async () => {
      await request(url(paths.pods()), { method: 'POST', body: pod('p') });
      const res = await request(url(paths.pod('p')), { method: 'DELETE' });
      expect(res.status).toBe(200);
      expect(res.body.kind).toBe('Pod');
      expect(res.body.metadata.name).toBe('p');
      expect((await request(url(paths.pod('p')))).status).toBe(404);
    });

    it('answers the Namespace, now Terminating, for a namespace', async () => {
      await request(url(paths.namespaces()), { method: 'POST', body: namespace('team') });
      const res = await request(url(paths.namespace('team')), { method: 'DELETE' });
      expect(res.status).toBe(200);
      expect(res.body.kind).toBe('Namespace');
      expect(res.body.status.phase).toBe('Terminating');
      expect(res.body.metadata.deletionTimestamp).toMatch(RFC3339_SECONDS);
    });

    it('answers 404 for a missing object', async () => {
      const res = await request(url(paths.deployment('gone')), { method: 'DELETE' });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('deployments.apps "gone" not found');
    });

    it('does not delete with dryRun=All', async () => {
      await request(url(paths.configmaps()), { method: 'POST', body: configMap('c') });
      const res = await request(url(`${paths.configmap('c')}?dryRun=All`), { method: 'DELETE' });
      expect(res.status).toBe(200);
      expect((await request(url(paths.configmap('c')))).status).toBe(200);
    });

    it('checks uid and resourceVersion preconditions', async () => {
      const created = await request(url(paths.configmaps()), { method: 'POST', body: configMap('c') });
      const wrongUid = await request(url(paths.configmap('c')), { method: 'DELETE', body: { preconditions: { uid: 'other' } } });
      expect(wrongUid.status).toBe(409);
      expect(wrongUid.body.message).toBe(
        `Operation cannot be fulfilled on configmaps "c": Precondition failed: UID in precondition: other, UID in object meta: ${created.body.metadata.uid}`,
      );
      const wrongRv = await request(url(paths.configmap('c')), { method: 'DELETE', body: { preconditions: { resourceVersion: '1' } } });
      expect(wrongRv.status).toBe(409);
      const ok = await request(url(paths.configmap('c')), { method: 'DELETE', body: { preconditions: { uid: created.body.metadata.uid } } });
      expect(ok.status).toBe(200);
    });
  });
});
