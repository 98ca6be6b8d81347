/** rbac.authorization.k8s.io/v1 ClusterRoleBinding: grants a ClusterRole cluster-wide. Its
 * ServiceAccount subjects must name their namespace; roleRef cannot change. */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import type { ResourceDefinition } from '../resource-definition.js';
import { bindingColumns } from './rbac-columns.js';
import { ClusterRoleBindingMessage } from './rbac-protobuf.js';
import { defaultBinding, RoleRefSchema, SubjectSchema, validateBinding, validateRoleRefUnchanged } from './rbac-types.js';

export const ClusterRoleBindingSchema = z
  .object({
    ...typeMetaFields('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding'),
    subjects: z
      .array(SubjectSchema)
      .optional()
      .meta({ 'x-kubernetes-list-type': 'atomic' })
      .describe('Subjects holds references to the objects the role applies to.'),
    roleRef: RoleRefSchema.optional().describe('RoleRef names a ClusterRole. It cannot be changed.'),
  })
  .meta({
    id: 'io.k8s.api.rbac.v1.ClusterRoleBinding',
    description: 'ClusterRoleBinding grants the permissions of a ClusterRole to subjects across the cluster.',
    required: ['roleRef'],
  });

export type ClusterRoleBinding = z.infer<typeof ClusterRoleBindingSchema>;

export const clusterRoleBindingDefinition: ResourceDefinition<ClusterRoleBinding> = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'ClusterRoleBinding',
  plural: 'clusterrolebindings',
  singular: 'clusterrolebinding',
  shortNames: [],
  categories: [],
  namespaced: false,
  nameRule: 'path-segment',
  schema: ClusterRoleBindingSchema,
  defaults: defaultBinding,
  validate: (binding, old) => [...validateBinding(binding, ['ClusterRole'], false), ...validateRoleRefUnchanged(binding, old)],
  tracksGeneration: false,
  subresources: {},
  printColumns: bindingColumns('clusterRoleBinding'),
  protobuf: ClusterRoleBindingMessage,
  storage: { resource: 'clusterrolebindings.rbac.authorization.k8s.io' },
};
