/**
 * node.k8s.io/v1 RuntimeClass: a container runtime configuration (`handler`) pods select with
 * `spec.runtimeClassName`, with the pod overhead it adds and the nodes that support it.
 * kubesim's simulated kubelets run every pod the same way; the objects are stored and
 * validated as kube-apiserver does.
 */
import { z } from 'zod';
import { TolerationSchema } from '../core/affinity.js';
import { ResourceListSchema } from '../core/quantity.js';
import { StringMapSchema, typeMetaFields } from '../meta.js';
import { atomicStruct } from '../patch-meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import { quantityError, tryParseQuantity } from '../quantity.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { invalid, isDns1123Label, validateLabels } from '../validation.js';

const NODE_V1 = 'io.k8s.api.node.v1';

export const RuntimeClassSchema = z
  .object({
    ...typeMetaFields('node.k8s.io/v1', 'RuntimeClass'),
    handler: z.string().describe('The CRI handler that runs pods of this class (a DNS label). Immutable.'),
    overhead: z
      .object({ podFixed: ResourceListSchema.optional().describe('Fixed resources each pod of the class costs on top of its containers.') })
      .meta({ id: `${NODE_V1}.Overhead`, description: 'Overhead structure represents the resource overhead of running a pod.' })
      .optional()
      .describe('The overhead of running a pod of this class.'),
    scheduling: z
      .object({
        nodeSelector: StringMapSchema.optional().describe('Labels of the nodes that support the class, merged into the pod node selector.').meta(atomicStruct),
        tolerations: z.array(TolerationSchema).optional().describe('Tolerations added to pods of the class.').meta({ 'x-kubernetes-list-type': 'atomic' }),
      })
      .meta({ id: `${NODE_V1}.Scheduling`, description: 'Scheduling specifies the scheduling constraints for nodes supporting a RuntimeClass.' })
      .optional()
      .describe('Where pods of this class may be scheduled.'),
  })
  .meta({ id: `${NODE_V1}.RuntimeClass`, description: 'RuntimeClass defines a class of container runtime supported in the cluster.' });

export type RuntimeClass = z.infer<typeof RuntimeClassSchema>;

/** validateRuntimeClass: the handler is a DNS label and never changes; node selector labels are valid. */
export function validateRuntimeClass(rc: RuntimeClass, old?: RuntimeClass): FieldError[] {
  if (old) return rc.handler === old.handler ? [] : [invalid('handler', rc.handler, 'field is immutable')];
  const errors = isDns1123Label(rc.handler).map((detail) => invalid('handler', rc.handler, detail));
  for (const [name, quantity] of Object.entries(rc.overhead?.podFixed ?? {})) {
    const at = `overhead.podFixed[${name}]`;
    const problem = quantityError(quantity);
    if (problem) errors.push(invalid(at, quantity, problem));
    else if (tryParseQuantity(quantity)?.sign() === -1) errors.push(invalid(at, quantity, 'must be greater than or equal to 0'));
  }
  errors.push(...validateLabels(rc.scheduling?.nodeSelector, 'scheduling.nodeSelector'));
  return errors;
}

/** runtimeClassDefinition serves node.k8s.io/v1 runtimeclasses (cluster-scoped). */
export const runtimeClassDefinition: ResourceDefinition<RuntimeClass> = {
  group: 'node.k8s.io',
  version: 'v1',
  kind: 'RuntimeClass',
  plural: 'runtimeclasses',
  singular: 'runtimeclass',
  shortNames: [],
  categories: [],
  namespaced: false,
  schema: RuntimeClassSchema,
  validate: validateRuntimeClass,
  tracksGeneration: false,
  subresources: {},
  printColumns: [nameColumn, column('Handler', (rc: RuntimeClass) => rc.handler ?? '', { description: 'The CRI handler of the class.' }), ageColumn],
  storage: { resource: 'runtimeclasses.node.k8s.io' },
};
