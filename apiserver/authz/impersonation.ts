/**
 * Impersonation (kube-apiserver's WithImpersonation filter), run after authentication and
 * before authorization: Impersonate-User, Impersonate-Group, Impersonate-Uid and
 * Impersonate-Extra-<key> headers make the request act as another user, provided the
 * authenticated user may `impersonate` each of them — users (or serviceaccounts, for a
 * service account's name) and groups in API group "", uids and userextras/<key> in
 * authentication.k8s.io. A refusal is kube's 403; the impersonated user gets
 * system:authenticated (or a service account its groups) as kube gives them.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '../api/api-error.js';
import type { ResourceRequest } from './attributes.js';
import type { Authorizer } from './authorizer.js';
import { forbiddenError } from './forbidden.js';
import { serviceAccountGroups, type UserInfo } from './user.js';

const USER_HEADER = 'impersonate-user';
const GROUP_HEADER = 'impersonate-group';
const UID_HEADER = 'impersonate-uid';
const EXTRA_PREFIX = 'impersonate-extra-';
const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
const ANONYMOUS = 'system:anonymous';

const values = (header: string | string[] | undefined): string[] => (header === undefined ? [] : Array.isArray(header) ? header : [header]);

interface Wanted {
  user?: string;
  groups: string[];
  uid?: string;
  extra: Record<string, string[]>;
}

function wantedOf(headers: IncomingHttpHeaders): Wanted | undefined {
  const extra: Record<string, string[]> = {};
  for (const name in headers) {
    // Extra keys travel percent-encoded in header names (kube's unescapeExtraKey).
    if (name.startsWith(EXTRA_PREFIX)) extra[decodeURIComponent(name.slice(EXTRA_PREFIX.length))] = values(headers[name]);
  }
  const user = values(headers[USER_HEADER])[0];
  const groups = values(headers[GROUP_HEADER]);
  const uid = values(headers[UID_HEADER])[0];
  if (user === undefined && groups.length === 0 && uid === undefined && Object.keys(extra).length === 0) return undefined;
  return { user, groups, uid, extra };
}

/** The checks kube makes, in its order: the user, each group, each extra value, the uid. */
function checksOf(actor: UserInfo, wanted: Wanted, user: string): ResourceRequest[] {
  const check = (apiGroup: string, resource: string, name: string, extra: Partial<ResourceRequest> = {}): ResourceRequest => ({
    user: actor,
    verb: 'impersonate',
    apiGroup,
    resource,
    name,
    ...extra,
  });
  const checks: ResourceRequest[] = [];
  if (user.startsWith(SERVICE_ACCOUNT_PREFIX) && user.split(':').length === 4) {
    const [, , namespace, name] = user.split(':');
    checks.push(check('', 'serviceaccounts', name!, { namespace }));
  } else {
    checks.push(check('', 'users', user));
  }
  for (const group of wanted.groups) checks.push(check('', 'groups', group));
  for (const [key, extraValues] of Object.entries(wanted.extra)) {
    for (const value of extraValues) checks.push(check('authentication.k8s.io', 'userextras', value, { subresource: key }));
  }
  if (wanted.uid !== undefined) checks.push(check('authentication.k8s.io', 'uids', wanted.uid));
  return checks;
}

function impersonatedGroups(user: string, wanted: Wanted): string[] {
  let groups = [...wanted.groups];
  if (groups.length === 0 && user.startsWith(SERVICE_ACCOUNT_PREFIX) && user.split(':').length === 4) {
    groups = serviceAccountGroups(user.split(':')[2]!).filter((g) => g !== 'system:authenticated');
  }
  if (user === ANONYMOUS) {
    if (!groups.includes('system:unauthenticated')) groups.push('system:unauthenticated');
  } else if (!groups.includes('system:authenticated') && !groups.includes('system:unauthenticated')) {
    groups.push('system:authenticated');
  }
  return groups;
}

/**
 * impersonate returns the user a request acts as: the authenticated user when it carries no
 * impersonation headers, else the impersonated one. Throws kube's 403 when a check fails, and
 * kube's internal error when groups, uid or extras come without a user.
 */
export function impersonate(authorizer: Authorizer, actor: UserInfo, headers: IncomingHttpHeaders): UserInfo {
  const wanted = wantedOf(headers);
  if (!wanted) return actor;
  if (wanted.user === undefined) {
    throw new ApiError('InternalError', 500, 'Internal error occurred: requested impersonation of groups, uid or extra without impersonating a user');
  }
  for (const check of checksOf(actor, wanted, wanted.user)) {
    const decision = authorizer.authorize(check);
    if (decision.decision !== 'allow') throw forbiddenError(check, decision.reason);
  }
  const impersonated: UserInfo = { username: wanted.user, groups: impersonatedGroups(wanted.user, wanted) };
  if (wanted.uid !== undefined) impersonated.uid = wanted.uid;
  if (Object.keys(wanted.extra).length) impersonated.extra = wanted.extra;
  return impersonated;
}
