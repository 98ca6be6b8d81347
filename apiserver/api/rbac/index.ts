/**
 * rbac.authorization.k8s.io: Roles, ClusterRoles and their bindings, stored and validated
 * (authorization does not read them yet).
 *
 * Role: schema, validation and table columns of the group's kinds, registered by the
 * registry like every other group. May import only from apiserver/api/ and zod. See
 * docs/api-conventions.md.
 */
import type { AnyResourceDefinition } from '../resource-definition.js';
import { clusterRoleDefinition } from './cluster-role.js';
import { clusterRoleBindingDefinition } from './cluster-role-binding.js';
import { roleDefinition } from './role.js';
import { roleBindingDefinition } from './role-binding.js';

export { type ClusterRole, ClusterRoleSchema, clusterRoleDefinition } from './cluster-role.js';
export { type ClusterRoleBinding, ClusterRoleBindingSchema, clusterRoleBindingDefinition } from './cluster-role-binding.js';
export { type PolicyRule, PolicyRuleSchema, RBAC_GROUP, type RoleRef, type Subject } from './rbac-types.js';
export { type Role, RoleSchema, roleDefinition } from './role.js';
export { type RoleBinding, RoleBindingSchema, roleBindingDefinition } from './role-binding.js';

/** rbacDefinitions lists the group's served kinds in kube-apiserver's discovery order. */
export const rbacDefinitions: AnyResourceDefinition[] = [clusterRoleBindingDefinition, clusterRoleDefinition, roleBindingDefinition, roleDefinition];
