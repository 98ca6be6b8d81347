/**
 * authorization.k8s.io/v1 SubjectAccessReview, LocalSubjectAccessReview and
 * SelfSubjectAccessReview: "may this user do this?" asked of the server's authorizer (the same
 * one that authorizes requests: review-answers.ts). Create-only and never stored
 * (`source: 'review'`).
 */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { invalid } from '../validation.js';
import {
  AUTHORIZATION_V1,
  NonResourceAttributesSchema,
  nonResourceAttributesValue,
  ResourceAttributesSchema,
  SubjectAccessReviewStatusSchema,
  validateAttributes,
} from './attributes.js';
import { LocalSubjectAccessReviewMessage, SelfSubjectAccessReviewMessage, SubjectAccessReviewMessage } from './authorization-protobuf.js';
import { accessReviewStatus, specUser } from './review-answers.js';

export const SubjectAccessReviewSpecSchema = z
  .object({
    resourceAttributes: ResourceAttributesSchema.optional().describe('ResourceAuthorizationAttributes describes information for a resource access request'),
    nonResourceAttributes: NonResourceAttributesSchema.optional().describe('NonResourceAttributes describes information for a non-resource access request'),
    user: z.string().optional().describe("User is the user you're testing for."),
    groups: z.array(z.string()).optional().describe("Groups is the groups you're testing for."),
    uid: z.string().optional().describe('UID information about the requesting user.'),
  })
  .meta({
    id: `${AUTHORIZATION_V1}.SubjectAccessReviewSpec`,
    description:
      'SubjectAccessReviewSpec is a description of the access request. Exactly one of ResourceAuthorizationAttributes and NonResourceAuthorizationAttributes must be set',
  });

export const SelfSubjectAccessReviewSpecSchema = z
  .object({
    resourceAttributes: ResourceAttributesSchema.optional().describe('ResourceAuthorizationAttributes describes information for a resource access request'),
    nonResourceAttributes: NonResourceAttributesSchema.optional().describe('NonResourceAttributes describes information for a non-resource access request'),
  })
  .meta({
    id: `${AUTHORIZATION_V1}.SelfSubjectAccessReviewSpec`,
    description:
      'SelfSubjectAccessReviewSpec is a description of the access request. Exactly one of ResourceAuthorizationAttributes and NonResourceAuthorizationAttributes must be set',
  });

function reviewSchema<K extends string, S extends z.ZodType>(kind: K, spec: S, description: string) {
  return z
    .object({
      ...typeMetaFields('authorization.k8s.io/v1', kind),
      spec: spec.describe('Spec holds information about the request being evaluated'),
      status: SubjectAccessReviewStatusSchema.optional().describe('Status is filled in by the server and indicates whether the request is allowed or not'),
    })
    .meta({ id: `${AUTHORIZATION_V1}.${kind}`, description });
}

export const SubjectAccessReviewSchema = reviewSchema(
  'SubjectAccessReview',
  SubjectAccessReviewSpecSchema,
  'SubjectAccessReview checks whether or not a user or group can perform an action.',
);
export const LocalSubjectAccessReviewSchema = reviewSchema(
  'LocalSubjectAccessReview',
  SubjectAccessReviewSpecSchema,
  'LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given namespace.',
);
export const SelfSubjectAccessReviewSchema = reviewSchema(
  'SelfSubjectAccessReview',
  SelfSubjectAccessReviewSpecSchema,
  'SelfSubjectAccessReview checks whether or the current user can perform an action.',
);

export type SubjectAccessReview = z.infer<typeof SubjectAccessReviewSchema>;
export type LocalSubjectAccessReview = z.infer<typeof LocalSubjectAccessReviewSchema>;
export type SelfSubjectAccessReview = z.infer<typeof SelfSubjectAccessReviewSchema>;

/** validateSubjectAccessReview: one kind of attributes, and a user or groups to ask about. */
export function validateSubjectAccessReview(review: Pick<SubjectAccessReview, 'spec'>): FieldError[] {
  const errors = validateAttributes(review.spec);
  if (!review.spec.user && !review.spec.groups?.length) {
    errors.push(invalid('spec.user', review.spec.user ?? '', 'at least one of user or group must be specified'));
  }
  return errors;
}

/** validateLocalSubjectAccessReview adds what a namespaced review needs: resource attributes
 * in the review's own namespace. */
export function validateLocalSubjectAccessReview(review: LocalSubjectAccessReview): FieldError[] {
  const errors = validateSubjectAccessReview(review);
  const attributes = review.spec.resourceAttributes;
  if (attributes && (attributes.namespace ?? '') !== (review.metadata.namespace ?? '')) {
    errors.push(invalid('spec.resourceAttributes.namespace', attributes.namespace ?? '', 'must match metadata.namespace'));
  }
  if (review.spec.nonResourceAttributes) {
    errors.push(invalid('spec.nonResourceAttributes', nonResourceAttributesValue(review.spec.nonResourceAttributes), 'disallowed on this kind of request'));
  }
  return errors;
}

/** reviewBase is what the four access reviews share as definitions: create-only, not stored. */
const reviewBase: Pick<
  ResourceDefinition,
  'nameRule' | 'group' | 'version' | 'shortNames' | 'categories' | 'tracksGeneration' | 'subresources' | 'verbs' | 'source'
> = {
  group: 'authorization.k8s.io',
  version: 'v1',
  shortNames: [],
  categories: [],
  nameRule: 'dns1123-subdomain',
  tracksGeneration: false,
  subresources: {},
  verbs: ['create'],
  source: 'review',
};

export const subjectAccessReviewDefinition: ResourceDefinition<SubjectAccessReview> = {
  ...reviewBase,
  kind: 'SubjectAccessReview',
  plural: 'subjectaccessreviews',
  singular: 'subjectaccessreview',
  namespaced: false,
  schema: SubjectAccessReviewSchema,
  protobuf: SubjectAccessReviewMessage,
  validate: validateSubjectAccessReview,
  answer: (review, _namespace, context) => ({ ...review, status: accessReviewStatus(context, review.spec, specUser(review.spec)) }),
  printColumns: [],
  storage: { resource: 'subjectaccessreviews.authorization.k8s.io' },
};

export const localSubjectAccessReviewDefinition: ResourceDefinition<LocalSubjectAccessReview> = {
  ...reviewBase,
  kind: 'LocalSubjectAccessReview',
  plural: 'localsubjectaccessreviews',
  singular: 'localsubjectaccessreview',
  namespaced: true,
  schema: LocalSubjectAccessReviewSchema,
  protobuf: LocalSubjectAccessReviewMessage,
  validate: validateLocalSubjectAccessReview,
  answer: (review, _namespace, context) => ({ ...review, status: accessReviewStatus(context, review.spec, specUser(review.spec)) }),
  printColumns: [],
  storage: { resource: 'localsubjectaccessreviews.authorization.k8s.io' },
};

export const selfSubjectAccessReviewDefinition: ResourceDefinition<SelfSubjectAccessReview> = {
  ...reviewBase,
  kind: 'SelfSubjectAccessReview',
  plural: 'selfsubjectaccessreviews',
  singular: 'selfsubjectaccessreview',
  namespaced: false,
  schema: SelfSubjectAccessReviewSchema,
  protobuf: SelfSubjectAccessReviewMessage,
  validate: (review) => validateAttributes(review.spec),
  answer: (review, _namespace, context) => ({ ...review, status: accessReviewStatus(context, review.spec, context.user) }),
  printColumns: [],
  storage: { resource: 'selfsubjectaccessreviews.authorization.k8s.io' },
};
