/** rbac.authorization.k8s.io/v1 Role: a namespaced set of PolicyRules a RoleBinding grants. */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import type { ResourceDefinition } from '../resource-definition.js';
import { roleColumns } from './rbac-columns.js';
import { RoleMessage } from './rbac-protobuf.js';
import { PolicyRuleSchema, validateRules } from './rbac-types.js';

export const RoleSchema = z
  .object({
    ...typeMetaFields('rbac.authorization.k8s.io/v1', 'Role'),
    rules: z.array(PolicyRuleSchema).optional().meta({ 'x-kubernetes-list-type': 'atomic' }).describe('Rules holds all the PolicyRules of this Role.'),
  })
  .meta({
    id: 'io.k8s.api.rbac.v1.Role',
    description: 'Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.',
  });

export type Role = z.infer<typeof RoleSchema>;

export const roleDefinition: ResourceDefinition<Role> = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'Role',
  plural: 'roles',
  singular: 'role',
  shortNames: [],
  categories: [],
  namespaced: true,
  nameRule: 'path-segment',
  schema: RoleSchema,
  validate: (role) => validateRules(role.rules, true),
  tracksGeneration: false,
  subresources: {},
  printColumns: roleColumns,
  protobuf: RoleMessage,
  storage: { resource: 'roles.rbac.authorization.k8s.io' },
};
