/**
 * Service-account tokens as kube-apiserver issues them: JWTs signed with the cluster's
 * service-account key (ECDSA P-256, ES256: generated in about a millisecond, where RSA takes
 * hundreds), the key id derived from the public key as kube-apiserver derives it, and the
 * claims of a bound token (issuer, subject, audiences, expiry, and the `kubernetes.io` claim
 * naming the namespace, the service account and the object the token is bound to).
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject, randomUUID, sign, verify } from 'node:crypto';
import { serviceAccountUsername } from './service-account-names.js';

/** The issuer of a kubeadm or kind cluster's tokens. */
export const DEFAULT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

export interface BoundObject {
  name: string;
  uid: string;
}

export interface TokenRequestClaims {
  issuer?: string;
  audiences: readonly string[];
  namespace: string;
  serviceAccount: BoundObject;
  pod?: BoundObject;
  secret?: BoundObject;
  node?: BoundObject;
  /** Seconds since the epoch (the cluster clock's). */
  issuedAt: number;
  expirationSeconds: number;
}

export interface ServiceAccountClaims {
  iss: string;
  sub: string;
  aud: string[];
  exp: number;
  iat: number;
  nbf: number;
  jti: string;
  'kubernetes.io': {
    namespace: string;
    serviceaccount: BoundObject;
    pod?: BoundObject;
    secret?: BoundObject;
    node?: BoundObject;
  };
}

export type VerifyResult = { ok: true; claims: ServiceAccountClaims } | { ok: false; reason: string };

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** keyIdOf is kube-apiserver's `kid`: the unpadded base64url SHA-256 of the public key's DER. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
}

/** goQuoted renders a list as Go's %q does: ["a" "b"]. */
const goQuoted = (list: readonly string[]) => `[${list.map((item) => JSON.stringify(item)).join(' ')}]`;

/** audienceMismatch is kube-apiserver's error for a token of none of the audiences asked for. */
export function audienceMismatch(tokenAudiences: readonly string[], audiences: readonly string[]): string {
  return `token audiences ${goQuoted(tokenAudiences)} is invalid for the target audiences ${goQuoted(audiences)}`;
}

/** unverifiedIssuer reads a JWT's `iss` without checking anything: whether a token is a
 * service-account token of this issuer at all (others are left to other authenticators). */
export function unverifiedIssuer(token: string): string | undefined {
  const payload = token.split('.')[1];
  if (token.split('.').length !== 3 || !payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iss?: unknown };
    return typeof claims.iss === 'string' ? claims.iss : undefined;
  } catch {
    return undefined;
  }
}

export function tokenClaims(request: TokenRequestClaims): ServiceAccountClaims {
  const bound = { pod: request.pod, secret: request.secret, node: request.node };
  return {
    iss: request.issuer ?? DEFAULT_ISSUER,
    sub: serviceAccountUsername(request.namespace, request.serviceAccount.name),
    aud: [...request.audiences],
    exp: request.issuedAt + request.expirationSeconds,
    iat: request.issuedAt,
    nbf: request.issuedAt,
    jti: randomUUID(),
    'kubernetes.io': {
      namespace: request.namespace,
      serviceaccount: request.serviceAccount,
      ...Object.fromEntries(Object.entries(bound).filter(([, v]) => v !== undefined)),
    },
  };
}

/** A signer holds the service-account key: it issues tokens and checks the ones it issued. */
export interface TokenSigner {
  keyId: string;
  /** sign issues a JWT of `claims` (a bound token's, or a legacy Secret token's). */
  sign(claims: object): string;
  /** verifiedClaims returns the claims of a JWT this key signed, whatever they are; the caller
   * checks them (verify does, for bound tokens; legacy-token.ts, for Secret tokens). */
  verifiedClaims(token: string): { ok: true; claims: Record<string, unknown> } | { ok: false; reason: string };
  /** verify checks the signature, the issuer, the audience (any of `audiences`) and the time. */
  verify(token: string, options: { audiences: readonly string[]; nowSeconds: number; issuer?: string }): VerifyResult;
  /** The public key as a JSON Web Key Set (what /openid/v1/jwks serves). */
  jwks(): { keys: object[] };
}

export function createTokenSigner(privateKeyPem: string): TokenSigner {
  const privateKey = createPrivateKey(privateKeyPem);
  const publicKey = createPublicKey(privateKey);
  const keyId = keyIdOf(publicKey);
  const header = base64url(JSON.stringify({ alg: 'ES256', kid: keyId }));
  const verifiedClaims = (token: string): ReturnType<TokenSigner['verifiedClaims']> => {
    const parts = token.split('.');
    if (parts.length !== 3) return { ok: false, reason: 'token is not a JWT' };
    const [encodedHeader = '', payload = '', signature = ''] = parts;
    const signed = verify(
      'sha256',
      Buffer.from(`${encodedHeader}.${payload}`),
      { key: publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
    if (!signed) return { ok: false, reason: 'invalid signature' };
    try {
      const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      if (typeof claims === 'object' && claims !== null && !Array.isArray(claims)) return { ok: true, claims: claims as Record<string, unknown> };
    } catch {
      // Reported below.
    }
    return { ok: false, reason: 'invalid claims' };
  };
  return {
    keyId,
    sign(claims) {
      const signingInput = `${header}.${base64url(JSON.stringify(claims))}`;
      // JOSE wants the raw r||s signature, not DER.
      const signature = sign('sha256', Buffer.from(signingInput), { key: privateKey, dsaEncoding: 'ieee-p1363' });
      return `${signingInput}.${base64url(signature)}`;
    },
    verifiedClaims,
    verify(token, { audiences, nowSeconds, issuer = DEFAULT_ISSUER }) {
      const verified = verifiedClaims(token);
      if (!verified.ok) return verified;
      const claims = verified.claims as unknown as ServiceAccountClaims;
      if (claims.iss !== issuer) return { ok: false, reason: 'token issuer is not accepted' };
      if (!claims.aud?.some((a) => audiences.includes(a))) return { ok: false, reason: audienceMismatch(claims.aud ?? [], audiences) };
      if (typeof claims.exp !== 'number' || nowSeconds >= claims.exp) return { ok: false, reason: 'service account token has expired' };
      if (typeof claims.nbf === 'number' && nowSeconds < claims.nbf) return { ok: false, reason: 'service account token is not valid yet' };
      return { ok: true, claims };
    },
    jwks() {
      const jwk = publicKey.export({ format: 'jwk' });
      return { keys: [{ use: 'sig', kty: jwk.kty, kid: keyId, crv: jwk.crv, alg: 'ES256', x: jwk.x, y: jwk.y }] };
    },
  };
}
