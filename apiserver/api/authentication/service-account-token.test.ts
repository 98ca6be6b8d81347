import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTokenSigner, tokenClaims } from './service-account-token.js';

const pem = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

describe('service-account tokens', () => {
  const signer = createTokenSigner(pem());
  const claims = tokenClaims({
    audiences: ['https://kubernetes.default.svc.cluster.local'],
    namespace: 'ci',
    serviceAccount: { name: 'builder', uid: 'u-1' },
    pod: { name: 'job-x', uid: 'u-2' },
    issuedAt: 1_000,
    expirationSeconds: 3_600,
  });
  const token = signer.sign(claims);
  const audiences = ['https://kubernetes.default.svc.cluster.local'];

  it('carries the claims of a bound token and verifies until it expires', () => {
    expect(claims).toMatchObject({
      iss: 'https://kubernetes.default.svc.cluster.local',
      sub: 'system:serviceaccount:ci:builder',
      exp: 4_600,
      'kubernetes.io': { namespace: 'ci', serviceaccount: { name: 'builder', uid: 'u-1' }, pod: { name: 'job-x', uid: 'u-2' } },
    });
    expect(JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString())).toEqual({ alg: 'ES256', kid: signer.keyId });
    expect(signer.verify(token, { audiences, nowSeconds: 2_000 })).toEqual({ ok: true, claims });
    expect(signer.verify(token, { audiences, nowSeconds: 4_600 })).toEqual({ ok: false, reason: 'service account token has expired' });
  });

  it('refuses tampered tokens, other keys, other audiences', () => {
    const [h, , s] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'system:serviceaccount:kube-system:admin' })).toString('base64url')}.${s}`;
    expect(signer.verify(forged, { audiences, nowSeconds: 2_000 })).toEqual({ ok: false, reason: 'invalid signature' });
    expect(createTokenSigner(pem()).verify(token, { audiences, nowSeconds: 2_000 }).ok).toBe(false);
    expect(signer.verify(token, { audiences: ['vault'], nowSeconds: 2_000 })).toEqual({
      ok: false,
      reason: 'token audiences ["https://kubernetes.default.svc.cluster.local"] is invalid for the target audiences ["vault"]',
    });
    expect(signer.verify('not-a-jwt', { audiences, nowSeconds: 2_000 }).ok).toBe(false);
  });

  it('publishes its public key as a JWKS entry with the same kid', () => {
    expect(signer.jwks().keys).toEqual([expect.objectContaining({ kid: signer.keyId, alg: 'ES256', kty: 'EC', crv: 'P-256', use: 'sig' })]);
  });
});
