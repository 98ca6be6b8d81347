/**
 * The storage admission plugins over real HTTP: DefaultStorageClass (the newest default, and a
 * claim that names a class or "" keeps it), PersistentVolumeClaimResize (kube's refusal to grow
 * a claim whose class does not allow expansion), DefaultIngressClass, and
 * StorageObjectInUseProtection with the binder and the protection loops: the finalizers are
 * put on and lifted, so a claim deleted while a pod uses it goes once the pod does, and its
 * volume after it. On a bare server (no protection loops) no finalizer is put on.
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const claim = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});
const storageClass = (name: string, extra: Record<string, unknown> = {}, isDefault = false) => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name, ...(isDefault ? { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } : {}) },
  provisioner: 'kubesim.io/simulated',
  ...extra,
});

describe('storage and ingress class admission on a bare server', () => {
  let nowMs = Date.parse('2026-01-01T00:00:00Z');
  const cluster = useTestCluster({ lifetime: 'file', now: () => nowMs });
  const url = (path: string) => `${cluster.url}${path}`;
  const post = (path: string, body: unknown) => request(url(path), { method: 'POST', body });
  const claims = '/api/v1/namespaces/default/persistentvolumeclaims';

  it('gives a claim without a class the default StorageClass, and no protection finalizer without the loops', async () => {
    const created = await post(claims, claim('plain'));
    expect(created.status).toBe(201);
    expect(created.body.spec.storageClassName).toBe('standard');
    expect(created.body.metadata.finalizers).toBeUndefined();
    expect((await post(claims, claim('empty', { storageClassName: '' }))).body.spec.storageClassName).toBe('');
    const beta = { ...claim('beta'), metadata: { name: 'beta', annotations: { 'volume.beta.kubernetes.io/storage-class': 'slow' } } };
    expect((await post(claims, beta)).body.spec.storageClassName).toBeUndefined();
  });

  it('picks the newest of several default classes, the first name among equally new ones', async () => {
    nowMs += 60_000;
    expect((await post('/apis/storage.k8s.io/v1/storageclasses', storageClass('zeta', {}, true))).status).toBe(201);
    expect((await post('/apis/storage.k8s.io/v1/storageclasses', storageClass('alpha', {}, true))).status).toBe(201);
    expect((await post(claims, claim('tie'))).body.spec.storageClassName).toBe('alpha');
    nowMs += 60_000;
    expect((await post('/apis/storage.k8s.io/v1/storageclasses', storageClass('newest', {}, true))).status).toBe(201);
    expect((await post(claims, claim('newest'))).body.spec.storageClassName).toBe('newest');
  });

  it('refuses to grow a bound claim whose class does not allow expansion, with kube’s message', async () => {
    expect((await post('/apis/storage.k8s.io/v1/storageclasses', storageClass('fixed'))).status).toBe(201);
    expect((await post('/apis/storage.k8s.io/v1/storageclasses', storageClass('elastic', { allowVolumeExpansion: true }))).status).toBe(201);
    const grow = async (name: string, storageClassName: string) => {
      const created = (await post(claims, claim(name, { storageClassName }))).body;
      const bound = { ...created, status: { phase: 'Bound', capacity: { storage: '1Gi' } } };
      expect((await request(url(`${claims}/${name}/status`), { method: 'PUT', body: bound })).status).toBe(200);
      const patch = { spec: { resources: { requests: { storage: '2Gi' } } } };
      return request(url(`${claims}/${name}`), { method: 'PATCH', body: patch, contentType: 'application/merge-patch+json' });
    };
    const refused = await grow('fixed-claim', 'fixed');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'persistentvolumeclaims "fixed-claim" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
    );
    const grown = await grow('elastic-claim', 'elastic');
    expect(grown.status).toBe(200);
    expect(grown.body.spec.resources.requests.storage).toBe('2Gi');
  });

  it('gives an Ingress without a class the newest default IngressClass', async () => {
    const ingressClass = (name: string) => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name, annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } },
      spec: { controller: 'example.com/ingress' },
    });
    expect((await post('/apis/networking.k8s.io/v1/ingressclasses', ingressClass('older'))).status).toBe(201);
    nowMs += 60_000;
    expect((await post('/apis/networking.k8s.io/v1/ingressclasses', ingressClass('newer'))).status).toBe(201);
    const ingress = (name: string, annotations?: Record<string, string>) => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name, ...(annotations ? { annotations } : {}) },
      spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } },
    });
    const ingresses = '/apis/networking.k8s.io/v1/namespaces/default/ingresses';
    expect((await post(ingresses, ingress('plain'))).body.spec.ingressClassName).toBe('newer');
    expect((await post(ingresses, ingress('legacy', { 'kubernetes.io/ingress.class': 'nginx' }))).body.spec.ingressClassName).toBeUndefined();
  });
});

describe('StorageObjectInUseProtection with the binder and the protection loops', () => {
  const loops = ['persistentvolume-binder', 'pvc-protection', 'pv-protection'] as const;
  const cluster = useTestCluster({ lifetime: 'file', controllers: [...loops], clusterLoops: [...loops] });
  const url = (path: string) => `${cluster.url}/api/v1${path}`;

  it('protects a claim while a scheduled pod uses it, then lets the claim and its volume go', async () => {
    const claims = url('/namespaces/default/persistentvolumeclaims');
    const created = await request(claims, { method: 'POST', body: claim('data') });
    expect(created.body.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    const volumeName = await eventually(async () => {
      const bound = (await request(`${claims}/data`)).body;
      expect(bound.status.phase).toBe('Bound');
      return bound.spec.volumeName as string;
    });
    expect((await request(url(`/persistentvolumes/${volumeName}`))).body.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'user' },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx:1.27' }], volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] },
    };
    expect((await request(url('/namespaces/default/pods'), { method: 'POST', body: pod })).status).toBe(201);
    expect((await request(`${claims}/data`, { method: 'DELETE' })).status).toBe(200);
    const terminating = (await request(`${claims}/data`)).body;
    expect(terminating.metadata.deletionTimestamp).toBeDefined();
    expect((await request(url('/namespaces/default/pods/user?gracePeriodSeconds=0'), { method: 'DELETE' })).status).toBe(200);
    await eventually(async () => expect((await request(`${claims}/data`)).status).toBe(404));
    await eventually(async () => expect((await request(url(`/persistentvolumes/${volumeName}`))).status).toBe(404));
  });
});
