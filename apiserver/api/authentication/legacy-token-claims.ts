/**
 * The claims of a legacy service-account token: the long-lived JWT the token controller writes
 * into a Secret of type kubernetes.io/service-account-token. One definition for both sides:
 * the controller that issues them (controllers/serviceaccount/tokens-controller.ts) and the
 * API server's legacy authenticator (apiserver/authn/legacy-token.ts). No audience, no expiry.
 */
import { serviceAccountUsername } from './service-account-names.js';

/** The issuer of every legacy token, whatever the cluster's --service-account-issuer. */
export const LEGACY_ISSUER = 'kubernetes/serviceaccount';

export const LEGACY_CLAIM = {
  namespace: 'kubernetes.io/serviceaccount/namespace',
  secretName: 'kubernetes.io/serviceaccount/secret.name',
  serviceAccountName: 'kubernetes.io/serviceaccount/service-account.name',
  serviceAccountUid: 'kubernetes.io/serviceaccount/service-account.uid',
} as const;

/** legacyTokenClaims are the claims of the token for `account`, kept in the Secret `secretName`. */
export function legacyTokenClaims(account: { namespace: string; name: string; uid: string }, secretName: string): Record<string, string> {
  return {
    iss: LEGACY_ISSUER,
    [LEGACY_CLAIM.namespace]: account.namespace,
    [LEGACY_CLAIM.secretName]: secretName,
    [LEGACY_CLAIM.serviceAccountName]: account.name,
    [LEGACY_CLAIM.serviceAccountUid]: account.uid,
    sub: serviceAccountUsername(account.namespace, account.name),
  };
}
