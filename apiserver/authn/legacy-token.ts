/**
 * kube-apiserver's legacy service-account token authenticator: the long-lived JWTs the token
 * controller writes into Secrets of type kubernetes.io/service-account-token (what Argo CD,
 * dashboards and older tools still create by hand; claims in
 * api/authentication/legacy-token-claims.ts). Such a token has no audience and no expiry; it is
 * good while its Secret holds it and its ServiceAccount exists with the uid it names, for the
 * API server's own audiences only.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Store } from '../../store/index.js';
import { LEGACY_CLAIM, LEGACY_ISSUER } from '../api/authentication/legacy-token-claims.js';
import { audienceMismatch, type TokenSigner, unverifiedIssuer } from '../api/authentication/service-account-token.js';
import { TOKEN_SECRET_KEYS } from '../api/core/secret-types.js';
import { serviceAccountGroups, serviceAccountUsername, type UserInfo } from '../authz/user.js';
import { readIfPresent, VerifiedTokens } from './service-account-authenticator.js';
import { InvalidToken, type TokenAuthenticator } from './token-authenticators.js';

/**
 * legacyTokenAuthenticator checks legacy tokens signed by `signer` as kube-apiserver does with
 * --service-account-lookup (its default): the claims, then the Secret (present, not being
 * deleted, holding this very token), then the ServiceAccount (present, not being deleted,
 * the uid the token names). Errors are kube's words (TokenReview's status.error).
 */
export function legacyTokenAuthenticator(options: { signer: TokenSigner; store: Store; apiAudiences: readonly string[] }): TokenAuthenticator {
  const { signer, store, apiAudiences } = options;
  const verified = new VerifiedTokens<Claims>();
  return (token, audiences) => {
    if (unverifiedIssuer(token) !== LEGACY_ISSUER) return undefined;
    const remembered = verified.get(token);
    let signed: Record<string, unknown> = {};
    if (!remembered) {
      const result = signer.verifiedClaims(token);
      if (!result.ok) throw new InvalidToken(result.reason);
      signed = result.claims;
    }
    // No audience in the token: it counts as the API server's own (checked before the claims, as kube does).
    const valid = apiAudiences.filter((a) => audiences.includes(a));
    if (valid.length === 0) throw new InvalidToken(audienceMismatch(apiAudiences, audiences));
    const claims = remembered ?? checkedClaims(signed);
    if (!remembered) verified.set(token, claims);
    checkSecret(store, claims, token);
    checkServiceAccount(store, claims);
    return { user: userOf(claims), audiences: valid };
  };
}

type Claims = { sub: string; namespace: string; secretName: string; name: string; uid: string };

function checkedClaims(claims: Record<string, unknown>): Claims {
  const text = (key: string) => (typeof claims[key] === 'string' ? (claims[key] as string) : '');
  const checked = {
    sub: text('sub'),
    namespace: text(LEGACY_CLAIM.namespace),
    secretName: text(LEGACY_CLAIM.secretName),
    name: text(LEGACY_CLAIM.serviceAccountName),
    uid: text(LEGACY_CLAIM.serviceAccountUid),
  };
  if (!checked.sub) throw new InvalidToken('sub claim is missing');
  if (!checked.namespace) throw new InvalidToken('namespace claim is missing');
  if (!checked.secretName) throw new InvalidToken('secretName claim is missing');
  if (!checked.name) throw new InvalidToken('serviceAccountName claim is missing');
  if (!checked.uid) throw new InvalidToken('serviceAccountUID claim is missing');
  if (checked.sub !== serviceAccountUsername(checked.namespace, checked.name)) throw new InvalidToken('sub claim is invalid');
  return checked;
}

function checkSecret(store: Store, claims: Claims, token: string): void {
  const secret = readIfPresent<{ data?: Record<string, string> }>(store, 'secrets', claims.namespace, claims.secretName);
  if (!secret || secret.metadata.deletionTimestamp) throw new InvalidToken('token has been invalidated');
  const kept = Buffer.from(secret.data?.[TOKEN_SECRET_KEYS.token] ?? '', 'base64');
  const presented = Buffer.from(token);
  if (kept.length !== presented.length || !timingSafeEqual(kept, presented)) throw new InvalidToken("token does not match server's copy");
}

function checkServiceAccount(store: Store, claims: Claims): void {
  const account = readIfPresent(store, 'serviceaccounts', claims.namespace, claims.name);
  if (!account) throw new InvalidToken(`serviceaccounts "${claims.name}" not found`);
  if (account.metadata.deletionTimestamp) throw new InvalidToken(`service account ${claims.namespace}/${claims.name} has been deleted`);
  if (account.metadata.uid !== claims.uid) throw new InvalidToken(`service account UID (${account.metadata.uid}) does not match claim (${claims.uid})`);
}

function userOf(claims: Claims): UserInfo {
  return { username: serviceAccountUsername(claims.namespace, claims.name), uid: claims.uid, groups: serviceAccountGroups(claims.namespace) };
}
