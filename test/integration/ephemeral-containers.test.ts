/**
 * pods/{name}/ephemeralcontainers over real HTTP, as kube-apiserver 1.33 serves it: GET, the
 * three patch types and PUT; only additions (a change or a removal is refused with kube's
 * message); the fields an ephemeral container may not set; defaults; the pod itself neither
 * created with nor updated into ephemeral containers; discovery; RBAC on the subresource (not
 * granted by `edit`); and the admission chain (PodSecurity) on the subresource.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pod } from '../support/objects.js';
import { type RbacServer, startRbacServer } from '../support/rbac-server.js';

let cluster: RbacServer;
const RBAC = 'rbac.authorization.k8s.io';
const PODS = '/api/v1/namespaces/default/pods';
const STRATEGIC = 'application/strategic-merge-patch+json';
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';

beforeAll(async () => {
  cluster = await startRbacServer();
});
afterAll(() => cluster.close());

const admin = (path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }) => cluster.as('admin', path, init);
const debugger_ = (name = 'debugger', extra: Record<string, unknown> = {}) => ({ name, image: 'busybox', stdin: true, tty: true, ...extra });

async function createPod(name: string, ns = 'default'): Promise<any> {
  const created = await admin(`/api/v1/namespaces/${ns}/pods`, { method: 'POST', body: pod(name) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

/** addEphemeral patches the subresource as kubectl debug does (a strategic merge patch). */
const addEphemeral = (name: string, containers: unknown[], user = 'admin') =>
  cluster.as(user, `${PODS}/${name}/ephemeralcontainers`, {
    method: 'PATCH',
    body: { spec: { ephemeralContainers: containers } },
    headers: { 'Content-Type': STRATEGIC },
  });

describe('pods/ephemeralcontainers', () => {
  it('adds a debug container with a strategic merge patch, with the container defaults', async () => {
    await createPod('target');
    const res = await addEphemeral('target', [debugger_('debugger', { targetContainerName: 'app' })]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.kind).toBe('Pod');
    expect(res.body.spec.ephemeralContainers).toEqual([
      {
        name: 'debugger',
        image: 'busybox',
        stdin: true,
        tty: true,
        targetContainerName: 'app',
        imagePullPolicy: 'Always',
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        resources: {},
      },
    ]);
    const read = await admin(`${PODS}/target/ephemeralcontainers`);
    expect(read.status).toBe(200);
    expect(read.body.spec.ephemeralContainers.map((c: any) => c.name)).toEqual(['debugger']);
    const entry = read.body.metadata.managedFields.find((f: any) => f.subresource === 'ephemeralcontainers');
    expect(entry?.fieldsV1).toHaveProperty(['f:spec', 'f:ephemeralContainers']);
  });

  it('adds with a JSON patch, a merge patch and a PUT, and changes nothing else of the pod', async () => {
    const created = await createPod('many');
    const path = `${PODS}/many/ephemeralcontainers`;
    const json = await admin(path, {
      method: 'PATCH',
      body: [{ op: 'add', path: '/spec/ephemeralContainers', value: [debugger_('one')] }],
      headers: { 'Content-Type': JSON_PATCH },
    });
    expect(json.status, JSON.stringify(json.body)).toBe(200);
    const merge = await admin(path, {
      method: 'PATCH',
      body: { metadata: { labels: { ignored: 'yes' } }, spec: { ephemeralContainers: [...json.body.spec.ephemeralContainers, debugger_('two')] } },
      headers: { 'Content-Type': MERGE },
    });
    expect(merge.status, JSON.stringify(merge.body)).toBe(200);
    expect(merge.body.metadata.labels).toEqual(created.metadata.labels);
    const body = { ...merge.body, spec: { ...merge.body.spec, ephemeralContainers: [...merge.body.spec.ephemeralContainers, debugger_('three')] } };
    body.spec.containers = [{ name: 'app', image: 'busybox:changed' }];
    const put = await admin(path, { method: 'PUT', body });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.spec.ephemeralContainers.map((c: any) => c.name)).toEqual(['one', 'two', 'three']);
    expect(put.body.spec.containers[0].image).toBe('busybox:1.36');
  });

  it('refuses to change or remove an existing ephemeral container', async () => {
    await createPod('only-add');
    expect((await addEphemeral('only-add', [debugger_()])).status).toBe(200);
    const changed = await addEphemeral('only-add', [debugger_('debugger', { image: 'alpine' })]);
    expect(changed.status).toBe(422);
    expect(changed.body.reason).toBe('Invalid');
    expect(changed.body.message).toMatch(
      /^Pod "only-add" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "debugger" may not be changed\n/,
    );
    const current = (await admin(`${PODS}/only-add`)).body;
    const removed = await admin(`${PODS}/only-add/ephemeralcontainers`, {
      method: 'PUT',
      body: { ...current, spec: { ...current.spec, ephemeralContainers: [] } },
    });
    expect(removed.status).toBe(422);
    expect(removed.body.message).toBe(
      'Pod "only-add" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "debugger" may not be removed\n',
    );
  });

  it('refuses the fields an ephemeral container may not set, a duplicate name and an unknown target', async () => {
    await createPod('strict');
    const bad = debugger_('app', {
      ports: [{ containerPort: 80 }],
      resources: { limits: { cpu: '1' } },
      readinessProbe: { exec: { command: ['true'] } },
      lifecycle: { preStop: { exec: { command: ['true'] } } },
      targetContainerName: 'nope',
    });
    const res = await addEphemeral('strict', [bad]);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'Pod "strict" is invalid: [spec.ephemeralContainers[0].name: Duplicate value: "app", ' +
        'spec.ephemeralContainers[0].targetContainerName: Not found: "nope", ' +
        'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container, ' +
        'spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container, ' +
        'spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container, ' +
        'spec.ephemeralContainers[0].lifecycle: Forbidden: cannot be set for an Ephemeral Container]',
    );
  });

  it('keeps ephemeral containers out of pod creates and pod updates', async () => {
    const created = await admin(PODS, { method: 'POST', body: pod('born-with-one', {}, { ephemeralContainers: [debugger_()] }) });
    expect(created.status).toBe(422);
    expect(created.body.message).toBe('Pod "born-with-one" is invalid: spec.ephemeralContainers: Forbidden: cannot be set on create');
    await createPod('updated');
    const updated = await admin(`${PODS}/updated`, {
      method: 'PATCH',
      body: { spec: { ephemeralContainers: [debugger_()] } },
      headers: { 'Content-Type': STRATEGIC },
    });
    expect(updated.status).toBe(422);
    expect(updated.body.message).toMatch(/^Pod "updated" is invalid: spec: Forbidden: pod updates may not change fields other than/);
  });

  it('is listed in discovery with the verbs kubectl checks', async () => {
    const list = await admin('/api/v1');
    const entry = list.body.resources.find((r: any) => r.name === 'pods/ephemeralcontainers');
    expect(entry).toMatchObject({ kind: 'Pod', namespaced: true, verbs: ['get', 'patch', 'update'] });
  });
});

describe('authorization and admission of pods/ephemeralcontainers', () => {
  async function bind(user: string, clusterRole: string, ns = 'default'): Promise<void> {
    const binding = {
      apiVersion: `${RBAC}/v1`,
      kind: 'RoleBinding',
      metadata: { name: `${user}-${clusterRole}` },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: clusterRole },
      subjects: [{ apiGroup: RBAC, kind: 'User', name: user }],
    };
    expect((await admin(`/apis/${RBAC}/v1/namespaces/${ns}/rolebindings`, { method: 'POST', body: binding })).status).toBe(201);
  }

  it('needs patch on pods/ephemeralcontainers, which the edit role does not grant', async () => {
    await createPod('guarded');
    await bind('bob', 'edit');
    const refused = await addEphemeral('guarded', [debugger_()], 'bob');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'pods "guarded" is forbidden: User "bob" cannot patch resource "pods/ephemeralcontainers" in API group "" in the namespace "default"',
    );
    const role = {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'debugger' },
      rules: [{ apiGroups: [''], resources: ['pods/ephemeralcontainers'], verbs: ['patch'] }],
    };
    expect((await admin(`/apis/${RBAC}/v1/clusterroles`, { method: 'POST', body: role })).status).toBe(201);
    await bind('bob', 'debugger');
    expect((await addEphemeral('guarded', [debugger_()], 'bob')).status).toBe(200);
  });

  it('runs the admission chain: PodSecurity judges the added container', async () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'locked', labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } };
    expect((await admin('/api/v1/namespaces', { method: 'POST', body: ns })).status).toBe(201);
    await createPod('psa', 'locked');
    const res = await admin('/api/v1/namespaces/locked/pods/psa/ephemeralcontainers', {
      method: 'PATCH',
      body: { spec: { ephemeralContainers: [debugger_('debugger', { securityContext: { privileged: true } })] } },
      headers: { 'Content-Type': STRATEGIC },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(
      'pods "psa" is forbidden: violates PodSecurity "baseline:latest": privileged (container "debugger" must not set securityContext.privileged=true)',
    );
  });
});
