/**
 * networking.k8s.io/v1 IngressClass: names the controller that serves the Ingresses of a
 * class (`spec.controller`, immutable) and, optionally, a parameters object. The annotation
 * `ingressclass.kubernetes.io/is-default-class: "true"` marks the default class; kubesim
 * ships none, as a cluster without an ingress controller has none.
 */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { forbidden, invalid, isDns1123Label, notSupported, required } from '../validation.js';
import { validateDomainPrefixedPath, validateTypedReference } from './network-validation.js';

const NETWORKING_V1 = 'io.k8s.api.networking.v1';
const SCOPES = ['Cluster', 'Namespace'] as const;
const MAX_CONTROLLER_LENGTH = 250;

const ParametersSchema = z
  .object({
    apiGroup: z.string().optional().describe('Group of the referenced resource; the core group when unset.'),
    kind: z.string().optional().describe('Kind of the referenced resource. Required.'),
    name: z.string().optional().describe('Name of the referenced resource. Required.'),
    scope: z.string().optional().describe('Cluster (default) or Namespace: whether the resource is cluster- or namespace-scoped.'),
    namespace: z.string().optional().describe('Namespace of the resource; required when scope is Namespace, forbidden otherwise.'),
  })
  .meta({
    id: `${NETWORKING_V1}.IngressClassParametersReference`,
    description: 'IngressClassParametersReference identifies an API object holding the configuration of the controller.',
  });

export const IngressClassSchema = z
  .object({
    ...typeMetaFields('networking.k8s.io/v1', 'IngressClass'),
    spec: z
      .object({
        controller: z
          .string()
          .optional()
          .describe('Name of the controller serving the class, a domain-prefixed path such as "acme.io/ingress-controller". Immutable.'),
        parameters: ParametersSchema.optional().describe('Link to an object holding additional configuration of the controller.'),
      })
      .meta({ id: `${NETWORKING_V1}.IngressClassSpec`, description: 'IngressClassSpec provides information about the class of an Ingress.' })
      .default(() => ({}))
      .describe('Desired state of the IngressClass.'),
  })
  .meta({ id: `${NETWORKING_V1}.IngressClass`, description: 'IngressClass represents the class of an Ingress, referenced by its spec.ingressClassName.' });

export type IngressClass = z.infer<typeof IngressClassSchema>;

/** defaultIngressClass: parameters are cluster-scoped unless said otherwise. */
function defaultIngressClass(ingressClass: IngressClass): void {
  if (ingressClass.spec.parameters) ingressClass.spec.parameters.scope ??= 'Cluster';
}

/** validateIngressClass checks the controller and parameters, and on update that the controller stays. */
export function validateIngressClass(ingressClass: IngressClass, old?: IngressClass): FieldError[] {
  const { controller = '', parameters } = ingressClass.spec;
  const errors: FieldError[] = [];
  if (old && controller !== (old.spec.controller ?? '')) errors.push(invalid('spec.controller', controller, 'field is immutable'));
  if (controller.length > MAX_CONTROLLER_LENGTH) {
    errors.push({ type: 'FieldValueTooLong', field: 'spec.controller', detail: `may not be more than ${MAX_CONTROLLER_LENGTH} bytes` });
  }
  errors.push(...validateDomainPrefixedPath(controller, 'spec.controller'));
  if (parameters) errors.push(...validateParameters(parameters, 'spec.parameters'));
  return errors;
}

function validateParameters(parameters: z.infer<typeof ParametersSchema>, field: string): FieldError[] {
  const errors = validateTypedReference(parameters, field);
  const { scope, namespace } = parameters;
  if (scope === undefined) return [...errors, required(`${field}.scope`)];
  if (!(SCOPES as readonly string[]).includes(scope)) return [...errors, notSupported(`${field}.scope`, scope, SCOPES)];
  if (scope === 'Namespace') {
    if (namespace === undefined) errors.push({ ...required(`${field}.namespace`), detail: "`parameters.scope` is set to 'Namespace'" });
    else errors.push(...isDns1123Label(namespace).map((d) => invalid(`${field}.namespace`, namespace, d)));
  }
  if (scope === 'Cluster' && namespace !== undefined) errors.push(forbidden(`${field}.namespace`, "`parameters.scope` is set to 'Cluster'"));
  return errors;
}

/** parametersCell: `Kind.group/name`, `<none>` without parameters (printIngressClass). */
function parametersCell(ingressClass: IngressClass): string {
  const parameters = ingressClass.spec?.parameters;
  if (!parameters) return '<none>';
  const group = parameters.apiGroup !== undefined ? `.${parameters.apiGroup}` : '';
  return `${parameters.kind ?? ''}${group}/${parameters.name ?? ''}`;
}

/** ingressClassDefinition serves networking.k8s.io/v1 ingressclasses (cluster-scoped). */
export const ingressClassDefinition: ResourceDefinition<IngressClass> = {
  group: 'networking.k8s.io',
  version: 'v1',
  kind: 'IngressClass',
  plural: 'ingressclasses',
  singular: 'ingressclass',
  shortNames: [],
  categories: [],
  namespaced: false,
  schema: IngressClassSchema,
  defaults: defaultIngressClass,
  validate: validateIngressClass,
  tracksGeneration: true,
  subresources: {},
  printColumns: [
    nameColumn,
    column('Controller', (ingressClass: IngressClass) => ingressClass.spec?.controller ?? '', { description: 'The controller that serves the class.' }),
    column('Parameters', parametersCell, { description: 'The object holding the configuration of the controller.' }),
    ageColumn,
  ],
  storage: { resource: 'ingressclasses.networking.k8s.io' },
};
