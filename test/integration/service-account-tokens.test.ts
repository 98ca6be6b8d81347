/**
 * Service-account tokens through the real thing: `kubectl create token` (every kubectl on
 * PATH) issues them, requests carrying them are the service account, TokenReview and
 * SelfSubjectReview say who they are, bound tokens die with their pod, invalid tokens are
 * 401, and the issuer's discovery documents publish the key that signed them. The server
 * authenticates with a token file whose `kubesim` token (the test kubeconfig's) is the admin.
 */
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { HISTORY_PATH } from '../../cli/commands/history-client.js';
import { useKubectlCluster } from '../kubectl/fixture.js';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { writeTokenFile } from '../support/token-file.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const API_AUDIENCE = 'https://kubernetes.default.svc.cluster.local';

const tokenFile = () => writeTokenFile(['kubesim,kubernetes-admin,admin-uid,"system:masters"']);

/** call sends one request as the holder of `token`. */
async function call(url: string, token: string | undefined, init: { method?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(url, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  return { status: response.status, body: (await response.json()) as any, headers: response.headers };
}

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));

describe.each(binaries)('$label: service-account tokens', (binary) => {
  const k = useKubectlCluster(binary, { tokenAuthFile: tokenFile() });
  const url = () => k.cluster().url;
  // kubectl sends no bearer token over plain HTTP: who a token is, is asked over HTTP here.
  const whoami = (token: string) =>
    call(`${url()}/apis/authentication.k8s.io/v1/selfsubjectreviews`, token, {
      method: 'POST',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
  const review = (token: string, audiences?: string[]) =>
    call(`${url()}/apis/authentication.k8s.io/v1/tokenreviews`, 'kubesim', {
      method: 'POST',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, audiences } },
    });

  it('create token issues a token that authenticates as the service account', async () => {
    await k.ok(['create', 'serviceaccount', 'builder']);
    const token = (await k.ok(['create', 'token', 'builder'])).stdout.trim();
    expect(claimsOf(token)).toMatchObject({ iss: API_AUDIENCE, aud: [API_AUDIENCE], sub: 'system:serviceaccount:default:builder' });
    expect(claimsOf(token).exp - claimsOf(token).iat).toBe(3600);
    expect((await call(`${url()}/api/v1/namespaces/default/pods`, token)).status).toBe(200);

    const sa = await k.json(['serviceaccount', 'builder']);
    expect((await whoami(token)).body.status.userInfo).toEqual({
      username: 'system:serviceaccount:default:builder',
      uid: sa.metadata.uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${claimsOf(token).jti}`] },
    });
  });

  it('SelfSubjectReview names the token-file user, and a TokenReview agrees with the server', async () => {
    expect((await whoami('kubesim')).body.status.userInfo).toEqual({
      username: 'kubernetes-admin',
      uid: 'admin-uid',
      groups: ['system:masters', 'system:authenticated'],
    });
    const token = (await k.ok(['create', 'token', 'builder', '--duration', '20m'])).stdout.trim();
    expect(claimsOf(token).exp - claimsOf(token).iat).toBe(1200);
    const answered = await review(token);
    expect(answered.status).toBe(201);
    expect(answered.body.status).toMatchObject({
      authenticated: true,
      audiences: [API_AUDIENCE],
      user: { username: 'system:serviceaccount:default:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] },
    });
    expect((await review('kubesim')).body.status).toMatchObject({ authenticated: true, user: { username: 'kubernetes-admin', uid: 'admin-uid' } });
    expect((await review('no-such-token')).body.status).toEqual({ user: {} });
  });

  it('a token for another audience is refused by the API server and accepted for its audience', async () => {
    const token = (await k.ok(['create', 'token', 'builder', '--audience', 'vault'])).stdout.trim();
    const refused = await call(`${url()}/api/v1/namespaces/default/pods`, token);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', message: 'Unauthorized' });
    expect((await review(token)).body.status).toEqual({
      user: {},
      error: `token audiences ["vault"] is invalid for the target audiences ["${API_AUDIENCE}"]`,
    });
    expect((await review(token, ['vault'])).body.status).toMatchObject({ authenticated: true, audiences: ['vault'] });
  });

  it('a token bound to a pod names the pod and dies with it', async () => {
    await k.ok(['run', 'job-x', '--image=busybox', '--overrides={"spec":{"serviceAccountName":"builder"}}']);
    const pod = await k.json(['pod', 'job-x']);
    const token = (await k.ok(['create', 'token', 'builder', '--bound-object-kind', 'Pod', '--bound-object-name', 'job-x'])).stdout.trim();
    expect((await review(token)).body.status.user.extra).toMatchObject({
      'authentication.kubernetes.io/pod-name': ['job-x'],
      'authentication.kubernetes.io/pod-uid': [pod.metadata.uid],
    });
    await k.ok(['delete', 'pod', 'job-x', '--wait=false']);
    await k.ok(['delete', 'pod', 'job-x', '--grace-period=0', '--force', '--ignore-not-found']);
    expect((await call(`${url()}/api/v1/namespaces/default/pods`, token)).status).toBe(401);
    expect((await review(token)).body.status).toEqual({ user: {}, error: 'service account token has been invalidated' });
  });

  it('refuses a token request with kube-apiserver’s messages', async () => {
    const tokenPath = `${url()}/api/v1/namespaces/default/serviceaccounts/builder/token`;
    const request = (spec: object) =>
      call(tokenPath, 'kubesim', { method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec } });
    const short = await request({ expirationSeconds: 599 });
    expect(short.status).toBe(422);
    expect(short.body.message).toBe(
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    );
    const deployment = await request({ boundObjectRef: { kind: 'Deployment', apiVersion: 'apps/v1', name: 'web' } });
    expect(deployment).toMatchObject({ status: 400, body: { message: 'cannot bind token to object of type apps/v1, Kind=Deployment' } });
    const missing = await request({ boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'gone' } });
    expect(missing).toMatchObject({ status: 404, body: { message: 'secrets "gone" not found' } });
    await k.ok(['create', 'secret', 'generic', 'held']);
    const stale = await request({ boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'held', uid: 'not-its-uid' } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/the UID in the bound object reference \(not-its-uid\) does not match the UID in record/);
    expect((await k.run(['create', 'token', 'nobody'])).stderr).toMatch(/serviceaccounts "nobody" not found/);
  });

  it('answers 401 to a bearer token nobody issued, and serves anonymous requests without one', async () => {
    expect((await call(`${url()}/api/v1/namespaces`, 'forged.token.here')).status).toBe(401);
    expect((await call(`${url()}/api/v1/namespaces`, 'made-up')).status).toBe(401);
    expect((await call(`${url()}/version`, undefined)).status).toBe(200);
  });

  it('publishes the issuer discovery documents with the key that signs the tokens', async () => {
    const token = (await k.ok(['create', 'token', 'builder'])).stdout.trim();
    const configuration = await call(`${url()}/.well-known/openid-configuration`, undefined);
    expect(configuration.body).toMatchObject({
      issuer: API_AUDIENCE,
      jwks_uri: `${API_AUDIENCE}/openid/v1/jwks`,
      id_token_signing_alg_values_supported: ['ES256'],
    });
    const jwks = await call(`${url()}/openid/v1/jwks`, undefined);
    expect(jwks.headers.get('content-type')).toMatch(/^application\/jwk-set\+json/);
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8'));
    expect(jwks.body.keys).toEqual([expect.objectContaining({ kid: header.kid, kty: 'EC', alg: 'ES256' })]);
  });

  it('records the authenticated user as the actor of a write', async () => {
    const token = (await k.ok(['create', 'token', 'builder'])).stdout.trim();
    const created = await call(`${url()}/api/v1/namespaces/default/configmaps`, token, {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'by-builder' } },
    });
    expect(created.status).toBe(201);
    const history = await call(`${url()}${HISTORY_PATH}?fromRevision=${created.body.metadata.resourceVersion}`, 'kubesim');
    expect(history.body.items[0]).toMatchObject({ name: 'by-builder', actor: { user: 'system:serviceaccount:default:builder' } });
  });
});

describe('@kubernetes/client-node and service-account tokens', () => {
  const k = useKubectlCluster(binaries[0] ?? requireKubectl(), { tokenAuthFile: tokenFile() });

  it('requests a token with TokenRequest and calls the API with it', async () => {
    const admin = new KubeConfig();
    admin.loadFromString(k.cluster().kubeconfig);
    const core = admin.makeApiClient(CoreV1Api);
    await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'robot' } } });
    const issued = await core.createNamespacedServiceAccountToken({
      namespace: 'default',
      name: 'robot',
      body: { spec: { audiences: [], expirationSeconds: 900 } },
    });
    expect(issued.status?.expirationTimestamp).toBeInstanceOf(Date);
    const robot = new KubeConfig();
    robot.loadFromOptions({
      clusters: [{ name: 'c', server: k.cluster().url, skipTLSVerify: true }],
      users: [{ name: 'robot', token: issued.status?.token }],
      contexts: [{ name: 'c', cluster: 'c', user: 'robot' }],
      currentContext: 'c',
    });
    const list = await robot.makeApiClient(CoreV1Api).listNamespacedServiceAccount({ namespace: 'default' });
    expect(list.items.map((sa) => sa.metadata?.name)).toContain('robot');
  });
});
