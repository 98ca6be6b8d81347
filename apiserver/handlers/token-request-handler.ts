/**
 * POST serviceaccounts/{name}/token: TokenRequest (authentication.k8s.io/v1), as
 * kube-apiserver's TokenREST answers it — `kubectl create token`. The token is a JWT signed
 * with the cluster's service-account key, for the audiences asked for (the API server's by
 * default), valid for expirationSeconds (default one hour, at least ten minutes) of cluster
 * time, and optionally bound to a Pod, Secret or Node: deleting that object revokes it.
 */
import { ApiError, badRequest, conflict, invalid } from '../api/api-error.js';
import { tokenClaims } from '../api/authentication/service-account-token.js';
import { rfc3339 } from '../api/machinery/time.js';
import type { FieldError, KubeObject } from '../api/resource-definition.js';
import { readStored } from '../registry/context.js';
import { decodeObjectBody, isPlainObject } from '../request/body.js';
import { type ApiRequest, type ApiResponse, type HandlerContext, targetOf } from './types.js';

/** kube's default and bounds of spec.expirationSeconds. */
const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;

const TOKEN_REQUEST = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest' };

interface BoundObjectRef {
  kind?: string;
  apiVersion?: string;
  name?: string;
  uid?: string;
}

interface TokenRequestSpec {
  audiences: string[];
  expirationSeconds: number;
  boundObjectRef?: BoundObjectRef;
}

interface Bound {
  pod?: { name: string; uid: string };
  secret?: { name: string; uid: string };
  node?: { name: string; uid: string };
}

export function tokenRequestHandler(ctx: HandlerContext, request: ApiRequest): ApiResponse {
  const tokens = ctx.tokens;
  if (!tokens) throw new ApiError('MethodNotAllowed', 405, 'the server does not issue service account tokens');
  const target = targetOf(request.path);
  const serviceAccount = readStored(ctx, target);
  const body = decodeObjectBody(request.contentType, request.body, { expected: TOKEN_REQUEST, method: request.method });
  const spec = specOf(body, tokens.apiAudiences);
  const warnings = clampExpiration(spec, tokens.maxExpirationSeconds);
  const bound = spec.boundObjectRef ? boundObject(ctx, target.namespace, target.name, spec.boundObjectRef) : {};
  const issuedAt = Math.floor(ctx.now() / 1000);
  const claims = tokenClaims({
    issuer: tokens.issuer,
    audiences: spec.audiences,
    namespace: target.namespace,
    serviceAccount: { name: target.name, uid: serviceAccount.metadata.uid ?? '' },
    ...bound,
    issuedAt,
    expirationSeconds: spec.expirationSeconds,
  });
  const boundObjectRef = spec.boundObjectRef && { ...spec.boundObjectRef, uid: (bound.pod ?? bound.secret ?? bound.node)?.uid };
  return {
    status: 201,
    body: {
      ...TOKEN_REQUEST,
      metadata: { name: target.name, namespace: target.namespace, creationTimestamp: null },
      spec: { audiences: spec.audiences, expirationSeconds: spec.expirationSeconds, ...(boundObjectRef ? { boundObjectRef } : {}) },
      status: { token: tokens.signer.sign(claims), expirationTimestamp: rfc3339(claims.exp * 1000) },
    },
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** clampExpiration shortens a valid request longer than --service-account-max-token-expiration
 * to it, saying so in a warning, as kube-apiserver does (after validation: the request's own
 * bounds still apply). */
function clampExpiration(spec: TokenRequestSpec, maxSeconds: number | undefined): string[] {
  if (!maxSeconds || spec.expirationSeconds <= maxSeconds) return [];
  const warning = `requested expiration of ${spec.expirationSeconds} seconds shortened to ${maxSeconds} seconds`;
  spec.expirationSeconds = maxSeconds;
  return [warning];
}

/** specOf reads and validates the request's spec, with kube's defaults and messages. */
function specOf(body: Record<string, unknown>, apiAudiences: string[]): TokenRequestSpec {
  const spec = isPlainObject(body['spec']) ? body['spec'] : {};
  const given = Array.isArray(spec['audiences']) ? spec['audiences'].filter((a): a is string => typeof a === 'string') : [];
  const expirationSeconds = typeof spec['expirationSeconds'] === 'number' ? spec['expirationSeconds'] : DEFAULT_EXPIRATION_SECONDS;
  const errors: FieldError[] = [];
  const field = 'spec.expirationSeconds';
  if (expirationSeconds < MIN_EXPIRATION_SECONDS) {
    errors.push({ type: 'FieldValueInvalid', field, value: expirationSeconds, detail: 'may not specify a duration less than 10 minutes' });
  }
  if (expirationSeconds > MAX_EXPIRATION_SECONDS) {
    errors.push({ type: 'FieldValueInvalid', field, value: expirationSeconds, detail: 'may not specify a duration larger than 2^32 seconds' });
  }
  if (errors.length > 0) throw invalid({ group: 'authentication.k8s.io', resource: 'tokenrequests', kind: 'TokenRequest', name: '' }, errors);
  const ref = isPlainObject(spec['boundObjectRef']) ? (spec['boundObjectRef'] as BoundObjectRef) : undefined;
  return { audiences: given.length > 0 ? given : [...apiAudiences], expirationSeconds, boundObjectRef: ref };
}

/** The kinds a token may be bound to, with where they are stored. */
const BINDABLE: Record<string, { resource: string; namespaced: boolean; claim: keyof Bound }> = {
  Pod: { resource: 'pods', namespaced: true, claim: 'pod' },
  Secret: { resource: 'secrets', namespaced: true, claim: 'secret' },
  Node: { resource: 'nodes', namespaced: false, claim: 'node' },
};

/**
 * boundObject looks the bound object up: it must exist (404 otherwise), match the uid given,
 * and — a Pod — run as this service account. A pod's node is named in the token too.
 */
function boundObject(ctx: HandlerContext, namespace: string, serviceAccount: string, ref: BoundObjectRef): Bound {
  const [group, version] = (ref.apiVersion ?? '').includes('/') ? (ref.apiVersion ?? '').split('/') : ['', ref.apiVersion ?? ''];
  const bindable = group === '' ? BINDABLE[ref.kind ?? ''] : undefined;
  if (!bindable) throw badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${ref.kind ?? ''}`);
  const def = ctx.registry.find('', 'v1', bindable.resource);
  if (!def) throw badRequest(`cannot bind token to object of type /v1, Kind=${ref.kind}`);
  const object = readStored(ctx, { def, namespace: bindable.namespaced ? namespace : '', name: ref.name ?? '' });
  const uid = object.metadata.uid ?? '';
  if (ref.uid && ref.uid !== uid) {
    const why = `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`;
    throw conflict({ group: '', resource: ref.kind ?? '', name: ref.name ?? '' }, why);
  }
  const bound: Bound = { [bindable.claim]: { name: object.metadata.name, uid } };
  if (bindable.claim === 'pod') Object.assign(bound, podBinding(ctx, object, serviceAccount));
  return bound;
}

/** podBinding checks a pod runs as the service account and names its node, if it has one. */
function podBinding(ctx: HandlerContext, pod: KubeObject, serviceAccount: string): Bound {
  const spec = (pod as { spec?: { serviceAccountName?: string; nodeName?: string } }).spec;
  if ((spec?.serviceAccountName || 'default') !== serviceAccount) {
    throw badRequest(`cannot bind token for serviceaccount "${serviceAccount}" to pod running with different serviceaccount name.`);
  }
  const nodeDef = ctx.registry.find('', 'v1', 'nodes');
  if (!spec?.nodeName || !nodeDef) return {};
  try {
    const node = readStored(ctx, { def: nodeDef, namespace: '', name: spec.nodeName });
    return { node: { name: spec.nodeName, uid: node.metadata.uid ?? '' } };
  } catch {
    return {};
  }
}
