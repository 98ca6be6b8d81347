/**
 * Authorization, as kube-apiserver chains it (--authorization-mode): each authorizer allows,
 * denies or has no opinion; the first that allows or denies decides, and a request no
 * authorizer allowed is Forbidden with forbiddenReason's sentence. 'AlwaysAllow' is the mode of
 * a server started without RBAC (test clusters, `kubesim up --insecure-http`); 'RBAC' is
 * kube-apiserver's Node,RBAC with system:masters always allowed.
 */
import type { RequestAttributes } from './attributes.js';

export type AuthorizationMode = 'AlwaysAllow' | 'RBAC';

export interface AuthorizationDecision {
  /** 'allow' and 'deny' are final; 'no-opinion' passes the request to the next authorizer. */
  decision: 'allow' | 'deny' | 'no-opinion';
  /** The authorizer's reason: appended to the Forbidden message, shown by SubjectAccessReview. */
  reason: string;
}

export interface Authorizer {
  authorize(attributes: RequestAttributes): AuthorizationDecision;
}

/** The authorizer of AlwaysAllow mode. */
export const alwaysAllow: Authorizer = { authorize: () => ({ decision: 'allow', reason: '' }) };
