/**
 * rbac.authorization.k8s.io/v1 ClusterRole: a cluster-wide set of PolicyRules, which may also
 * name non-resource URLs. A ClusterRole with an aggregationRule has its rules written by the
 * clusterrole-aggregation controller: the union of the rules of the ClusterRoles it selects.
 */
import { z } from 'zod';
import { KIND_IDS } from '../kind-refs.js';
import { typeMetaFields } from '../meta.js';
import type { ResourceDefinition } from '../resource-definition.js';
import { roleColumns } from './rbac-columns.js';
import { ClusterRoleMessage } from './rbac-protobuf.js';
import { AggregationRuleSchema, PolicyRuleSchema, validateAggregationRule, validateRules } from './rbac-types.js';

export const ClusterRoleSchema = z
  .object({
    ...typeMetaFields('rbac.authorization.k8s.io/v1', 'ClusterRole'),
    rules: z
      .array(PolicyRuleSchema)
      .optional()
      .meta({ 'x-kubernetes-list-type': 'atomic' })
      .describe('Rules holds all the PolicyRules of this ClusterRole. With an aggregationRule, the controller owns them.'),
    aggregationRule: AggregationRuleSchema.optional().describe(
      'AggregationRule builds the rules of this ClusterRole from the ClusterRoles it selects; the controller overwrites rules.',
    ),
  })
  .meta({
    id: 'io.k8s.api.rbac.v1.ClusterRole',
    description: 'ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.',
  });

export type ClusterRole = z.infer<typeof ClusterRoleSchema>;

export const clusterRoleDefinition: ResourceDefinition<ClusterRole> = {
  ...KIND_IDS.clusterRole,
  singular: 'clusterrole',
  shortNames: [],
  categories: [],
  nameRule: 'path-segment',
  schema: ClusterRoleSchema,
  validate: (role) => [...validateRules(role.rules, false), ...validateAggregationRule(role.aggregationRule)],
  tracksGeneration: false,
  subresources: {},
  printColumns: roleColumns,
  protobuf: ClusterRoleMessage,
  storage: { resource: 'clusterroles.rbac.authorization.k8s.io' },
};
