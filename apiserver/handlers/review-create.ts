/**
 * POST of the review kinds (`source: 'review'`: TokenReview, SubjectAccessReview, ...): the
 * request is decoded and validated like any object, then answered with the same object and
 * the status the kind's `answer` computes. Nothing is stored, so there is no name, uid or
 * resourceVersion to assign (kube-apiserver's review endpoints behave the same).
 */
import { invalid } from '../api/api-error.js';
import type { KubeObject, ResourceDefinition, ReviewContext } from '../api/resource-definition.js';
import type { ApiRequest, ApiResponse, HandlerContext } from './types.js';

/** isReview reports whether `def` is a create-only review kind. */
export function isReview(def: ResourceDefinition): boolean {
  return def.source === 'review';
}

/** answerReview validates a decoded review and answers it: 201 with the status filled in. */
export function answerReview(
  def: ResourceDefinition,
  object: KubeObject,
  namespace: string | undefined,
  warnings: string[],
  context: ReviewContext = {},
): ApiResponse {
  if (def.namespaced && namespace) object.metadata.namespace ??= namespace;
  const errors = def.validate?.(object) ?? [];
  if (errors.length > 0) throw invalid({ group: def.group, resource: def.plural, kind: def.kind, name: object.metadata.name ?? '' }, errors);
  const answered = def.answer ? def.answer(object, namespace, context) : object;
  return { status: 201, body: answered, warnings };
}

/** reviewContext is what the review answers may read of the request and the server: the
 * request's user when the server authenticates, and its token checks (TokenReview). */
export function reviewContext(ctx: HandlerContext, request: ApiRequest): ReviewContext {
  const tokens = ctx.tokens;
  return {
    user: ctx.authenticates ? request.user : undefined,
    reviewToken: tokens && ((token, audiences) => tokens.review(token, audiences)),
  };
}
