/**
 * Bearer-token authentication, as kube-apiserver chains it: each TokenAuthenticator checks a
 * token for a set of audiences. The same chain answers requests (`Authorization: Bearer`,
 * for the API server's own audiences) and TokenReviews (for the audiences the review asks
 * about), so both always agree.
 */
import type { UserInfo } from '../authz/user.js';
import { type Authenticator, unauthorized } from './authenticator.js';
import { bearerToken } from './token-file.js';

/** The API server's default audience (--api-audiences defaults to the issuer, kubeadm's). */
export const API_AUDIENCE = 'https://kubernetes.default.svc.cluster.local';

/** A token recognised: who it is and the audiences (of the ones asked for) it is valid for. */
export interface TokenAuthentication {
  user: UserInfo;
  audiences: string[];
}

/** InvalidToken: the token is of the authenticator's kind but not valid; the message is
 * kube-apiserver's (TokenReview's status.error). */
export class InvalidToken extends Error {}

/** A TokenAuthenticator returns the token's user, undefined when the token is not of its kind,
 * or throws InvalidToken. Synchronous: a TokenReview is answered within one store call. */
export type TokenAuthenticator = (token: string, audiences: readonly string[]) => TokenAuthentication | undefined;

export type TokenResult = { ok: true; authentication: TokenAuthentication } | { ok: false; error?: string };

/** authenticateToken runs the chain: the first authenticator that knows the token decides;
 * errors are joined as kube's union authenticator aggregates them. */
export function authenticateToken(chain: readonly TokenAuthenticator[], token: string, audiences: readonly string[]): TokenResult {
  const errors: string[] = [];
  for (const authenticator of chain) {
    try {
      const authentication = authenticator(token, audiences);
      if (authentication) return { ok: true, authentication };
    } catch (err) {
      if (!(err instanceof InvalidToken)) throw err;
      errors.push(err.message);
    }
  }
  if (errors.length === 0) return { ok: false };
  return { ok: false, error: errors.length === 1 ? errors[0] : `[${errors.join(', ')}]` };
}

/** bearerTokenAuthenticator authenticates `Authorization: Bearer` tokens for the API
 * server's audiences. It comes last among the authenticators of a bearer token: a token no
 * authenticator accepts is a 401, never an anonymous request. */
export function bearerTokenAuthenticator(chain: readonly TokenAuthenticator[], apiAudiences: readonly string[]): Authenticator {
  return (request) => {
    const token = bearerToken(request);
    if (token === undefined) return undefined;
    const result = authenticateToken(chain, token, apiAudiences);
    if (!result.ok) throw unauthorized();
    return result.authentication.user;
  };
}

/** audienceAgnostic wraps an authenticator whose tokens carry no audience (the token file):
 * its tokens are good for the API server's own audiences only, as kube-apiserver wraps them. */
export function audienceAgnostic(check: (token: string) => UserInfo | undefined, apiAudiences: readonly string[]): TokenAuthenticator {
  return (token, audiences) => {
    const shared = audiences.filter((a) => apiAudiences.includes(a));
    if (shared.length === 0) return undefined;
    const user = check(token);
    return user && { user, audiences: shared };
  };
}
