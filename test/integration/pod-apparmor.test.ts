/**
 * AppArmor's deprecated annotations and its fields over real HTTP, as kube-apiserver 1.30+
 * answers: a pod created with only the annotation gets the field (and a deprecation warning),
 * a pod whose annotation and field disagree is refused, one where they agree is left alone.
 */
import { describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const KEY = 'container.apparmor.security.beta.kubernetes.io/';
const pod = (name: string, annotations: Record<string, string>, containerContext?: Record<string, unknown>, podContext?: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, annotations },
  spec: {
    ...(podContext ? { securityContext: podContext } : {}),
    containers: [{ name: 'app', image: 'nginx', ...(containerContext ? { securityContext: containerContext } : {}) }],
  },
});
const warningsOf = (response: { headers: Headers }) =>
  [...(response.headers.get('warning') ?? '').matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));
const DEPRECATED = `metadata.annotations[${KEY}app]: deprecated since v1.30; use the "appArmorProfile" field instead`;

describe('AppArmor annotations and fields', () => {
  const cluster = useTestCluster({ lifetime: 'file' });
  const create = (body: unknown) => request(`${cluster.url}/api/v1/namespaces/default/pods`, { method: 'POST', body });

  it('copies a localhost annotation into the container field and warns that it is deprecated', async () => {
    const created = await create(pod('from-annotation', { [`${KEY}app`]: 'localhost/k8s-deny-write' }));
    expect(created.status).toBe(201);
    expect(created.body.spec.containers[0].securityContext.appArmorProfile).toEqual({ type: 'Localhost', localhostProfile: 'k8s-deny-write' });
    expect(created.body.metadata.annotations[`${KEY}app`]).toBe('localhost/k8s-deny-write');
    expect(warningsOf(created)).toEqual([DEPRECATED]);
  });

  it('leaves the container field empty when the pod-level profile already says the same', async () => {
    const created = await create(pod('pod-level', { [`${KEY}app`]: 'runtime/default' }, undefined, { appArmorProfile: { type: 'RuntimeDefault' } }));
    expect(created.status).toBe(201);
    expect(created.body.spec.containers[0].securityContext?.appArmorProfile).toBeUndefined();
    expect(warningsOf(created)).toEqual([]);
  });

  it('warns about an annotation it cannot read, and copies nothing', async () => {
    const created = await create(pod('unreadable', { [`${KEY}app`]: 'localhost/' }));
    expect(created.status).toBe(201);
    expect(created.body.spec.containers[0].securityContext?.appArmorProfile).toBeUndefined();
    expect(warningsOf(created)).toEqual([DEPRECATED]);
  });

  it('refuses a pod whose annotation and field disagree', async () => {
    const typeClash = await create(pod('type-clash', { [`${KEY}app`]: 'unconfined' }, { appArmorProfile: { type: 'RuntimeDefault' } }));
    expect(typeClash.status).toBe(422);
    expect(typeClash.body.message).toBe(
      'Pod "type-clash" is invalid: spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match',
    );
    const profileClash = await create(
      pod('profile-clash', { [`${KEY}app`]: 'localhost/a' }, { appArmorProfile: { type: 'Localhost', localhostProfile: 'b' } }),
    );
    expect(profileClash.status).toBe(422);
    expect(profileClash.body.message).toBe(
      'Pod "profile-clash" is invalid: spec.containers[0].securityContext.appArmorProfile.localhostProfile: Forbidden: apparmor profile in annotation and field must match',
    );
  });

  it('accepts an annotation that matches the field, without a warning', async () => {
    const created = await create(pod('agree', { [`${KEY}app`]: 'unconfined' }, { appArmorProfile: { type: 'Unconfined' } }));
    expect(created.status).toBe(201);
    expect(warningsOf(created)).toEqual([]);
  });
});
