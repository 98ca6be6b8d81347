/**
 * The service-account token authenticator of kube-apiserver: a JWT of this cluster's issuer,
 * signed by its key, for one of the audiences asked for, within its lifetime; for a bound
 * token, the ServiceAccount and the object it is bound to (Pod, Secret, Node) must still
 * exist with the uids the token names — deleting the pod revokes its tokens. The user is
 * system:serviceaccount:<ns>:<name> with the service-account groups and the `extra` kube
 * 1.33 adds (the pod and node the token is bound to, the token's credential id).
 */

import { isNotFound } from '../../store/errors.js';
import type { Store } from '../../store/index.js';
import { type ServiceAccountClaims, type TokenSigner, unverifiedIssuer } from '../api/authentication/service-account-token.js';
import { serviceAccountGroups, serviceAccountUsername, type UserInfo } from '../authz/user.js';
import { InvalidToken, type TokenAuthenticator } from './token-authenticators.js';

export interface ServiceAccountAuthenticatorOptions {
  signer: TokenSigner;
  issuer: string;
  store: Store;
  /** Milliseconds since the epoch: the cluster clock, which token lifetimes follow. */
  now: () => number;
}

/** kube-apiserver's words for a token whose service account or bound object is gone. */
export const TOKEN_INVALIDATED = 'service account token has been invalidated';

const EXTRA = 'authentication.kubernetes.io';

/** At most this many verified signatures are remembered; the memo is dropped when full. */
const MAX_REMEMBERED = 4096;

/** VerifiedTokens remembers the claims of tokens whose signature was checked: checking an ECDSA
 * signature costs more than the rest of a request, and a client sends the same token again and
 * again. Bounded (dropped when full). What depends on time or on stored objects is checked on
 * every use by the caller. */
export class VerifiedTokens<C> {
  private readonly claims = new Map<string, C>();

  get(token: string): C | undefined {
    return this.claims.get(token);
  }

  set(token: string, claims: C): void {
    if (this.claims.size >= MAX_REMEMBERED) this.claims.clear();
    this.claims.set(token, claims);
  }
}

export function serviceAccountAuthenticator(options: ServiceAccountAuthenticatorOptions): TokenAuthenticator {
  const { signer, issuer, store, now } = options;
  // Time, audiences and bound objects are checked on every use.
  const verified = new VerifiedTokens<ServiceAccountClaims>();
  return (token, audiences) => {
    if (unverifiedIssuer(token) !== issuer) return undefined;
    const nowSeconds = Math.floor(now() / 1000);
    const remembered = verified.get(token);
    const stillGood = remembered && nowSeconds < remembered.exp && remembered.aud.some((a) => audiences.includes(a));
    let claims = stillGood ? remembered : undefined;
    if (!claims) {
      const result = signer.verify(token, { audiences, nowSeconds, issuer });
      if (!result.ok) throw new InvalidToken(result.reason);
      claims = result.claims;
      verified.set(token, claims);
    }
    if (nowSeconds < claims.nbf) throw new InvalidToken('service account token is not valid yet');
    checkBoundObjects(store, claims, now());
    return { user: userOf(claims), audiences: claims.aud.filter((a) => audiences.includes(a)) };
  };
}

type StoredMeta<T = object> = T & {
  metadata: { uid?: string; deletionTimestamp?: string };
};

/** checkBoundObjects: the service account and the bound object exist with the token's uids. */
function checkBoundObjects(store: Store, claims: ServiceAccountClaims, nowMs: number): void {
  const { namespace, serviceaccount, pod, secret, node } = claims['kubernetes.io'];
  const live = (resource: string, ns: string, ref: { name: string; uid: string }, deletedAfterGrace = false) => {
    const object = readIfPresent(store, resource, ns, ref.name);
    if (!object || object.metadata.uid !== ref.uid) throw new InvalidToken(TOKEN_INVALIDATED);
    const deletion = object.metadata.deletionTimestamp;
    // A pod's deletionTimestamp is the end of its grace period: its tokens work until then.
    if (deletion && (!deletedAfterGrace || Date.parse(deletion) <= nowMs)) throw new InvalidToken(TOKEN_INVALIDATED);
  };
  live('serviceaccounts', namespace, serviceaccount);
  if (pod) live('pods', namespace, pod, true);
  if (secret) live('secrets', namespace, secret);
  // A token bound to a pod names the pod's node for information; only a Node-bound token
  // (no pod) depends on the node.
  if (node && !pod) live('nodes', '', node);
}

/** readIfPresent reads a stored object for a token check; undefined when it does not exist. */
export function readIfPresent<T = object>(store: Store, resource: string, namespace: string, name: string): StoredMeta<T> | undefined {
  try {
    return store.get({ resource, namespace, name }) as unknown as StoredMeta<T>;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** userOf is the user a valid token authenticates as. */
export function userOf(claims: ServiceAccountClaims): UserInfo {
  const { namespace, serviceaccount, pod, node } = claims['kubernetes.io'];
  const extra: Record<string, string[]> = {};
  if (pod) {
    extra[`${EXTRA}/pod-name`] = [pod.name];
    extra[`${EXTRA}/pod-uid`] = [pod.uid];
  }
  if (node) {
    extra[`${EXTRA}/node-name`] = [node.name];
    extra[`${EXTRA}/node-uid`] = [node.uid];
  }
  extra[`${EXTRA}/credential-id`] = [`JTI=${claims.jti}`];
  return { username: serviceAccountUsername(namespace, serviceaccount.name), uid: serviceaccount.uid, groups: serviceAccountGroups(namespace), extra };
}
