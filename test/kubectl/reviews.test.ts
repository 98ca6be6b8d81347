/**
 * The review APIs (authentication.k8s.io TokenReview/SelfSubjectReview, authorization.k8s.io
 * access reviews) through every kubectl against a server in AlwaysAllow mode that authenticates
 * nobody: `auth can-i`, `auth can-i --list` and `auth whoami` get its all-powerful answers (RBAC
 * mode: authorization.test.ts; TokenReview checking tokens: service-account-tokens.test.ts); the
 * kinds are create-only (GET is 405, nothing
 * is stored) and validated with kube-apiserver's messages.
 */
import { describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { useKubectlCluster } from './fixture.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const SAR_PATH = '/apis/authorization.k8s.io/v1/subjectaccessreviews';

describe.each(binaries)('$label: review APIs', (binary) => {
  const k = useKubectlCluster(binary);

  it('auth can-i answers yes, and says why when asked', async () => {
    expect((await k.ok(['auth', 'can-i', 'create', 'pods'])).stdout.trim()).toBe('yes');
    expect((await k.ok(['auth', 'can-i', 'delete', 'nodes', '--all-namespaces'])).stdout.trim()).toBe('yes');
    const reasoned = await k.ok(['auth', 'can-i', 'get', '/healthz', '-v=0']);
    expect(reasoned.stdout.trim()).toBe('yes');
  });

  it('auth can-i --list shows every action allowed', async () => {
    const rows = (await k.ok(['auth', 'can-i', '--list'])).stdout.split('\n').map((line) => line.replace(/\s+/g, ' ').trim());
    expect(rows[0]).toBe('Resources Non-Resource URLs Resource Names Verbs');
    expect(rows).toContain('*.* [] [] [*]');
    expect(rows).toContain('[*] [] [*]');
  });

  it('auth whoami names the user kubesim treats every request as', async () => {
    const rows = (await k.ok(['auth', 'whoami'])).stdout.split('\n').map((line) => line.replace(/\s+/g, ' ').trim());
    expect(rows).toContain('Username kubernetes-admin');
    expect(rows).toContain('Groups [system:masters system:authenticated]');
  });

  it('lists the review kinds in api-resources with the create verb only', async () => {
    const rows = (await k.ok(['api-resources', '-o', 'wide', '--api-group=authorization.k8s.io'])).stdout
      .split('\n')
      .map((line) => line.replace(/\s+/g, ' ').trim());
    expect(rows).toContain('localsubjectaccessreviews authorization.k8s.io/v1 true LocalSubjectAccessReview create');
    expect(rows).toContain('selfsubjectaccessreviews authorization.k8s.io/v1 false SelfSubjectAccessReview create');
    expect(rows).toContain('selfsubjectrulesreviews authorization.k8s.io/v1 false SelfSubjectRulesReview create');
    expect(rows).toContain('subjectaccessreviews authorization.k8s.io/v1 false SubjectAccessReview create');
    const authn = (await k.ok(['api-resources', '-o', 'wide', '--api-group=authentication.k8s.io'])).stdout;
    expect(authn).toMatch(/^selfsubjectreviews\s+authentication\.k8s\.io\/v1\s+false\s+SelfSubjectReview\s+create\s*$/m);
    expect(authn).toMatch(/^tokenreviews\s+authentication\.k8s\.io\/v1\s+false\s+TokenReview\s+create\s*$/m);
  });

  it('explains the review kinds', async () => {
    expect((await k.ok(['explain', 'subjectaccessreviews.spec.resourceAttributes'])).stdout).toMatch(/^\s+verb\s+<string>$/m);
    expect((await k.ok(['explain', 'tokenreviews.status'])).stdout).toMatch(/^\s+authenticated\s+<boolean>$/m);
  });

  it('answers a SubjectAccessReview with the object and AlwaysAllow’s status, and stores nothing', async () => {
    const base = k.cluster().url;
    const review = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user: 'jane', resourceAttributes: { verb: 'get', resource: 'pods' } },
    };
    const answered = await request(`${base}${SAR_PATH}`, { method: 'POST', body: review });
    expect(answered.status).toBe(201);
    // kube-apiserver with --authorization-mode=AlwaysAllow answers allowed, with no reason.
    expect(answered.body).toMatchObject(review);
    expect(answered.body.status).toEqual({ allowed: true });
    expect((await request(`${base}${SAR_PATH}`)).status).toBe(405);
  });

  it('rejects reviews as kube-apiserver does', async () => {
    const base = k.cluster().url;
    const noAttributes = await request(`${base}${SAR_PATH}`, {
      method: 'POST',
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'jane' } },
    });
    expect(noAttributes.status).toBe(422);
    expect(noAttributes.body.message).toBe(
      'SubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
    const noUser = await request(`${base}${SAR_PATH}`, {
      method: 'POST',
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } } },
    });
    expect(noUser.body.message).toContain('spec.user: Invalid value: "": at least one of user or group must be specified');
    const local = await request(`${base}/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews`, {
      method: 'POST',
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'LocalSubjectAccessReview',
        spec: { user: 'jane', resourceAttributes: { namespace: 'other', verb: 'get', resource: 'pods' } },
      },
    });
    expect(local.body.message).toContain('spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace');
    const rules = await request(`${base}/apis/authorization.k8s.io/v1/selfsubjectrulesreviews`, {
      method: 'POST',
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: {} },
    });
    expect(rules.status).toBe(400);
    expect(rules.body).toMatchObject({ reason: 'BadRequest', message: 'no namespace on request' });
  });

  it('answers a TokenReview: a token nobody issued is not authenticated', async () => {
    const url = `${k.cluster().url}/apis/authentication.k8s.io/v1/tokenreviews`;
    const answered = await request(url, { method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'abc' } } });
    expect(answered.status).toBe(201);
    expect(answered.body.status).toEqual({ user: {} });
    const empty = await request(url, { method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: {} } });
    expect(empty.status).toBe(400);
  });
});
