/**
 * Service account issuer discovery, as kube-apiserver serves it: an OpenID Connect discovery
 * document naming the issuer and where its keys are, and the keys as a JSON Web Key Set, so
 * that relying parties outside the cluster can check the cluster's service-account tokens.
 * (The bootstrap policy grants both paths to system:service-account-issuer-discovery.)
 */
import type { FastifyInstance } from 'fastify';
import type { TokenService } from './token-service.js';

export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';

/** Relying parties may cache both documents for an hour, as kube-apiserver tells them. */
const CACHE_CONTROL = 'public, max-age=3600';

export function registerIssuerDiscovery(app: FastifyInstance, tokens: TokenService): void {
  // The keys live at the issuer's host (--service-account-jwks-uri's default).
  const jwksUri = new URL(JWKS_PATH, tokens.issuer).toString();
  const configuration = JSON.stringify({
    issuer: tokens.issuer,
    jwks_uri: jwksUri,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['ES256'],
  });
  const keySet = JSON.stringify(tokens.signer.jwks());
  app.get(OPENID_CONFIGURATION_PATH, (_request, reply) => {
    reply.header('cache-control', CACHE_CONTROL).type('application/json').send(configuration);
  });
  app.get(JWKS_PATH, (_request, reply) => {
    reply.header('cache-control', CACHE_CONTROL).type('application/jwk-set+json').send(keySet);
  });
}
