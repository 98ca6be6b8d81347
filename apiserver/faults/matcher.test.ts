import { describe, expect, it } from 'vitest';
import { matchesPattern, matchesRequest } from './matcher.js';
import type { FaultRequest } from './types.js';

const update: FaultRequest = {
  method: 'PUT',
  url: '/apis/apps/v1/namespaces/default/deployments/web',
  userAgent: 'kubectl/v1.32.4 (linux/amd64) kubernetes/abc',
  user: 'kubesim',
  fieldManager: 'kubectl',
  verb: 'update',
  resource: 'deployments',
  group: 'apps',
  namespace: 'default',
  name: 'web',
};

describe('matchesRequest', () => {
  it('selects every request with an empty match', () => {
    expect(matchesRequest({}, update)).toBe(true);
  });

  it('requires every field given to hold', () => {
    expect(matchesRequest({ verbs: ['update', 'patch'], resource: 'deployments.apps', namespace: 'default', name: 'web' }, update)).toBe(true);
    expect(matchesRequest({ verbs: ['update'], name: 'other' }, update)).toBe(false);
    expect(matchesRequest({ verbs: ['create'] }, update)).toBe(false);
    expect(matchesRequest({ namespace: 'kube-system' }, update)).toBe(false);
  });

  it('takes a plural in any group, a plural.group only in that group', () => {
    expect(matchesRequest({ resource: 'deployments' }, update)).toBe(true);
    expect(matchesRequest({ resource: 'deployments.apps' }, update)).toBe(true);
    expect(matchesRequest({ resource: 'deployments.extensions' }, update)).toBe(false);
    expect(matchesRequest({ resource: 'pods' }, { ...update, resource: 'pods', group: '' })).toBe(true);
    expect(matchesRequest({ resource: 'pods.apps' }, { ...update, resource: 'pods', group: '' })).toBe(false);
  });

  it('matches a subresource only when asked for one', () => {
    const status = { ...update, subresource: 'status' };
    expect(matchesRequest({ subresource: 'status' }, status)).toBe(true);
    expect(matchesRequest({ subresource: 'status' }, update)).toBe(false);
    expect(matchesRequest({ subresource: 'scale' }, status)).toBe(false);
  });

  it('matches the user agent by substring or /regex/', () => {
    expect(matchesRequest({ userAgent: 'kubectl' }, update)).toBe(true);
    expect(matchesRequest({ userAgent: '/^kubectl\\/v1\\.3\\d/' }, update)).toBe(true);
    expect(matchesRequest({ userAgent: '/^kubesim-/' }, update)).toBe(false);
    expect(matchesRequest({ userAgent: 'kubectl' }, { ...update, userAgent: undefined })).toBe(false);
  });

  it('matches field manager and user exactly, or by /regex/', () => {
    expect(matchesRequest({ fieldManager: 'kubectl' }, update)).toBe(true);
    expect(matchesRequest({ fieldManager: 'kube' }, update)).toBe(false);
    expect(matchesRequest({ fieldManager: '/^kube/' }, update)).toBe(true);
    expect(matchesRequest({ user: 'kubesim' }, update)).toBe(true);
    expect(matchesRequest({ user: 'system:anonymous' }, update)).toBe(false);
  });
});

describe('matchesPattern', () => {
  it('treats a missing pattern as matching anything', () => {
    expect(matchesPattern(undefined, '', 'exact')).toBe(true);
  });

  it('does not treat a lone slash as a regex', () => {
    expect(matchesPattern('/', 'a/b', 'substring')).toBe(true);
    expect(matchesPattern('/', 'ab', 'substring')).toBe(false);
  });
});
