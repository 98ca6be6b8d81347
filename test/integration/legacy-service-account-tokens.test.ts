/**
 * Long-lived service-account tokens in Secrets, through a real cluster (HTTPS + RBAC, the
 * serviceaccount-token loop running): a Secret of type kubernetes.io/service-account-token is
 * filled with a token of its ServiceAccount, the token authenticates as that account until its
 * Secret or account goes, and Secrets of a missing (or replaced) account are deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../cli/cluster/index.js';
import { startCluster } from '../../cli/cluster/index.js';
import { eventually } from '../support/eventually.js';
import { kubeconfigTls, request, trustKubeconfig } from '../support/http.js';

const API_AUDIENCE = 'https://kubernetes.default.svc.cluster.local';
const NAME_ANNOTATION = 'kubernetes.io/service-account.name';
const UID_ANNOTATION = 'kubernetes.io/service-account.uid';

let cluster: Cluster;
const api = (path: string) => `${cluster.url}${path}`;
const decoded = (value: string | undefined) => Buffer.from(value ?? '', 'base64').toString('utf8');

beforeAll(async () => {
  cluster = await startCluster({ nodes: 0, scheduler: false, controllers: ['serviceaccount-token'] });
  trustKubeconfig(cluster.kubeconfig);
});
afterAll(() => cluster?.stop());

/** asToken sends one request with only the bearer token (no client certificate). */
const asToken = (token: string, path: string, init: { method?: string; body?: unknown } = {}) =>
  request(api(path), { ...init, token, tls: { ca: kubeconfigTls(cluster.kubeconfig)!.ca } });

const review = (token: string, audiences?: string[]) =>
  request(api('/apis/authentication.k8s.io/v1/tokenreviews'), {
    method: 'POST',
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, audiences } },
  });

async function createAccount(name: string): Promise<string> {
  const created = await request(api('/api/v1/namespaces/default/serviceaccounts'), {
    method: 'POST',
    body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } },
  });
  expect(created.status).toBe(201);
  return created.body.metadata.uid;
}

async function createTokenSecret(name: string, annotations: Record<string, string>) {
  return request(api('/api/v1/namespaces/default/secrets'), {
    method: 'POST',
    body: { apiVersion: 'v1', kind: 'Secret', metadata: { name, annotations }, type: 'kubernetes.io/service-account-token' },
  });
}

const readSecret = (name: string) => request(api(`/api/v1/namespaces/default/secrets/${name}`));

describe('Secrets of type kubernetes.io/service-account-token', () => {
  it('are filled with a token of their account that authenticates as it, for the API server only', async () => {
    const uid = await createAccount('dashboard');
    expect((await createTokenSecret('dashboard-token', { [NAME_ANNOTATION]: 'dashboard' })).status).toBe(201);
    const secret = await eventually(async () => {
      const { body } = await readSecret('dashboard-token');
      expect(body.data?.token).toBeDefined();
      return body;
    });
    expect(decoded(secret.data.namespace)).toBe('default');
    expect(decoded(secret.data['ca.crt'])).toBe(kubeconfigTls(cluster.kubeconfig)!.ca);
    expect(secret.metadata.annotations).toMatchObject({ [NAME_ANNOTATION]: 'dashboard', [UID_ANNOTATION]: uid });
    const token = decoded(secret.data.token);
    expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'))).toEqual({
      iss: 'kubernetes/serviceaccount',
      'kubernetes.io/serviceaccount/namespace': 'default',
      'kubernetes.io/serviceaccount/secret.name': 'dashboard-token',
      'kubernetes.io/serviceaccount/service-account.name': 'dashboard',
      'kubernetes.io/serviceaccount/service-account.uid': uid,
      sub: 'system:serviceaccount:default:dashboard',
    });

    const whoami = await asToken(token, '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      method: 'POST',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    expect(whoami.body.status.userInfo).toEqual({
      username: 'system:serviceaccount:default:dashboard',
      uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
    // Authenticated, and RBAC grants the account nothing yet.
    const pods = await asToken(token, '/api/v1/namespaces/default/pods');
    expect(pods.status).toBe(403);
    expect(pods.body.message).toBe(
      'pods is forbidden: User "system:serviceaccount:default:dashboard" cannot list resource "pods" in API group "" in the namespace "default"',
    );

    expect((await review(token)).body.status).toMatchObject({ authenticated: true, audiences: [API_AUDIENCE] });
    expect((await review(token, ['vault'])).body.status.error).toBe(`token audiences ["${API_AUDIENCE}"] is invalid for the target audiences ["vault"]`);
  });

  it('keep a token that is already there; a token no longer in its Secret stops working', async () => {
    await createAccount('keeper');
    expect((await createTokenSecret('keeper-token', { [NAME_ANNOTATION]: 'keeper' })).status).toBe(201);
    const filled = await eventually(async () => {
      const { body } = await readSecret('keeper-token');
      expect(body.data?.token).toBeDefined();
      return body;
    });
    const original = decoded(filled.data.token);
    const replaced = { ...filled, data: { ...filled.data, token: Buffer.from('not-the-token').toString('base64') } };
    expect((await request(api('/api/v1/namespaces/default/secrets/keeper-token'), { method: 'PUT', body: replaced })).status).toBe(200);

    expect((await review(original)).body.status).toEqual({ user: {}, error: "token does not match server's copy" });
    expect((await asToken(original, '/api')).status).toBe(401);
    // The loop fills only what is missing: the replacement stays.
    await cluster.settle();
    expect(decoded((await readSecret('keeper-token')).body.data.token)).toBe('not-the-token');
  });

  it('go with their account, and a token of a deleted account is refused at once', async () => {
    await createAccount('leaving');
    await createTokenSecret('leaving-token', { [NAME_ANNOTATION]: 'leaving' });
    const token = await eventually(async () => {
      const { body } = await readSecret('leaving-token');
      expect(body.data?.token).toBeDefined();
      return decoded(body.data.token);
    });
    expect((await asToken(token, '/api')).status).toBe(200);
    expect((await request(api('/api/v1/namespaces/default/serviceaccounts/leaving'), { method: 'DELETE' })).status).toBe(200);
    await eventually(async () => expect((await readSecret('leaving-token')).status).toBe(404));
    expect((await asToken(token, '/api')).status).toBe(401);
    expect((await review(token)).body.status.error).toBe('token has been invalidated');
  });

  it('are deleted when their account does not exist, or is another account of that name', async () => {
    await createTokenSecret('nobody-token', { [NAME_ANNOTATION]: 'nobody' });
    const uid = await createAccount('renamed');
    await createTokenSecret('stale-token', { [NAME_ANNOTATION]: 'renamed', [UID_ANNOTATION]: `${uid}-old` });
    await eventually(async () => {
      expect((await readSecret('nobody-token')).status).toBe(404);
      expect((await readSecret('stale-token')).status).toBe(404);
    });
  });

  it('must name their account; other typed Secrets must carry their keys', async () => {
    const unnamed = await createTokenSecret('unnamed-token', {});
    expect(unnamed.status).toBe(422);
    expect(unnamed.body.message).toBe('Secret "unnamed-token" is invalid: metadata.annotations[kubernetes.io/service-account.name]: Required value');
    const tls = await request(api('/api/v1/namespaces/default/secrets'), {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'half-tls' }, type: 'kubernetes.io/tls', data: { 'tls.crt': 'Y2VydA==' } },
    });
    expect(tls.status).toBe(422);
    expect(tls.body.message).toBe('Secret "half-tls" is invalid: data[tls.key]: Required value');
  });
});
