/**
 * The attributes authorization decides on (kube-apiserver's authorizer.Attributes): a resource
 * request (verb, API group, resource, subresource, name, namespace) or a non-resource one (verb
 * and path), and who makes it.
 */

import type { RequestAttributes, ResourceRequest } from '../api/authorization/authorizer-types.js';
import { goQuote } from '../api/machinery/go-quote.js';

export type { NonResourceRequest, RequestAttributes, ResourceRequest } from '../api/authorization/authorizer-types.js';

export function isResourceRequest(attributes: RequestAttributes): attributes is ResourceRequest {
  return 'resource' in attributes;
}

/** The resource with its subresource, as RBAC rules name it: `pods/log`. */
export function combinedResource(request: ResourceRequest): string {
  return request.subresource ? `${request.resource}/${request.subresource}` : request.resource;
}

/**
 * forbiddenReason is the sentence kube-apiserver puts after "is forbidden: " when no
 * authorizer allowed a request, with the authorizer's own reason appended when it gave one.
 */
export function forbiddenReason(attributes: RequestAttributes, authorizerReason = ''): string {
  const who = goQuote(attributes.user.username);
  let sentence: string;
  if (!isResourceRequest(attributes)) {
    sentence = `User ${who} cannot ${attributes.verb} path ${goQuote(attributes.path)}`;
  } else {
    const what = `User ${who} cannot ${attributes.verb} resource ${goQuote(combinedResource(attributes))} in API group ${goQuote(attributes.apiGroup)}`;
    sentence = attributes.namespace ? `${what} in the namespace ${goQuote(attributes.namespace)}` : `${what} at the cluster scope`;
  }
  return authorizerReason ? `${sentence}: ${authorizerReason}` : sentence;
}
