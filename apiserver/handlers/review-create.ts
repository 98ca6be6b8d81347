/**
 * POST of the review kinds (`source: 'review'`: TokenReview, SubjectAccessReview, ...): the
 * request is decoded and validated like any object, then answered with the same object and
 * the status the kind's `answer` computes. Nothing is stored, so there is no name, uid or
 * resourceVersion to assign (kube-apiserver's review endpoints behave the same).
 */
import { invalid } from '../api/api-error.js';
import type { KubeObject, ResourceDefinition, ReviewContext } from '../api/resource-definition.js';
import { ANONYMOUS_USER } from '../authn/authenticator.js';
import { alwaysAllow } from '../authz/authorizer.js';
import { EVERYTHING } from '../authz/chain.js';
import type { ApiResponse, HandlerContext } from './types.js';

/** reviewContext is what a review's answer may ask: the caller, the server's authorizer
 * (AlwaysAllow's for a context built without a server) and its token checks. */
function reviewContext(ctx: HandlerContext): ReviewContext {
  const { authorization, tokens } = ctx;
  return {
    user: ctx.user ?? ANONYMOUS_USER,
    authenticates: ctx.authenticates === true,
    authorizer: authorization?.authorizer ?? alwaysAllow,
    rulesFor: authorization ? authorization.rulesFor : () => ({ rules: EVERYTHING, incomplete: false }),
    reviewToken: tokens && ((token, audiences) => tokens.review(token, audiences)),
  };
}

/** isReview reports whether `def` is a create-only review kind. */
export function isReview(def: ResourceDefinition): boolean {
  return def.source === 'review';
}

/** answerReview validates a decoded review and answers it: 201 with the status filled in. */
export function answerReview(ctx: HandlerContext, def: ResourceDefinition, object: KubeObject, namespace: string | undefined, warnings: string[]): ApiResponse {
  if (def.namespaced && namespace) object.metadata.namespace ??= namespace;
  const errors = def.validate?.(object) ?? [];
  if (errors.length > 0) throw invalid({ group: def.group, resource: def.plural, kind: def.kind, name: object.metadata.name ?? '' }, errors);
  const answered = def.answer ? def.answer(object, namespace, reviewContext(ctx)) : object;
  return { status: 201, body: answered, warnings };
}
