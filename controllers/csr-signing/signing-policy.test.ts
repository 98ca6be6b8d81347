import { describe, expect, it } from 'vitest';
import type { RequestedIdentity } from '../../apiserver/api/pki/cluster-ca.js';
import { KUBE_APISERVER_CLIENT_SIGNER, KUBELET_CLIENT_SIGNER, KUBELET_SERVING_SIGNER, signerProblem, signingTtlMs, validity } from './signing-policy.js';

const identity = (commonName: string, organizations: string[], names: Partial<RequestedIdentity['alternativeNames']> = {}): RequestedIdentity => ({
  commonName,
  organizations,
  alternativeNames: { dns: 0, ip: 0, email: 0, uri: 0, ...names },
});
const node = identity('system:node:n1', ['system:nodes']);

describe('signerProblem', () => {
  it('kube-apiserver-client: client auth required, only signature and encipherment besides', () => {
    expect(signerProblem(KUBE_APISERVER_CLIENT_SIGNER, ['client auth', 'digital signature'], identity('alice', []))).toBeUndefined();
    expect(signerProblem(KUBE_APISERVER_CLIENT_SIGNER, ['server auth'], identity('alice', []))).toBe('invalid usage for client certificate: server auth');
    expect(signerProblem(KUBE_APISERVER_CLIENT_SIGNER, ['digital signature'], identity('alice', []))).toBe(
      'missing required usage for client certificate: client auth',
    );
  });

  it('kubelet client: a node of system:nodes without alternative names, the client usages', () => {
    expect(signerProblem(KUBELET_CLIENT_SIGNER, ['digital signature', 'client auth'], node)).toBeUndefined();
    expect(signerProblem(KUBELET_CLIENT_SIGNER, ['key encipherment', 'digital signature', 'client auth'], node)).toBeUndefined();
    expect(signerProblem(KUBELET_CLIENT_SIGNER, ['client auth'], identity('system:node:n1', ['dev']))).toBe('subject organization is not system:nodes');
    expect(signerProblem(KUBELET_CLIENT_SIGNER, ['client auth'], identity('system:node:n1', ['system:nodes'], { ip: 1 }))).toBe(
      'IP subjectAltNames are not allowed',
    );
    expect(signerProblem(KUBELET_CLIENT_SIGNER, ['client auth'], identity('n1', ['system:nodes']))).toBe(
      'subject common name does not begin with system:node:',
    );
    expect(signerProblem(KUBELET_CLIENT_SIGNER, ['client auth'], node)).toBe('usages did not match [client auth digital signature key encipherment]');
  });

  it('kubelet serving: a DNS name or IP is required, the serving usages', () => {
    const serving = identity('system:node:n1', ['system:nodes'], { dns: 1 });
    expect(signerProblem(KUBELET_SERVING_SIGNER, ['digital signature', 'server auth'], serving)).toBeUndefined();
    expect(signerProblem(KUBELET_SERVING_SIGNER, ['digital signature', 'server auth'], node)).toBe('DNS or IP subjectAltName is required');
    expect(signerProblem(KUBELET_SERVING_SIGNER, ['client auth'], serving)).toBe('usages did not match [digital signature key encipherment server auth]');
  });
});

describe('validity', () => {
  it('honours the requested duration within [10 minutes, 1 year], backdated 5 minutes', () => {
    expect(signingTtlMs(undefined)).toBe(365 * 24 * 3600_000);
    expect(signingTtlMs(10 * 365 * 24 * 3600)).toBe(365 * 24 * 3600_000);
    expect(signingTtlMs(3600)).toBe(3600_000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    const short = validity(now, 3600_000, Number.POSITIVE_INFINITY);
    expect([short.notBefore.toISOString(), short.notAfter.toISOString()]).toEqual(['2025-12-31T23:55:00.000Z', '2026-01-01T01:00:00.000Z']);
    const long = validity(now, 24 * 3600_000, Number.POSITIVE_INFINITY);
    expect(long.notAfter.toISOString()).toBe('2026-01-01T23:55:00.000Z');
    expect(validity(now, 24 * 3600_000, now + 60_000).notAfter.toISOString()).toBe('2026-01-01T00:01:00.000Z');
  });
});
