/**
 * authentication.k8s.io: TokenReview ("who does this token belong to?") and SelfSubjectReview
 * ("who am I?", `kubectl auth whoami`). Create-only, answered on the POST, never stored.
 * TokenReview answers from the server's token authenticators (the token file, service-account
 * tokens); SelfSubjectReview with the request's user. A server that authenticates nobody
 * treats every caller as the administrator (ADMIN_USER), and says so.
 *
 * Role: schemas and answers of the group's kinds. May import only from apiserver/api/ and zod.
 */
import { z } from 'zod';
import { badRequest } from '../api-error.js';
import { ADMIN_USER } from '../machinery/admin-user.js';
import { typeMetaFields } from '../meta.js';
import type { AnyResourceDefinition, ResourceDefinition, ReviewContext } from '../resource-definition.js';
import { SelfSubjectReviewMessage, TokenReviewMessage } from './authentication-protobuf.js';

const AUTHENTICATION_V1 = 'io.k8s.api.authentication.v1';

const UserInfoSchema = z
  .object({
    username: z.string().optional().describe('The name that uniquely identifies this user among all active users.'),
    uid: z.string().optional().describe('A unique value that identifies this user across time.'),
    groups: z.array(z.string()).optional().describe('The names of groups this user is a part of.'),
    extra: z.record(z.string(), z.array(z.string())).optional().describe('Any additional information provided by the authenticator.'),
  })
  .meta({ id: `${AUTHENTICATION_V1}.UserInfo`, description: 'UserInfo holds the information about the user needed to implement the user.Info interface.' });

export const TokenReviewSchema = z
  .object({
    ...typeMetaFields('authentication.k8s.io/v1', 'TokenReview'),
    spec: z
      .object({
        token: z.string().optional().describe('Token is the opaque bearer token.'),
        audiences: z
          .array(z.string())
          .optional()
          .describe('Audiences is a list of the identifiers that the resource server presented with the token identifies as.'),
      })
      .meta({ id: `${AUTHENTICATION_V1}.TokenReviewSpec`, description: 'TokenReviewSpec is a description of the token authentication request.' })
      .describe('Spec holds information about the request being evaluated'),
    status: z
      .object({
        authenticated: z.boolean().optional().describe('Authenticated indicates that the token was associated with a known user.'),
        user: UserInfoSchema.optional().describe('User is the UserInfo associated with the provided token.'),
        audiences: z
          .array(z.string())
          .optional()
          .describe('Audiences are audience identifiers chosen by the authenticator that are compatible with both the TokenReview and token.'),
        error: z.string().optional().describe("Error indicates that the token couldn't be checked"),
      })
      .meta({ id: `${AUTHENTICATION_V1}.TokenReviewStatus`, description: 'TokenReviewStatus is the result of the token authentication request.' })
      .optional()
      .describe('Status is filled in by the server and indicates whether the request can be authenticated.'),
  })
  .meta({ id: `${AUTHENTICATION_V1}.TokenReview`, description: 'TokenReview attempts to authenticate a token to a known user.' });

export const SelfSubjectReviewSchema = z
  .object({
    ...typeMetaFields('authentication.k8s.io/v1', 'SelfSubjectReview'),
    status: z
      .object({ userInfo: UserInfoSchema.optional().describe('User attributes of the user making this request.') })
      .meta({
        id: `${AUTHENTICATION_V1}.SelfSubjectReviewStatus`,
        description: 'SelfSubjectReviewStatus is filled by the kube-apiserver and sent back to a user.',
      })
      .optional()
      .describe('Status is filled in by the server with the user attributes.'),
  })
  .meta({
    id: `${AUTHENTICATION_V1}.SelfSubjectReview`,
    description: 'SelfSubjectReview contains the user information that the kube-apiserver has about the user making this request.',
  });

export type TokenReview = z.infer<typeof TokenReviewSchema>;
export type SelfSubjectReview = z.infer<typeof SelfSubjectReviewSchema>;

/** TOKENS_NOT_CHECKED is TokenReview's answer on a server that checks no tokens. */
export const TOKENS_NOT_CHECKED = 'kubesim does not check tokens on this server: no token can be authenticated';

function answerTokenReview(review: TokenReview, _namespace: string | undefined, context: ReviewContext): TokenReview {
  if (!review.spec.token) throw badRequest('token is required for TokenReview in authentication');
  if (!context.reviewToken) return { ...review, status: { authenticated: false, user: {}, error: TOKENS_NOT_CHECKED } };
  return { ...review, status: context.reviewToken(review.spec.token, review.spec.audiences) };
}

/** answerSelfSubjectReview: the request's user, or the administrator on an open server. */
function answerSelfSubjectReview(review: SelfSubjectReview, _namespace: string | undefined, context: ReviewContext): SelfSubjectReview {
  const user = context.authenticates ? context.user : ADMIN_USER;
  const extra = 'extra' in user && user.extra ? Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]])) : undefined;
  const uid = 'uid' in user && user.uid ? user.uid : undefined;
  return { ...review, status: { userInfo: { username: user.username, uid, groups: [...user.groups], extra } } };
}

const reviewBase: Pick<
  ResourceDefinition,
  'namespaced' | 'group' | 'version' | 'shortNames' | 'categories' | 'tracksGeneration' | 'subresources' | 'verbs' | 'source'
> = {
  group: 'authentication.k8s.io',
  version: 'v1',
  shortNames: [],
  categories: [],
  namespaced: false,
  tracksGeneration: false,
  subresources: {},
  verbs: ['create'],
  source: 'review',
};

export const tokenReviewDefinition: ResourceDefinition<TokenReview> = {
  ...reviewBase,
  kind: 'TokenReview',
  plural: 'tokenreviews',
  singular: 'tokenreview',
  schema: TokenReviewSchema,
  answer: answerTokenReview,
  protobuf: TokenReviewMessage,
  printColumns: [],
  storage: { resource: 'tokenreviews.authentication.k8s.io' },
};

export const selfSubjectReviewDefinition: ResourceDefinition<SelfSubjectReview> = {
  ...reviewBase,
  kind: 'SelfSubjectReview',
  plural: 'selfsubjectreviews',
  singular: 'selfsubjectreview',
  schema: SelfSubjectReviewSchema,
  protobuf: SelfSubjectReviewMessage,
  answer: answerSelfSubjectReview,
  printColumns: [],
  storage: { resource: 'selfsubjectreviews.authentication.k8s.io' },
};

/** authenticationDefinitions lists the group's served kinds. */
export const authenticationDefinitions: AnyResourceDefinition[] = [selfSubjectReviewDefinition, tokenReviewDefinition];
