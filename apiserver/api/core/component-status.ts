/**
 * core/v1 ComponentStatus (`kubectl get cs`): the health of the control plane's parts as the
 * API server sees them — scheduler, controller-manager and etcd-0, as kube-apiserver lists
 * them. Read-only and computed on each read (apiserver/kubesim/component-statuses.ts).
 */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import { column, nameColumn } from '../printing.js';
import type { ResourceDefinition } from '../resource-definition.js';
import { K8S_CORE } from './schema-helpers.js';

export const ComponentConditionSchema = z
  .object({
    type: z.string().describe('Type of condition for a component. Valid value: "Healthy".'),
    status: z.string().describe('Status of the condition for a component: "True", "False" or "Unknown".'),
    message: z.string().optional().describe('Message about the condition for a component.'),
    error: z.string().optional().describe('Condition error code for a component.'),
  })
  .meta({ id: `${K8S_CORE}.ComponentCondition`, description: 'Information about the condition of a component.' });

export const ComponentStatusSchema = z
  .object({
    ...typeMetaFields('v1', 'ComponentStatus'),
    conditions: z.array(ComponentConditionSchema).optional().describe('List of component conditions observed.'),
  })
  .meta({ id: `${K8S_CORE}.ComponentStatus`, description: 'ComponentStatus (deprecated in v1.19+) holds the cluster validation info.' });

export type ComponentStatus = z.infer<typeof ComponentStatusSchema>;

const healthyOf = (cs: ComponentStatus) => cs.conditions?.find((condition) => condition.type === 'Healthy');

/** statusCell is kube-apiserver's wording: Healthy, Unhealthy, or Unknown without a Healthy condition. */
function statusCell(cs: ComponentStatus): string {
  const healthy = healthyOf(cs);
  if (!healthy) return 'Unknown';
  return healthy.status === 'True' ? 'Healthy' : 'Unhealthy';
}

export const componentStatusDefinition: ResourceDefinition<ComponentStatus> = {
  group: '',
  version: 'v1',
  kind: 'ComponentStatus',
  plural: 'componentstatuses',
  singular: 'componentstatus',
  shortNames: ['cs'],
  categories: [],
  namespaced: false,
  schema: ComponentStatusSchema,
  tracksGeneration: false,
  subresources: {},
  printColumns: [
    nameColumn,
    column('Status', statusCell, { description: 'Status of the component conditions' }),
    column('Message', (cs: ComponentStatus) => healthyOf(cs)?.message ?? '', { description: 'Message of the component conditions' }),
    column('Error', (cs: ComponentStatus) => healthyOf(cs)?.error ?? '', { description: 'Error of the component conditions' }),
  ],
  verbs: ['get', 'list'],
  deprecationWarning: 'v1 ComponentStatus is deprecated in v1.19+',
  source: 'virtual',
  storage: { resource: 'componentstatuses' },
};
