/**
 * apiregistration.k8s.io/v1 APIService: one group-version of the API and who serves it. A
 * Local APIService (no `spec.service`) is served by the API server itself; kube-apiserver's
 * autoregister controller keeps one for every built-in and CRD group-version, as kubesim's
 * (apiserver/apiregistration) does. Other APIServices are stored and validated, but kubesim
 * does not proxy to aggregated API servers: they report Available=False.
 */
import { z } from 'zod';
import { deepEqual } from '../deep-equal.js';
import { rfc3339 } from '../machinery/time.js';
import { ConditionSchema, typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, KindStrategy, KubeObject, ResourceDefinition, StrategyContext } from '../resource-definition.js';
import { invalid, isDns1035Label, isDns1123Subdomain, isValidPortNum, required } from '../validation.js';

const V1 = 'io.k8s.kube-aggregator.pkg.apis.apiregistration.v1';

export const APIServiceSchema = z
  .object({
    ...typeMetaFields('apiregistration.k8s.io/v1', 'APIService'),
    spec: z
      .object({
        service: z
          .object({
            namespace: z.string().optional().describe('The namespace of the service.'),
            name: z.string().optional().describe('The name of the service.'),
            port: z.int32().optional().describe('The port of the service that hosts the webhook (1-65535); default 443.'),
          })
          .meta({ id: `${V1}.ServiceReference`, description: 'ServiceReference holds a reference to Service.legacy.k8s.io' })
          .optional()
          .describe('The service that serves this group-version; absent for a Local APIService, served by the API server itself.'),
        group: z.string().optional().describe('The API group name this server hosts.'),
        version: z.string().optional().describe('The API version this server hosts, e.g. v1.'),
        insecureSkipTLSVerify: z.boolean().optional().describe('Disables TLS certificate verification when talking to the server. Discouraged.'),
        caBundle: z.string().optional().meta({ format: 'byte' }).describe("PEM encoded CA bundle used to validate the API server's serving certificate."),
        groupPriorityMinimum: z.int32().describe('The priority of the group (at least); higher groups come first in discovery. 1 to 20000.'),
        versionPriority: z.int32().describe('The order of this version within its group; higher first. 1 to 1000.'),
      })
      .meta({ id: `${V1}.APIServiceSpec`, description: 'APIServiceSpec contains information for locating and communicating with a server.' })
      .optional()
      .describe('Spec contains information for locating and communicating with a server'),
    status: z
      .object({
        conditions: z
          .array(
            ConditionSchema.omit({ observedGeneration: true }).meta({
              id: `${V1}.APIServiceCondition`,
              description: 'APIServiceCondition describes the state of an APIService at a particular point',
            }),
          )
          .optional()
          .describe('Current service state of apiService.')
          .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }),
      })
      .meta({ id: `${V1}.APIServiceStatus`, description: 'APIServiceStatus contains derived information about an API server' })
      .optional()
      .describe('Status contains derived information about an API server'),
  })
  .meta({ id: `${V1}.APIService`, description: 'APIService represents a server for a particular GroupVersion. Name must be "version.group".' });

export type APIService = z.infer<typeof APIServiceSchema>;
type Spec = NonNullable<APIService['spec']>;

/** apiServiceName is how an APIService of group/version is named: `v1.apps`, `v1.` for core. */
export const apiServiceName = (group: string, version: string) => `${version}.${group}`;

/** validateAPIService checks the spec with kube-aggregator's messages. */
export function validateAPIService(service: APIService): FieldError[] {
  const spec: Partial<Spec> = service.spec ?? {};
  const group = spec.group ?? '';
  const version = spec.version ?? '';
  const errors: FieldError[] = [];
  const requiredName = apiServiceName(group, version);
  if (service.metadata.name !== requiredName)
    errors.push(invalid('metadata.name', service.metadata.name ?? '', `must be \`spec.version+"."+spec.group\`: "${requiredName}"`));
  if (!group && version !== 'v1') errors.push(required('spec.group', 'only v1 may have an empty group and it better be legacy kube'));
  if (group) for (const detail of isDns1123Subdomain(group)) errors.push(invalid('spec.group', group, detail));
  for (const detail of isDns1035Label(version)) errors.push(invalid('spec.version', version, detail));
  const groupPriority = spec.groupPriorityMinimum ?? 0;
  if (groupPriority <= 0 || groupPriority > 20000) errors.push(invalid('spec.groupPriorityMinimum', groupPriority, 'must be positive and less than 20000'));
  const versionPriority = spec.versionPriority ?? 0;
  if (versionPriority <= 0 || versionPriority > 1000) errors.push(invalid('spec.versionPriority', versionPriority, 'must be positive and less than 1000'));
  if (!spec.service) {
    if (spec.caBundle)
      errors.push(invalid('spec.caBundle', `${Buffer.from(spec.caBundle, 'base64').length} bytes`, 'local APIServices may not have a caBundle'));
    if (spec.insecureSkipTLSVerify) errors.push(invalid('spec.insecureSkipTLSVerify', true, 'local APIServices may not have insecureSkipTLSVerify'));
    return errors;
  }
  if (!spec.service.namespace) errors.push(required('spec.service.namespace'));
  if (!spec.service.name) errors.push(required('spec.service.name'));
  const port = spec.service.port ?? 443;
  for (const detail of isValidPortNum(port)) errors.push(invalid('spec.service.port', port, detail));
  if (spec.insecureSkipTLSVerify && spec.caBundle) errors.push(invalid('spec.insecureSkipTLSVerify', true, 'may not be true if caBundle is present'));
  return errors;
}

/** availableCondition: Local APIServices are always available; kubesim cannot reach any other. */
export function availableCondition(service: APIService, nowMs: number) {
  const lastTransitionTime = rfc3339(nowMs);
  if (!service.spec?.service)
    return { type: 'Available', status: 'True' as const, lastTransitionTime, reason: 'Local', message: 'Local APIServices are always available' };
  return {
    type: 'Available',
    status: 'False' as const,
    lastTransitionTime,
    reason: 'AggregationNotSupported',
    message: 'kubesim serves no aggregated API servers: requests for this group-version are not proxied to the service',
  };
}

function setAvailable(object: KubeObject, ctx: StrategyContext): void {
  const service = object as unknown as APIService;
  service.status = { conditions: [availableCondition(service, ctx.now())] };
}

// The condition follows from the spec alone (kubesim proxies to no service), so it is set on
// create and whenever the service changes rather than by an availability controller.
const apiServiceStrategy: KindStrategy = {
  beforeCreate: setAvailable,
  beforeUpdate(object, old, ctx) {
    if (!deepEqual((object as unknown as APIService).spec?.service, (old as unknown as APIService).spec?.service)) setAvailable(object, ctx);
  },
};

function availableCell(service: APIService): string {
  const condition = service.status?.conditions?.find((c) => c.type === 'Available');
  if (!condition) return 'Unknown';
  return condition.status === 'True' ? 'True' : `${condition.status} (${condition.reason ?? ''})`;
}

function serviceCell(service: APIService): string {
  const ref = service.spec?.service;
  return ref ? `${ref.namespace ?? ''}/${ref.name ?? ''}` : 'Local';
}

/** apiServiceDefinition serves apiregistration.k8s.io/v1 apiservices (cluster-scoped, +status). */
export const apiServiceDefinition: ResourceDefinition<APIService> = {
  group: 'apiregistration.k8s.io',
  version: 'v1',
  kind: 'APIService',
  plural: 'apiservices',
  singular: 'apiservice',
  shortNames: [],
  categories: ['api-extensions'],
  namespaced: false,
  nameRule: 'path-segment',
  schema: APIServiceSchema,
  defaults: (service) => {
    if (service.spec?.service) service.spec.service.port ??= 443;
  },
  validate: validateAPIService,
  strategy: apiServiceStrategy,
  tracksGeneration: false,
  subresources: { status: true },
  printColumns: [
    nameColumn,
    column('Service', serviceCell, { description: 'The service serving the group-version, or Local.' }),
    column('Available', availableCell, { description: 'Whether the group-version is available.' }),
    ageColumn,
  ],
  storage: { resource: 'apiservices.apiregistration.k8s.io' },
};
