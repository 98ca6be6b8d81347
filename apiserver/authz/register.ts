/**
 * Authorization in the request path. In 'RBAC' mode every request, once authenticated, has its
 * impersonation headers applied and is then authorized (system:masters, Node, RBAC) from its
 * method and URL alone, before routing, body parsing or any handler runs — as kube-apiserver's
 * filters do — and refused with kube's 403 Status. In 'AlwaysAllow' mode no hook is added at
 * all (nothing to pay per request); impersonation is still honoured when the server has
 * authenticators, as kube-apiserver honours it under AlwaysAllow.
 */
import type { FastifyInstance } from 'fastify';
import type { Store } from '../../store/index.js';
import type { GrantedRules } from '../api/resource-definition.js';
import { recordAuthorization } from '../audit/register.js';
import { type AuthorizationMode, type Authorizer, alwaysAllow } from './authorizer.js';
import { EVERYTHING, rbacModeAuthorizer, rbacModeRulesFor } from './chain.js';
import { forbiddenError } from './forbidden.js';
import { impersonate } from './impersonation.js';
import { type NodeGraphCache, startNodeGraph } from './node-graph.js';
import type { RbacObjects } from './rbac-authorizer.js';
import { type RbacCache, startRbacCache } from './rbac-cache.js';
import { requestAttributes } from './request-info.js';
import type { UserInfo } from './user.js';

/** AlwaysAllow's rule resolver: everything, for everyone. */
const allowEverything = (): GrantedRules => ({ rules: EVERYTHING, incomplete: false });

/** ServerAuthorization is what the handlers need: the authorizer (access reviews) and, in RBAC
 * mode, the RBAC objects (escalation checks, rules reviews) and the Node graph (NodeRestriction). */
export interface ServerAuthorization {
  mode: AuthorizationMode;
  authorizer: Authorizer;
  /** The rules the chain grants a user in a namespace (SelfSubjectRulesReview). */
  rulesFor(user: UserInfo, namespace: string): GrantedRules;
  rbac?: RbacObjects;
  nodeGraph?: NodeGraphCache;
}

export interface AuthorizationOptions {
  mode: AuthorizationMode;
  store: Store;
  /** Apply impersonation headers (a server with authenticators; always in RBAC mode). */
  impersonation: boolean;
}

export function registerAuthorization(app: FastifyInstance, options: AuthorizationOptions): ServerAuthorization {
  if (options.mode !== 'RBAC') {
    if (options.impersonation) {
      app.addHook('onRequest', (request, _reply, done) => {
        try {
          request.user = impersonate(alwaysAllow, request.user, request.headers);
        } catch (err) {
          return done(err as Error);
        }
        done();
      });
    }
    return { mode: options.mode, authorizer: alwaysAllow, rulesFor: allowEverything };
  }
  const rbac: RbacCache = startRbacCache(options.store, app.log);
  const nodeGraph = startNodeGraph(options.store, app.log);
  const authorizer = rbacModeAuthorizer(rbac, nodeGraph);
  app.addHook('onClose', async () => {
    rbac.stop();
    nodeGraph.stop();
  });
  // Callback-style: the decision is synchronous, so the request goes on without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      request.user = impersonate(authorizer, request.user, request.headers);
      const attributes = requestAttributes(request.user, request.method, request.url, request.query as Record<string, string>);
      const decision = authorizer.authorize(attributes);
      recordAuthorization(request, decision);
      if (decision.decision !== 'allow') return done(forbiddenError(attributes, decision.reason));
    } catch (err) {
      return done(err as Error);
    }
    done();
  });
  return { mode: 'RBAC', authorizer, rulesFor: rbacModeRulesFor(rbac), rbac, nodeGraph };
}
