/**
 * kube-apiserver 1.33's messages for the access reviews users get wrong
 * (pkg/apis/authorization/validation), as kubectl prints them.
 */
import { describe, expect, it } from 'vitest';
import { describeFieldError } from '../api-error.js';
import type { FieldError } from '../resource-definition.js';
import { localSubjectAccessReviewDefinition, selfSubjectAccessReviewDefinition, subjectAccessReviewDefinition } from './subject-access-review.js';

const lines = (errors: FieldError[] | undefined) => (errors ?? []).map((e) => `${e.field}: ${describeFieldError(e)}`);
const resource = { verb: 'get', resource: 'pods', namespace: 'team' };
const nonResource = { path: '/logs', verb: 'get' };

describe('access review validation messages', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    [
      'no attributes',
      { user: 'jane' },
      ['spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified'],
    ],
    [
      'both kinds of attributes',
      { user: 'jane', resourceAttributes: resource, nonResourceAttributes: nonResource },
      [
        'spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/logs", Verb:"get"}: cannot be specified in combination with resourceAttributes',
      ],
    ],
    ['no user or group', { resourceAttributes: resource }, ['spec.user: Invalid value: "": at least one of user or group must be specified']],
  ])('SubjectAccessReview with %s', (_, spec, expected) => {
    const review = subjectAccessReviewDefinition.schema.parse({ metadata: {}, spec });
    expect(lines(subjectAccessReviewDefinition.validate?.(review))).toEqual(expected);
  });

  it('SelfSubjectAccessReview asks only for one kind of attributes', () => {
    const review = selfSubjectAccessReviewDefinition.schema.parse({ metadata: {}, spec: {} });
    expect(lines(selfSubjectAccessReviewDefinition.validate?.(review))).toEqual([
      'spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified',
    ]);
  });

  it('LocalSubjectAccessReview keeps to its namespace and to resources', () => {
    const review = localSubjectAccessReviewDefinition.schema.parse({
      metadata: { namespace: 'default' },
      spec: { groups: ['dev'], nonResourceAttributes: nonResource },
    });
    expect(lines(localSubjectAccessReviewDefinition.validate?.(review))).toEqual([
      'spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/logs", Verb:"get"}: disallowed on this kind of request',
    ]);
    const elsewhere = localSubjectAccessReviewDefinition.schema.parse({
      metadata: { namespace: 'default' },
      spec: { groups: ['dev'], resourceAttributes: resource },
    });
    expect(lines(localSubjectAccessReviewDefinition.validate?.(elsewhere))).toEqual([
      'spec.resourceAttributes.namespace: Invalid value: "team": must match metadata.namespace',
    ]);
  });
});
