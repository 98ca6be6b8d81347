/**
 * The shapes authentication and authorization speak in (kube-apiserver's user.Info,
 * authorizer.Attributes and Decision), kept here so the review kinds of apiserver/api can name
 * them; apiserver/authn and apiserver/authz implement them and re-export these types.
 */

/** Who is asking: name, uid, groups, extra. */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: readonly string[];
  extra?: Readonly<Record<string, readonly string[]>>;
}

/** A resource request (verb, API group, resource, subresource, name, namespace) and who makes it. */
export interface ResourceRequest {
  user: UserInfo;
  verb: string;
  apiGroup: string;
  resource: string;
  subresource?: string;
  name?: string;
  /** Empty or absent for cluster-scoped requests and requests across all namespaces. */
  namespace?: string;
}

export interface NonResourceRequest {
  user: UserInfo;
  verb: string;
  path: string;
}

export type RequestAttributes = ResourceRequest | NonResourceRequest;

export interface AuthorizationDecision {
  /** 'allow' and 'deny' are final; 'no-opinion' passes the request to the next authorizer. */
  decision: 'allow' | 'deny' | 'no-opinion';
  /** The authorizer's reason: appended to the Forbidden message, shown by SubjectAccessReview. */
  reason: string;
}

export interface Authorizer {
  authorize(attributes: RequestAttributes): AuthorizationDecision;
}
