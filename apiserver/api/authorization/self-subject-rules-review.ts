/**
 * authorization.k8s.io/v1 SelfSubjectRulesReview: every action the current user may take in a
 * namespace (`kubectl auth can-i --list`), as the server's authorizer grants them
 * (review-answers.ts). Create-only, never stored.
 */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import type { ResourceDefinition } from '../resource-definition.js';
import { AUTHORIZATION_V1 } from './attributes.js';
import { SelfSubjectRulesReviewMessage } from './authorization-protobuf.js';
import { rulesReviewStatus } from './review-answers.js';

const ResourceRuleSchema = z
  .object({
    verbs: z.array(z.string()).describe('Verb is a list of kubernetes resource API verbs. "*" means all.'),
    apiGroups: z.array(z.string()).optional().describe('APIGroups is the name of the APIGroup that contains the resources. "*" means all.'),
    resources: z.array(z.string()).optional().describe('Resources is a list of resources this rule applies to. "*" means all in the specified apiGroups.'),
    resourceNames: z.array(z.string()).optional().describe('ResourceNames is an optional white list of names that the rule applies to. "*" means all.'),
  })
  .meta({ id: `${AUTHORIZATION_V1}.ResourceRule`, description: 'ResourceRule is the list of actions the subject is allowed to perform on resources.' });

const NonResourceRuleSchema = z
  .object({
    verbs: z.array(z.string()).describe('Verb is a list of kubernetes non-resource API verbs. "*" means all.'),
    nonResourceURLs: z.array(z.string()).optional().describe('NonResourceURLs is a set of partial urls that a user should have access to.'),
  })
  .meta({ id: `${AUTHORIZATION_V1}.NonResourceRule`, description: 'NonResourceRule holds information that describes a rule for the non-resource' });

export const SelfSubjectRulesReviewSchema = z
  .object({
    ...typeMetaFields('authorization.k8s.io/v1', 'SelfSubjectRulesReview'),
    spec: z
      .object({ namespace: z.string().optional().describe('Namespace to evaluate rules for. Required.') })
      .meta({
        id: `${AUTHORIZATION_V1}.SelfSubjectRulesReviewSpec`,
        description: 'SelfSubjectRulesReviewSpec defines the specification for SelfSubjectRulesReview.',
      })
      .describe('Spec holds information about the request being evaluated.'),
    status: z
      .object({
        resourceRules: z.array(ResourceRuleSchema).optional().describe('ResourceRules is the list of actions the subject is allowed to perform on resources.'),
        nonResourceRules: z
          .array(NonResourceRuleSchema)
          .optional()
          .describe('NonResourceRules is the list of actions the subject is allowed to perform on non-resources.'),
        incomplete: z.boolean().optional().describe('Incomplete is true when the rules returned by this call are incomplete.'),
        evaluationError: z.string().optional().describe('EvaluationError can appear in combination with Rules.'),
      })
      .meta({ id: `${AUTHORIZATION_V1}.SubjectRulesReviewStatus`, description: 'SubjectRulesReviewStatus contains the result of a rules check.' })
      .optional()
      .describe('Status is filled in by the server and indicates the set of actions a user can perform.'),
  })
  .meta({
    id: `${AUTHORIZATION_V1}.SelfSubjectRulesReview`,
    description: 'SelfSubjectRulesReview enumerates the set of actions the current user can perform within a namespace.',
  });

export type SelfSubjectRulesReview = z.infer<typeof SelfSubjectRulesReviewSchema>;

export const selfSubjectRulesReviewDefinition: ResourceDefinition<SelfSubjectRulesReview> = {
  group: 'authorization.k8s.io',
  version: 'v1',
  kind: 'SelfSubjectRulesReview',
  plural: 'selfsubjectrulesreviews',
  singular: 'selfsubjectrulesreview',
  shortNames: [],
  categories: [],
  namespaced: false,
  schema: SelfSubjectRulesReviewSchema,
  protobuf: SelfSubjectRulesReviewMessage,
  answer: (review, _namespace, context) => ({ ...review, status: rulesReviewStatus(context, review.spec?.namespace) }),
  tracksGeneration: false,
  subresources: {},
  printColumns: [],
  verbs: ['create'],
  source: 'review',
  storage: { resource: 'selfsubjectrulesreviews.authorization.k8s.io' },
};
