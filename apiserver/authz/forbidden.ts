/**
 * kube-apiserver's 403 for a request no authorizer allowed (responsewriters.Forbidden): a
 * Status whose message is `{resource}[.{group}] ["{name}"] is forbidden: User ... cannot ...`
 * for resource requests and `forbidden: User ... cannot get path ...` for the others, and
 * whose details name the group, the resource (as kind, without its subresource) and the name.
 */
import { ApiError } from '../api/api-error.js';
import { goQuote } from '../api/machinery/go-quote.js';
import { forbiddenReason, isResourceRequest, type RequestAttributes } from './attributes.js';

export function forbiddenError(attributes: RequestAttributes, authorizerReason: string): ApiError {
  const sentence = forbiddenReason(attributes, authorizerReason);
  if (!isResourceRequest(attributes) || attributes.resource === '') return new ApiError('Forbidden', 403, `forbidden: ${sentence}`, {});
  const { apiGroup, resource, name = '' } = attributes;
  const qualified = apiGroup ? `${resource}.${apiGroup}` : resource;
  const subject = name ? `${qualified} ${goQuote(name)}` : qualified;
  const details = { ...(name ? { name } : {}), ...(apiGroup ? { group: apiGroup } : {}), kind: resource };
  return new ApiError('Forbidden', 403, `${subject} is forbidden: ${sentence}`, details);
}
