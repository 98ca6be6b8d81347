/**
 * The request attributes an access review asks about (authorization.k8s.io/v1
 * ResourceAttributes, NonResourceAttributes) and the status every review answers with.
 */
import { z } from 'zod';
import { type FieldError, GoLiteral } from '../resource-definition.js';
import { invalid } from '../validation.js';

export const AUTHORIZATION_V1 = 'io.k8s.api.authorization.v1';

export const ResourceAttributesSchema = z
  .object({
    namespace: z.string().optional().describe('Namespace is the namespace of the action being requested. "" means all namespaces.'),
    verb: z.string().optional().describe('Verb is a kubernetes resource API verb, like: get, list, watch, create, update, delete, proxy. "*" means all.'),
    group: z.string().optional().describe('Group is the API Group of the Resource. "*" means all.'),
    version: z.string().optional().describe('Version is the API Version of the Resource. "*" means all.'),
    resource: z.string().optional().describe('Resource is one of the existing resource types. "*" means all.'),
    subresource: z.string().optional().describe('Subresource is one of the existing resource types. "" means none.'),
    name: z.string().optional().describe('Name is the name of the resource being requested for a "get" or deleted for a "delete". "" means all.'),
  })
  .meta({
    id: `${AUTHORIZATION_V1}.ResourceAttributes`,
    description: 'ResourceAttributes includes the authorization attributes available for resource requests.',
  });

export const NonResourceAttributesSchema = z
  .object({
    path: z.string().optional().describe('Path is the URL path of the request'),
    verb: z.string().optional().describe('Verb is the standard HTTP verb'),
  })
  .meta({
    id: `${AUTHORIZATION_V1}.NonResourceAttributes`,
    description: 'NonResourceAttributes includes the authorization attributes available for non-resource requests.',
  });

export const SubjectAccessReviewStatusSchema = z
  .object({
    allowed: z.boolean().describe('Allowed is required. True if the action would be allowed, false otherwise.'),
    denied: z.boolean().optional().describe('Denied is optional. True if the action would be denied, otherwise false.'),
    reason: z.string().optional().describe('Reason is optional. It indicates why a request was allowed or denied.'),
    evaluationError: z.string().optional().describe('EvaluationError is an indication that some error occurred during the authorization check.'),
  })
  .meta({ id: `${AUTHORIZATION_V1}.SubjectAccessReviewStatus`, description: 'SubjectAccessReviewStatus' });

/** AttributesSpec is what every access review spec has. */
export interface AttributesSpec {
  resourceAttributes?: z.infer<typeof ResourceAttributesSchema>;
  nonResourceAttributes?: z.infer<typeof NonResourceAttributesSchema>;
}

/** nonResourceAttributesValue renders the attributes as kube-apiserver's messages print them
 * (the internal Go struct, `%#v`). */
export function nonResourceAttributesValue(attributes: z.infer<typeof NonResourceAttributesSchema>): GoLiteral {
  return new GoLiteral(`authorization.NonResourceAttributes{Path:${JSON.stringify(attributes.path ?? '')}, Verb:${JSON.stringify(attributes.verb ?? '')}}`);
}

/** validateAttributes checks that exactly one kind of attributes is given, as
 * kube-apiserver's access review validation does (both errors are Invalid values; the
 * missing one prints the nil nonResourceAttributes as null). */
export function validateAttributes(spec: AttributesSpec): FieldError[] {
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    return [
      invalid(
        'spec.nonResourceAttributes',
        nonResourceAttributesValue(spec.nonResourceAttributes),
        'cannot be specified in combination with resourceAttributes',
      ),
    ];
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    return [invalid('spec.resourceAttributes', null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified')];
  }
  return [];
}
