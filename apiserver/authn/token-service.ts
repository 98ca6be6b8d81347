/**
 * The server's token machinery in one place: the service-account key that signs
 * TokenRequests, the issuer and audiences, and the bearer-token chain (token file, then
 * service-account JWTs, then the legacy Secret tokens) that authenticates requests and answers
 * TokenReviews alike.
 */
import type { Store } from '../../store/index.js';
import { createTokenSigner, DEFAULT_ISSUER, type TokenSigner } from '../api/authentication/service-account-token.js';
import type { ReviewTokenStatus } from '../api/resource-definition.js';
import type { Authenticator } from './authenticator.js';
import { legacyTokenAuthenticator } from './legacy-token.js';
import { serviceAccountAuthenticator } from './service-account-authenticator.js';
import { API_AUDIENCE, audienceAgnostic, authenticateToken, bearerTokenAuthenticator, type TokenAuthenticator } from './token-authenticators.js';
import { tokenFileUsers } from './token-file.js';

export interface TokenService {
  /** --service-account-issuer: the `iss` of the tokens issued and accepted. */
  issuer: string;
  /** --api-audiences: what a token must be for to authenticate a request. */
  apiAudiences: string[];
  signer: TokenSigner;
  /** --service-account-max-token-expiration (seconds): a TokenRequest asking for longer gets this. */
  maxExpirationSeconds?: number;
  /** Authenticates `Authorization: Bearer` tokens; put after the client-certificate one. */
  authenticator: Authenticator;
  /** Answers a TokenReview: `audiences` default to the API server's. */
  review(token: string, audiences?: readonly string[]): ReviewTokenStatus;
}

export interface TokenServiceOptions {
  /** The service-account signing key (PEM, PKCS#8 EC P-256). */
  keyPem: string;
  store: Store;
  now: () => number;
  /** --token-auth-file, whose tokens come first in the chain. */
  tokenAuthFile?: string;
  issuer?: string;
  maxExpirationSeconds?: number;
}

export function createTokenService(options: TokenServiceOptions): TokenService {
  const issuer = options.issuer ?? DEFAULT_ISSUER;
  const apiAudiences = [API_AUDIENCE];
  const signer = createTokenSigner(options.keyPem);
  const chain: TokenAuthenticator[] = [];
  if (options.tokenAuthFile) chain.push(audienceAgnostic(tokenFileUsers(options.tokenAuthFile), apiAudiences));
  chain.push(
    serviceAccountAuthenticator({ signer, issuer, store: options.store, now: options.now }),
    legacyTokenAuthenticator({ signer, store: options.store, apiAudiences }),
  );
  return {
    issuer,
    apiAudiences,
    signer,
    maxExpirationSeconds: options.maxExpirationSeconds,
    authenticator: bearerTokenAuthenticator(chain, apiAudiences),
    review(token, audiences) {
      const result = authenticateToken(chain, token, audiences && audiences.length > 0 ? audiences : apiAudiences);
      if (!result.ok) return result.error ? { user: {}, error: result.error } : { user: {} };
      const { user, audiences: valid } = result.authentication;
      const answered = { username: user.username, uid: user.uid, groups: [...user.groups], extra: copyExtra(user.extra) };
      return { authenticated: true, user: answered, audiences: valid };
    },
  };
}

function copyExtra(extra: Readonly<Record<string, readonly string[]>> | undefined): Record<string, string[]> | undefined {
  return extra && Object.fromEntries(Object.entries(extra).map(([key, values]) => [key, [...values]]));
}
