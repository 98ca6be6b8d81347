/**
 * Authorization, as kube-apiserver chains it (--authorization-mode): each authorizer allows,
 * denies or has no opinion; the first that allows or denies decides, and a request no
 * authorizer allowed is Forbidden with forbiddenReason's sentence. 'AlwaysAllow' is the mode of
 * a server started without RBAC (test clusters, `kubesim up --insecure-http`); 'RBAC' is
 * kube-apiserver's Node,RBAC with system:masters always allowed.
 */
import type { Authorizer } from '../api/authorization/authorizer-types.js';

export type { AuthorizationDecision, Authorizer } from '../api/authorization/authorizer-types.js';

export type AuthorizationMode = 'AlwaysAllow' | 'RBAC';

/** The authorizer of AlwaysAllow mode. */
export const alwaysAllow: Authorizer = { authorize: () => ({ decision: 'allow', reason: '' }) };
