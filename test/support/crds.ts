/** CustomResourceDefinitions the CRD tests share: the CronTab of the Kubernetes docs (with
 * defaults, CEL rules, a status and a scale subresource, printer columns) and helpers to
 * create one and wait until it is Established. */
import { eventually } from './eventually.js';
import { request } from './http.js';

export const CRDS_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** CRONTAB_SCHEMA is the structural schema of stable.example.com CronTabs. */
export const CRONTAB_SCHEMA = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': [{ rule: 'self.minReplicas <= self.replicas', message: 'replicas should be greater than or equal to minReplicas' }],
      properties: {
        cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
        image: { type: 'string' },
        replicas: { type: 'integer', minimum: 0, maximum: 10 },
        minReplicas: { type: 'integer', default: 0 },
        color: { type: 'string', enum: ['red', 'green', 'blue'], default: 'red' },
        immutableField: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutableField is immutable' }] },
        note: { type: 'string', nullable: true },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
        },
        selector: { type: 'string' },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
    status: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        selector: { type: 'string' },
        conditions: {
          type: 'array',
          items: { type: 'object', properties: { type: { type: 'string' }, status: { type: 'string' } } },
        },
      },
    },
  },
};

export interface CronTabCrdOptions {
  scope?: 'Namespaced' | 'Cluster';
  /** Also serve v1beta1 (v1 stays the storage version). */
  withBeta?: boolean;
  group?: string;
  plural?: string;
  kind?: string;
  shortNames?: string[];
}

/** cronTabCrd is the CronTab CRD (stable.example.com/v1 unless overridden). */
export function cronTabCrd(options: CronTabCrdOptions = {}): any {
  const group = options.group ?? 'stable.example.com';
  const plural = options.plural ?? 'crontabs';
  const kind = options.kind ?? 'CronTab';
  const version = (name: string, storage: boolean) => ({
    name,
    served: true,
    storage,
    schema: { openAPIV3Schema: CRONTAB_SCHEMA },
    subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
    additionalPrinterColumns: [
      { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec', description: 'The cron spec defining the interval a CronJob is run' },
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Image', type: 'string', priority: 1, jsonPath: '.spec.image' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: options.scope ?? 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, shortNames: options.shortNames ?? ['ct'], categories: ['all'] },
      versions: options.withBeta ? [version('v1beta1', false), version('v1', true)] : [version('v1', true)],
    },
  };
}

/** cronTab is a CronTab object (apiVersion stable.example.com/v1 unless given). */
export function cronTab(name: string, spec: Record<string, unknown> = {}, apiVersion = 'stable.example.com/v1'): any {
  return { apiVersion, kind: 'CronTab', metadata: { name }, spec: { cronSpec: '* * * * */5', image: 'my-cron-image', replicas: 1, ...spec } };
}

/** createCrd creates `crd` on the cluster at `baseUrl` and waits until it is Established;
 * returns the CRD as it then is. */
export async function createCrd(baseUrl: string, crd: any): Promise<any> {
  const created = await request(`${baseUrl}${CRDS_PATH}`, { method: 'POST', body: crd });
  if (created.status !== 201) throw new Error(`creating CRD ${crd.metadata.name}: ${created.status} ${JSON.stringify(created.body)}`);
  return waitForCondition(baseUrl, crd.metadata.name, 'Established', 'True');
}

/** waitForCondition waits until the CRD has the condition with the given status. */
export async function waitForCondition(baseUrl: string, name: string, type: string, status: string): Promise<any> {
  return eventually(async () => {
    const res = await request(`${baseUrl}${CRDS_PATH}/${name}`);
    const condition = res.body?.status?.conditions?.find((c: any) => c.type === type);
    if (condition?.status !== status) throw new Error(`${name}: ${type} is ${JSON.stringify(condition)}`);
    return res.body;
  });
}
