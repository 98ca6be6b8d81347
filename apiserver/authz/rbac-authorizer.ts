/**
 * The RBAC authorizer: finds the rules that bindings grant a user (cluster-wide through
 * ClusterRoleBindings, then in the request's namespace through RoleBindings) and allows a
 * request when one of them does. Its reasons and errors are kube-apiserver's, word for word:
 * an allow names the binding, role and subject that allowed it; a missing role is reported,
 * and the rules that could be read still count (RBAC rules only ever add).
 */
import { goQuote } from '../api/machinery/go-quote.js';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef, Subject } from '../api/rbac/index.js';
import { isResourceRequest, type RequestAttributes } from './attributes.js';
import { compactRule, compactRules, ruleAllows, uncoveredRules } from './rbac-rules.js';
import { serviceAccountUsername, type UserInfo } from './user.js';

/** RbacObjects is where the authorizer reads roles and bindings (an informer cache, a store). */
export interface RbacObjects {
  clusterRoleBindings(): Iterable<ClusterRoleBinding>;
  roleBindings(namespace: string): Iterable<RoleBinding>;
  clusterRole(name: string): ClusterRole | undefined;
  role(namespace: string, name: string): Role | undefined;
  /** A number that changes whenever any role or binding does (an informer cache's); when
   * given, what the bindings grant a user is worked out once per change, not per request. */
  version?(): number;
}

export interface Decision {
  allowed: boolean;
  /** Why: the granting binding when allowed; errors met while resolving roles when not. */
  reason: string;
}

/** A visitor is shown each granted rule with a description of where it came from (built only
 * when asked: most rules are looked at and passed over); returning false stops the walk. */
type RuleVisitor = (source: () => string, rule: PolicyRule) => boolean;

function appliesToUser(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.username === subject.name;
    case 'Group':
      return user.groups.includes(subject.name ?? '');
    case 'ServiceAccount': {
      // A RoleBinding's service account subject defaults to the binding's namespace.
      const namespace = subject.namespace || bindingNamespace;
      return namespace !== '' && user.username === serviceAccountUsername(namespace, subject.name ?? '');
    }
    default:
      return false;
  }
}

function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount') return `${subject.kind} ${goQuote(`${subject.name}/${subject.namespace || bindingNamespace}`)}`;
  return `${subject.kind} ${goQuote(subject.name ?? '')}`;
}

function describeBinding(kind: 'ClusterRoleBinding' | 'RoleBinding', binding: ClusterRoleBinding | RoleBinding, subject: Subject): string {
  const namespace = binding.metadata.namespace ?? '';
  // kube-apiserver writes a RoleBinding as name/namespace.
  const name = kind === 'RoleBinding' ? `${binding.metadata.name}/${namespace}` : (binding.metadata.name ?? '');
  const ref = binding.roleRef;
  return `${kind} ${goQuote(name)} of ${ref?.kind ?? ''} ${goQuote(ref?.name ?? '')} to ${describeSubject(subject, namespace)}`;
}

/** roleRules resolves a binding's roleRef to the referenced role's rules, or to the error
 * kube-apiserver reports for it. */
function roleRules(objects: RbacObjects, ref: RoleRef | undefined, bindingNamespace: string): PolicyRule[] | string {
  const name = ref?.name ?? '';
  if (ref?.kind === 'Role') {
    const role = objects.role(bindingNamespace, name);
    return role ? (role.rules ?? []) : `role.rbac.authorization.k8s.io ${goQuote(name)} not found`;
  }
  if (ref?.kind === 'ClusterRole') {
    const role = objects.clusterRole(name);
    return role ? (role.rules ?? []) : `clusterrole.rbac.authorization.k8s.io ${goQuote(name)} not found`;
  }
  return `unsupported role reference kind: ${goQuote(ref?.kind ?? '')}`;
}

/** A binding that applies to the user, with its role's rules (resolved when it was found). */
interface Grant {
  kind: 'ClusterRoleBinding' | 'RoleBinding';
  binding: ClusterRoleBinding | RoleBinding;
  subject: Subject;
  rules: readonly PolicyRule[];
  /** describeBinding's answer, made the first time a request needs it. */
  described?: string;
}

/** What the bindings grant a user in a namespace, in kube's walk order (ClusterRoleBindings,
 * then the namespace's RoleBindings), and the errors met resolving their roles. */
interface Grants {
  grants: Grant[];
  errors: string[];
  /** authorizeRbac's decisions for these grants, by what was asked (decisionKey). */
  decisions: Map<string, Decision>;
}

function findGrants(objects: RbacObjects, user: UserInfo, namespace: string): Grants {
  const grants: Grant[] = [];
  const errors: string[] = [];
  const walk = (kind: Grant['kind'], bindings: Iterable<ClusterRoleBinding | RoleBinding>, bindingNamespace: string) => {
    for (const binding of bindings) {
      const subject = binding.subjects?.find((s) => appliesToUser(user, s, bindingNamespace));
      if (!subject) continue;
      const rules = roleRules(objects, binding.roleRef, bindingNamespace);
      if (typeof rules === 'string') errors.push(rules);
      else grants.push({ kind, binding, subject, rules });
    }
  };
  walk('ClusterRoleBinding', objects.clusterRoleBindings(), '');
  if (namespace) walk('RoleBinding', objects.roleBindings(namespace), namespace);
  return { grants, errors, decisions: new Map() };
}

/** Beyond this many users × namespaces remembered, the memo starts over (bounds its memory). */
const MEMO_LIMIT = 4096;

interface Memo {
  version: number;
  byUser: Map<string, Grants>;
}

const memos = new WeakMap<RbacObjects, Memo>();

/**
 * grantsFor is findGrants remembered per RBAC-objects version: a request walks only the
 * bindings that name its user, not every ClusterRoleBinding of the cluster. Only the user's
 * name and groups decide which subjects apply, so they (and the namespace) are the key.
 */
function grantsFor(objects: RbacObjects, user: UserInfo, namespace: string): Grants {
  if (!objects.version) return findGrants(objects, user, namespace);
  const version = objects.version();
  let memo = memos.get(objects);
  if (!memo || memo.version !== version || memo.byUser.size >= MEMO_LIMIT) {
    memo = { version, byUser: new Map() };
    memos.set(objects, memo);
  }
  const key = `${namespace}\n${userKey(user)}`;
  let grants = memo.byUser.get(key);
  if (!grants) {
    grants = findGrants(objects, user, namespace);
    memo.byUser.set(key, grants);
  }
  return grants;
}

/** User keys by user object: an authenticator hands out the same object for the same
 * credential (a client certificate's user is read once), so most requests build no key. */
const userKeys = new WeakMap<UserInfo, string>();

/** userKey names a user by name and groups; JSON keeps names apart whatever characters they hold. */
function userKey(user: UserInfo): string {
  let key = userKeys.get(user);
  if (key === undefined) {
    key = JSON.stringify([user.username, user.groups]);
    userKeys.set(user, key);
  }
  return key;
}

/** Beyond this many different requests remembered for one user and namespace, their memo starts over. */
const DECISION_LIMIT = 1024;

/** decisionKey: everything of a request that rules match on (its user and namespace are the grants'). */
function decisionKey(request: RequestAttributes): string {
  if (!isResourceRequest(request)) return `url ${request.verb} ${request.path}`;
  return `resource ${request.verb} ${request.apiGroup}/${request.resource}/${request.subresource ?? ''}/${request.name ?? ''}`;
}

/** visitRulesFor shows every rule granted to the user in the namespace (cluster-wide only when
 * the namespace is empty) to `visit`, and returns the resolution errors met on the way. */
function visitRulesFor(objects: RbacObjects, user: UserInfo, namespace: string, visit: RuleVisitor): string[] {
  return visitGrants(grantsFor(objects, user, namespace), visit);
}

function visitGrants({ grants, errors }: Grants, visit: RuleVisitor): string[] {
  for (const grant of grants) {
    const source = () => (grant.described ??= describeBinding(grant.kind, grant.binding, grant.subject));
    for (const rule of grant.rules) if (!visit(source, rule)) return errors;
  }
  return errors;
}

/** Go's utilerrors.NewAggregate formatting: one error as itself, several in brackets. */
function aggregate(errors: readonly string[]): string {
  return errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`;
}

/** authorizeRbac decides one request the way kube-apiserver's RBAC authorizer does. */
export function authorizeRbac(objects: RbacObjects, request: RequestAttributes): Decision {
  const namespace = isResourceRequest(request) ? (request.namespace ?? '') : '';
  const grants = grantsFor(objects, request.user, namespace);
  // The same user asks the same of the same grants again and again (a controller's gets and
  // updates): the rules are matched once per grants version.
  const key = decisionKey(request);
  let decision = grants.decisions.get(key);
  if (!decision) {
    decision = decide(grants, request);
    if (grants.decisions.size >= DECISION_LIMIT) grants.decisions.clear();
    grants.decisions.set(key, decision);
  }
  return decision;
}

/** decide walks the grants' rules in kube's order for the first that allows the request. */
function decide(grants: Grants, request: RequestAttributes): Decision {
  let allowedBy: string | undefined;
  const errors = visitGrants(grants, (source, rule) => {
    if (!ruleAllows(rule, request)) return true;
    allowedBy = source();
    return false;
  });
  if (allowedBy !== undefined) return { allowed: true, reason: `RBAC: allowed by ${allowedBy}` };
  return { allowed: false, reason: errors.length ? `RBAC: ${aggregate(errors)}` : '' };
}

/** rbacRulesFor lists every rule the user holds in the namespace (what SelfSubjectRulesReview
 * shows), with the errors that may have left it incomplete. */
export function rbacRulesFor(objects: RbacObjects, user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
  const rules: PolicyRule[] = [];
  const errors = visitRulesFor(objects, user, namespace, (_source, rule) => {
    rules.push(rule);
    return true;
  });
  return { rules, errors: [...errors] };
}

/**
 * escalationError is kube-apiserver's refusal of a role or binding that would grant rules the
 * user does not hold (undefined when the user holds them all), listing what is missing.
 */
export function escalationError(objects: RbacObjects, user: UserInfo, namespace: string, wanted: readonly PolicyRule[]): string | undefined {
  const { rules: owned, errors } = rbacRulesFor(objects, user, namespace);
  const missing = uncoveredRules(owned, wanted);
  if (missing.length === 0) return undefined;
  const lines = [...new Set(compactRules(missing).map(compactRule))].sort();
  const groups = `[${user.groups.map(goQuote).join(' ')}]`;
  let message = `user ${goQuote(user.username)} (groups=${groups}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (errors.length) message += `; resolution errors: [${errors.join(' ')}]`;
  return message;
}
