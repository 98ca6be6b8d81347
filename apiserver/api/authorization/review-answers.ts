/**
 * The answers of the access reviews, from the server's own authorizer (kube's
 * registry/authorization/*): a SubjectAccessReview asks about the user its spec names, a
 * SelfSubjectAccessReview about the caller, a LocalSubjectAccessReview in its own namespace;
 * the status says allowed (the chain allowed), denied (an authorizer denied outright) and the
 * authorizer's reason. A SelfSubjectRulesReview lists what the caller is granted in a namespace.
 */

import { badRequest } from '../api-error.js';
import type { ReviewContext } from '../resource-definition.js';
import type { AttributesSpec } from './attributes.js';
import type { RequestAttributes, UserInfo } from './authorizer-types.js';

type AccessReviewStatus = { allowed: boolean; denied?: boolean; reason?: string; evaluationError?: string };

/** attributesOf turns a review's spec into the attributes a request would have. */
export function attributesOf(spec: AttributesSpec, user: UserInfo): RequestAttributes {
  const resource = spec.resourceAttributes;
  if (!resource) return { user, verb: spec.nonResourceAttributes?.verb ?? '', path: spec.nonResourceAttributes?.path ?? '' };
  return {
    user,
    verb: resource.verb ?? '',
    apiGroup: resource.group ?? '',
    resource: resource.resource ?? '',
    ...(resource.subresource ? { subresource: resource.subresource } : {}),
    ...(resource.name ? { name: resource.name } : {}),
    ...(resource.namespace ? { namespace: resource.namespace } : {}),
  };
}

/** accessReviewStatus asks the authorizer and words its decision as kube does. */
export function accessReviewStatus(context: ReviewContext, spec: AttributesSpec, user: UserInfo): AccessReviewStatus {
  const decision = context.authorizer.authorize(attributesOf(spec, user));
  const status: AccessReviewStatus = { allowed: decision.decision === 'allow' };
  if (decision.decision === 'deny') status.denied = true;
  if (decision.reason) status.reason = decision.reason;
  return status;
}

/** The user a SubjectAccessReview's spec names. */
export function specUser(spec: { user?: string; groups?: string[]; uid?: string }): UserInfo {
  return { username: spec.user ?? '', groups: spec.groups ?? [], ...(spec.uid ? { uid: spec.uid } : {}) };
}

type RuleLists = {
  resourceRules: Array<{ verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[] }>;
  nonResourceRules: Array<{ verbs: string[]; nonResourceURLs?: string[] }>;
  incomplete: boolean;
  evaluationError?: string;
};

/** rulesReviewStatus lists the caller's rules in a namespace, split as SelfSubjectRulesReview does. */
export function rulesReviewStatus(context: ReviewContext, namespace: string | undefined): RuleLists {
  // Rules exist per namespace, so kube-apiserver refuses a review without one.
  if (!namespace) throw badRequest('no namespace on request');
  const granted = context.rulesFor(context.user, namespace);
  const status: RuleLists = { resourceRules: [], nonResourceRules: [], incomplete: granted.incomplete };
  for (const rule of granted.rules) {
    if (rule.nonResourceURLs?.length) status.nonResourceRules.push({ verbs: rule.verbs ?? [], nonResourceURLs: rule.nonResourceURLs });
    if (rule.resources?.length || rule.apiGroups?.length) {
      const { verbs = [], apiGroups, resources, resourceNames } = rule;
      status.resourceRules.push({
        verbs,
        ...(apiGroups ? { apiGroups } : {}),
        ...(resources ? { resources } : {}),
        ...(resourceNames?.length ? { resourceNames } : {}),
      });
    }
  }
  if (granted.evaluationError) status.evaluationError = granted.evaluationError;
  return status;
}
