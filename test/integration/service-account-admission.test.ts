/**
 * The ServiceAccount admission plugin over real HTTP, on a server that requires accounts (as
 * startCluster and `kubesim up` do) with the serviceaccount loop running: the default account,
 * the kube-api-access token volume and its mounts, the refusal of a missing account, image
 * pull secrets, mountable-secrets enforcement, mirror pods; and, on a bare server, a pod whose
 * account does not exist admitted without the volume.
 */
import { describe, expect, it } from 'vitest';
import { PodMessage } from '../../apiserver/api/core/pod-protobuf.js';
import { request } from '../support/http.js';
import { encodeProtobuf } from '../support/protobuf-encode.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const TOKEN_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const container = (name = 'c', extra: Record<string, unknown> = {}) => ({ name, image: 'nginx:1.27', ...extra });
const pod = (name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, ...metadata },
  spec: { containers: [container()], ...spec },
});
const account = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  ...extra,
  metadata: { name, ...(extra['metadata'] as object) },
});
const tokenVolumeSource = {
  defaultMode: 420,
  sources: [
    { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
    { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
    { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
  ],
};

describe('ServiceAccount admission (accounts required)', () => {
  const cluster = useTestCluster({ lifetime: 'file', controllers: ['serviceaccount'], clusterLoops: ['serviceaccount'] });
  const api = (path: string) => `${cluster.url}/api/v1${path}`;
  const post = (path: string, body: unknown) => request(api(path), { method: 'POST', body });

  it('runs a pod as `default` and mounts the kube-api-access volume in every container, read-only', async () => {
    const created = await post('/namespaces/default/pods', pod('web', { initContainers: [container('init')] }));
    expect(created.status).toBe(201);
    const { spec } = created.body;
    expect(spec.serviceAccountName).toBe('default');
    expect(spec.serviceAccount).toBe('default');
    expect(spec.volumes).toHaveLength(1);
    const volume = spec.volumes[0];
    expect(volume.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(volume.projected).toEqual(tokenVolumeSource);
    const mount = { name: volume.name, readOnly: true, mountPath: TOKEN_PATH };
    expect(spec.initContainers[0].volumeMounts).toEqual([mount]);
    expect(spec.containers[0].volumeMounts).toEqual([mount]);
  });

  it('refuses a pod whose service account does not exist, with kube’s message', async () => {
    const refused = await post('/namespaces/default/pods', pod('ghost', { serviceAccountName: 'nobody' }));
    expect(refused.status).toBe(403);
    expect(refused.body.reason).toBe('Forbidden');
    expect(refused.body.message).toBe('pods "ghost" is forbidden: error looking up service account default/nobody: serviceaccount "nobody" not found');
    const generated = await post('/namespaces/default/pods', { ...pod('x', { serviceAccountName: 'nobody' }), metadata: { generateName: 'gen-' } });
    expect(generated.body.message).toBe('pods "gen-" is forbidden: error looking up service account default/nobody: serviceaccount "nobody" not found');
  });

  it('admits a pod in a namespace created a moment before, once the loop made its `default` account', async () => {
    expect((await post('/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh' } })).status).toBe(201);
    const created = await post('/namespaces/fresh/pods', pod('early'));
    expect(created.status).toBe(201);
    expect(created.body.spec.volumes[0].name).toMatch(/^kube-api-access-/);
  });

  it('mounts no token when the pod or its account says automountServiceAccountToken: false (the pod’s word wins)', async () => {
    expect((await post('/namespaces/default/serviceaccounts', account('quiet', { automountServiceAccountToken: false }))).status).toBe(201);
    const bySpec = await post('/namespaces/default/pods', pod('no-token', { automountServiceAccountToken: false }));
    expect(bySpec.body.spec.volumes).toBeUndefined();
    expect(bySpec.body.spec.containers[0].volumeMounts).toBeUndefined();
    const byAccount = await post('/namespaces/default/pods', pod('quiet', { serviceAccountName: 'quiet' }));
    expect(byAccount.status).toBe(201);
    expect(byAccount.body.spec.volumes).toBeUndefined();
    const podWins = await post('/namespaces/default/pods', pod('loud', { serviceAccountName: 'quiet', automountServiceAccountToken: true }));
    expect(podWins.body.spec.volumes[0].name).toMatch(/^kube-api-access-/);
  });

  it('leaves a container that mounts something at the token path alone, and reuses a kube-api-access volume', async () => {
    const own = { name: 'mine', mountPath: TOKEN_PATH };
    const created = await post(
      '/namespaces/default/pods',
      pod('own-mount', { containers: [container('a', { volumeMounts: [own] }), container('b')], volumes: [{ name: 'mine', emptyDir: {} }] }),
    );
    expect(created.status).toBe(201);
    const [a, b] = created.body.spec.containers;
    expect(a.volumeMounts).toEqual([own]);
    const tokenVolume = created.body.spec.volumes[1];
    expect(b.volumeMounts).toEqual([{ name: tokenVolume.name, readOnly: true, mountPath: TOKEN_PATH }]);
    const reused = await post('/namespaces/default/pods', pod('reuse', { volumes: [{ name: 'kube-api-access-mine', emptyDir: {} }] }));
    expect(reused.body.spec.volumes).toEqual([{ name: 'kube-api-access-mine', emptyDir: {} }]);
    expect(reused.body.spec.containers[0].volumeMounts).toEqual([{ name: 'kube-api-access-mine', readOnly: true, mountPath: TOKEN_PATH }]);
  });

  it('gives a pod without image pull secrets its account’s', async () => {
    expect((await post('/namespaces/default/serviceaccounts', account('puller', { imagePullSecrets: [{ name: 'registry' }] }))).status).toBe(201);
    const inherited = await post('/namespaces/default/pods', pod('pulls', { serviceAccountName: 'puller' }));
    expect(inherited.body.spec.imagePullSecrets).toEqual([{ name: 'registry' }]);
    const own = await post('/namespaces/default/pods', pod('own-pull', { serviceAccountName: 'puller', imagePullSecrets: [{ name: 'other' }] }));
    expect(own.body.spec.imagePullSecrets).toEqual([{ name: 'other' }]);
  });

  it('limits an account annotated enforce-mountable-secrets to the Secrets it lists', async () => {
    const strict = account('strict', { metadata: { annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' } }, secrets: [{ name: 'allowed' }] });
    expect((await post('/namespaces/default/serviceaccounts', strict)).status).toBe(201);
    const secretVolume = (secretName: string) => ({ volumes: [{ name: 's', secret: { secretName } }] });
    expect((await post('/namespaces/default/pods', pod('ok-secret', { serviceAccountName: 'strict', ...secretVolume('allowed') }))).status).toBe(201);
    const volume = await post('/namespaces/default/pods', pod('bad-volume', { serviceAccountName: 'strict', ...secretVolume('other') }));
    expect(volume.status).toBe(403);
    expect(volume.body.message).toBe(
      'pods "bad-volume" is forbidden: volume with secret.secretName="other" is not allowed because service account strict does not reference that secret',
    );
    const envFrom = await post(
      '/namespaces/default/pods',
      pod('bad-env', { serviceAccountName: 'strict', containers: [container('app', { envFrom: [{ secretRef: { name: 'other' } }] })] }),
    );
    expect(envFrom.body.message).toBe(
      'pods "bad-env" is forbidden: container app with envFrom referencing secret.secretName="other" is not allowed because service account strict does not reference that secret',
    );
    const pull = await post('/namespaces/default/pods', pod('bad-pull', { serviceAccountName: 'strict', imagePullSecrets: [{ name: 'other' }] }));
    expect(pull.body.message).toBe(
      'pods "bad-pull" is forbidden: imagePullSecrets[0].name="other" is not allowed because service account strict does not reference that imagePullSecret',
    );
  });

  it('leaves mirror pods unchanged and refuses one naming an account or a Secret', async () => {
    const mirror = { annotations: { 'kubernetes.io/config.mirror': 'hash' } };
    const created = await post('/namespaces/default/pods', pod('static', {}, mirror));
    expect(created.status).toBe(201);
    expect(created.body.spec.serviceAccountName).toBeUndefined();
    expect(created.body.spec.volumes).toBeUndefined();
    const named = await post('/namespaces/default/pods', pod('static-sa', { serviceAccountName: 'default' }, mirror));
    expect(named.status).toBe(403);
    expect(named.body.message).toBe('pods "static-sa" is forbidden: a mirror pod may not reference service accounts');
    const secret = await post('/namespaces/default/pods', pod('static-secret', { volumes: [{ name: 's', secret: { secretName: 'x' } }] }, mirror));
    expect(secret.body.message).toBe('pods "static-secret" is forbidden: a mirror pod may not reference secrets');
  });

  it('round-trips the token volume through a protobuf update, as a Go client sends it', async () => {
    const created = (await post('/namespaces/default/pods', pod('typed'))).body;
    // managedFields stay out: the test encoder cannot write FieldsV1 (and the server keeps them).
    const { managedFields: _, ...metadata } = created.metadata;
    const labelled = { ...created, metadata: { ...metadata, labels: { typed: 'yes' } } };
    const raw = Buffer.from(encodeProtobuf(PodMessage, labelled));
    const updated = await request(api('/namespaces/default/pods/typed'), { method: 'PUT', raw, contentType: 'application/vnd.kubernetes.protobuf' });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.metadata.labels).toEqual({ typed: 'yes' });
    expect(updated.body.spec.volumes).toEqual(created.spec.volumes);
  });

  it('changes nothing on update', async () => {
    const created = await post('/namespaces/default/pods', pod('updated'));
    const patched = await request(api('/namespaces/default/pods/updated'), {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { metadata: { labels: { touched: 'yes' } } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.spec.volumes).toEqual(created.body.spec.volumes);
    expect(patched.body.spec.containers[0].volumeMounts).toEqual(created.body.spec.containers[0].volumeMounts);
  });
});

describe('ServiceAccount admission on a bare server (no service-account loop)', () => {
  const cluster = useTestCluster({ lifetime: 'file' });
  const post = (path: string, body: unknown) => request(`${cluster.url}/api/v1${path}`, { method: 'POST', body });

  it('admits a pod whose account does not exist, naming `default`, without the token volume', async () => {
    const created = await post('/namespaces/default/pods', pod('bare'));
    expect(created.status).toBe(201);
    expect(created.body.spec.serviceAccountName).toBe('default');
    expect(created.body.spec.volumes).toBeUndefined();
  });

  it('still mounts the token for an account that exists', async () => {
    expect((await post('/namespaces/default/serviceaccounts', account('robot'))).status).toBe(201);
    const created = await post('/namespaces/default/pods', pod('robot-pod', { serviceAccountName: 'robot' }));
    expect(created.body.spec.volumes[0].projected).toEqual(tokenVolumeSource);
  });
});

describe('ServiceAccount admission waiting for a `default` account (accounts required, no loop)', () => {
  const cluster = useTestCluster({ lifetime: 'file', clusterLoops: ['serviceaccount'] });
  const post = (path: string, body: unknown) => request(`${cluster.url}/api/v1${path}`, { method: 'POST', body });
  const namespace = (name: string) => post('/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

  it('refuses the pod when no `default` account appears in time', async () => {
    expect((await namespace('empty')).status).toBe(201);
    const refused = await post('/namespaces/empty/pods', pod('lonely'));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('pods "lonely" is forbidden: error looking up service account empty/default: serviceaccount "default" not found');
  });

  it('admits the pod once the `default` account is made while it waits', async () => {
    expect((await namespace('late')).status).toBe(201);
    const pending = post('/namespaces/late/pods', pod('patient'));
    expect((await post('/namespaces/late/serviceaccounts', account('default'))).status).toBe(201);
    const created = await pending;
    expect(created.status).toBe(201);
    expect(created.body.spec.volumes[0].name).toMatch(/^kube-api-access-/);
  });
});
