/**
 * Escalation prevention on writes of Roles, ClusterRoles, RoleBindings and ClusterRoleBindings
 * (kube's registry/rbac policybased storage): nobody grants, through a role or a binding, more
 * than they hold. A write passes when the writer is in system:masters; a role when the writer
 * may `escalate` roles (clusterroles) or holds every rule it grants; a binding when the writer
 * may `bind` the referenced role or holds every rule of it. Otherwise kube's 403, word for word.
 * Only in RBAC mode, and only for requests (the server's own writes carry no user).
 */
import { ApiError, notFound } from '../api/api-error.js';
import { goQuote } from '../api/machinery/go-quote.js';
import type { PolicyRule, RoleRef } from '../api/rbac/index.js';
import type { KubeObject, ResourceDefinition } from '../api/resource-definition.js';
import { MASTERS_GROUP } from './chain.js';
import { escalationError } from './rbac-authorizer.js';
import type { ServerAuthorization } from './register.js';
import type { UserInfo } from './user.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const ROLE_KINDS = new Set(['roles', 'clusterroles']);
const BINDING_KINDS = new Set(['rolebindings', 'clusterrolebindings']);

type RbacObject = KubeObject & { rules?: PolicyRule[]; aggregationRule?: unknown; roleRef?: RoleRef; subjects?: unknown[] };

function forbiddenWrite(def: ResourceDefinition, name: string, message: string): ApiError {
  return new ApiError('Forbidden', 403, `${def.plural}.${RBAC_GROUP} ${goQuote(name)} is forbidden: ${message}`, {
    name,
    group: RBAC_GROUP,
    kind: def.plural,
  });
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export interface RbacWrite {
  authorization: ServerAuthorization | undefined;
  user: UserInfo | undefined;
  def: ResourceDefinition;
  namespace: string;
  object: KubeObject;
  /** The stored object, for an update. */
  old?: KubeObject;
}

/** checkRbacWrite throws kube's 403 when a write of an RBAC object would escalate privileges. */
export function checkRbacWrite(write: RbacWrite): void {
  const { authorization, user, def } = write;
  if (def.group !== RBAC_GROUP || authorization?.mode !== 'RBAC' || !authorization.rbac || !user) return;
  if (user.groups.includes(MASTERS_GROUP)) return;
  if (ROLE_KINDS.has(def.plural)) checkRole(write, authorization, user);
  else if (BINDING_KINDS.has(def.plural)) checkBinding(write, authorization, user);
}

function checkRole(write: RbacWrite, authorization: ServerAuthorization, user: UserInfo): void {
  const { def, namespace } = write;
  const object = write.object as RbacObject;
  const old = write.old as RbacObject | undefined;
  // An update that grants nothing new (finalizers, owners, labels) is never an escalation.
  if (old && same(object.rules, old.rules) && same(object.aggregationRule, old.aggregationRule)) return;
  const name = object.metadata.name ?? '';
  const escalate = authorization.authorizer.authorize({ user, verb: 'escalate', apiGroup: RBAC_GROUP, resource: def.plural, name, namespace });
  if (escalate.decision === 'allow') return;
  if (object.aggregationRule && !(old && same(object.aggregationRule, old.aggregationRule))) {
    throw forbiddenWrite(def, name, 'must have cluster-admin privileges to use the aggregationRule');
  }
  const message = escalationError(authorization.rbac!, user, namespace, object.rules ?? []);
  if (message) throw forbiddenWrite(def, name, message);
}

function checkBinding(write: RbacWrite, authorization: ServerAuthorization, user: UserInfo): void {
  const { def, namespace } = write;
  const object = write.object as RbacObject;
  const old = write.old as RbacObject | undefined;
  if (old && same(object.roleRef, old.roleRef) && same(object.subjects, old.subjects)) return;
  const name = object.metadata.name ?? '';
  const ref = object.roleRef;
  const resource = ref?.kind === 'Role' ? 'roles' : 'clusterroles';
  const bind = authorization.authorizer.authorize({ user, verb: 'bind', apiGroup: RBAC_GROUP, resource, name: ref?.name ?? '', namespace });
  if (bind.decision === 'allow') return;
  const rbac = authorization.rbac!;
  const role = ref?.kind === 'Role' ? rbac.role(namespace, ref.name ?? '') : rbac.clusterRole(ref?.name ?? '');
  if (!role) throw notFound({ group: RBAC_GROUP, resource, name: ref?.name ?? '' });
  const message = escalationError(rbac, user, namespace, role.rules ?? []);
  if (message) throw forbiddenWrite(def, name, message);
}
