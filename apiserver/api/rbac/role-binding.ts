/** rbac.authorization.k8s.io/v1 RoleBinding: grants a Role of its namespace, or a ClusterRole
 * within its namespace, to users, groups and service accounts. roleRef cannot change. */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import type { ResourceDefinition } from '../resource-definition.js';
import { bindingColumns } from './rbac-columns.js';
import { RoleBindingMessage } from './rbac-protobuf.js';
import { defaultBinding, RoleRefSchema, SubjectSchema, validateBinding, validateRoleRefUnchanged } from './rbac-types.js';

export const RoleBindingSchema = z
  .object({
    ...typeMetaFields('rbac.authorization.k8s.io/v1', 'RoleBinding'),
    subjects: z
      .array(SubjectSchema)
      .optional()
      .meta({ 'x-kubernetes-list-type': 'atomic' })
      .describe('Subjects holds references to the objects the role applies to.'),
    roleRef: RoleRefSchema.optional().describe('RoleRef names a Role in this namespace or a ClusterRole. It cannot be changed.'),
  })
  .meta({
    id: 'io.k8s.api.rbac.v1.RoleBinding',
    description: 'RoleBinding grants the permissions of a role to subjects within its namespace.',
    required: ['roleRef'],
  });

export type RoleBinding = z.infer<typeof RoleBindingSchema>;

export const roleBindingDefinition: ResourceDefinition<RoleBinding> = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'RoleBinding',
  plural: 'rolebindings',
  singular: 'rolebinding',
  shortNames: [],
  categories: [],
  namespaced: true,
  nameRule: 'path-segment',
  schema: RoleBindingSchema,
  defaults: defaultBinding,
  validate: (binding, old) => [...validateBinding(binding, ['Role', 'ClusterRole'], true), ...validateRoleRefUnchanged(binding, old)],
  tracksGeneration: false,
  subresources: {},
  printColumns: bindingColumns('roleBinding'),
  protobuf: RoleBindingMessage,
  storage: { resource: 'rolebindings.rbac.authorization.k8s.io' },
};
