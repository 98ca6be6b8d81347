/**
 * authorization.k8s.io: the access reviews (SubjectAccessReview, LocalSubjectAccessReview,
 * SelfSubjectAccessReview, SelfSubjectRulesReview). Create-only questions to the authorizer,
 * answered on the POST and never stored.
 *
 * Role: schemas, validation and answers of the group's kinds. May import only from
 * apiserver/api/ and zod.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { selfSubjectRulesReviewDefinition } from './self-subject-rules-review.js';
import { localSubjectAccessReviewDefinition, selfSubjectAccessReviewDefinition, subjectAccessReviewDefinition } from './subject-access-review.js';

export * from './self-subject-rules-review.js';
export * from './subject-access-review.js';

/** authorizationDefinitions lists the group's served kinds. */
export const authorizationDefinitions: AnyResourceDefinition[] = [
  localSubjectAccessReviewDefinition,
  selfSubjectAccessReviewDefinition,
  selfSubjectRulesReviewDefinition,
  subjectAccessReviewDefinition,
];
