/**
 * Per-kind conformance: every built-in kind served from the store goes through the same
 * checks against a real API server — create, get, list by label, watch, generation and status
 * rules, /scale, the Table's columns, delete, and a protobuf body where the kind takes one.
 * The checks read the kind's definition (verbs, subresources, tracksGeneration, printColumns),
 * so a new kind gets them by adding one entry to SAMPLES below; a kind without one fails.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { builtinDefinitions } from '../../apiserver/api/builtin.js';
import { protobufMessageFor } from '../../apiserver/api/builtin-protobuf.js';
import type { MessageType } from '../../apiserver/api/protobuf/message-type.js';
import { apiVersionOf, type ResourceDefinition } from '../../apiserver/api/resource-definition.js';
import { csrObject, SAMPLE_CSR_PEM } from '../support/csr.js';
import { request } from '../support/http.js';
import { encodeProtobuf } from '../support/protobuf-encode.js';
import { useTestCluster } from '../support/use-test-cluster.js';
import { openWatch, type WatchEvent } from '../support/watch-client.js';

// The one place that knows where the kinds and their protobuf tables come from.
const kinds = (): ResourceDefinition[] => builtinDefinitions();
const protobufOf = (def: ResourceDefinition): MessageType | undefined => protobufMessageFor(apiVersionOf(def), def.kind);

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const MERGE = 'application/merge-patch+json';
const NEEDED_VERBS = ['create', 'get', 'list', 'watch', 'update', 'patch', 'delete'];

/** What a test names an object: its name and, for a namespaced kind, the kind's namespace. */
interface Place {
  name: string;
  namespace: string;
}

/**
 * Sample is the smallest valid object of one kind (without apiVersion and kind; metadata.name
 * and namespace are filled in unless the sample sets them). `specChange` changes the spec
 * (kinds that track generation); `status` is a valid status differing from the initial one
 * (kinds with a status subresource).
 */
interface Sample {
  object: (place: Place) => Record<string, any>;
  specChange?: (object: Record<string, any>) => void;
  status?: Record<string, unknown>;
}

const podSpec = { containers: [{ name: 'app', image: 'busybox:1.36' }] };
const template = (app: string, restartPolicy?: string) => ({ metadata: { labels: { app } }, spec: restartPolicy ? { ...podSpec, restartPolicy } : podSpec });
const workload = { selector: { matchLabels: { app: 'conf' } }, template: template('conf') };
const image = (object: Record<string, any>) => (object['spec'].template.spec.containers[0].image = 'busybox:1.37');

const podRule = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] };
const webhook = (name: string) => ({
  name,
  clientConfig: { url: 'https://hooks.example.com/check' },
  rules: [podRule],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
});

/** SAMPLES: one entry per built-in kind, keyed `apiVersion/kind`. */
const SAMPLES: Record<string, Sample> = {
  'v1/Namespace': { object: () => ({}), status: { conditions: [{ type: 'NamespaceContentRemaining', status: 'False' }] } },
  'v1/Pod': { object: () => ({ spec: podSpec }), status: { phase: 'Running' } },
  'v1/Node': { object: () => ({ spec: { podCIDR: '10.244.9.0/24' } }), status: { capacity: { cpu: '4', pods: '110' } } },
  'v1/Event': {
    object: ({ namespace }) => ({
      involvedObject: { kind: 'Pod', name: 'some-pod', namespace, apiVersion: 'v1' },
      reason: 'Testing',
      message: 'conformance',
      type: 'Normal',
      source: { component: 'conformance' },
      count: 1,
    }),
  },
  'v1/ConfigMap': { object: () => ({ data: { key: 'value' } }) },
  'v1/Secret': { object: () => ({ type: 'Opaque', data: { key: 'dmFsdWU=' } }) },
  'v1/Service': {
    object: () => ({ spec: { selector: { app: 'conf' }, ports: [{ name: 'http', port: 80, protocol: 'TCP' }] } }),
    status: { loadBalancer: { ingress: [{ ip: '192.0.2.10' }] } },
  },
  'v1/Endpoints': { object: () => ({ subsets: [{ addresses: [{ ip: '10.244.1.5' }], ports: [{ port: 80, protocol: 'TCP' }] }] }) },
  'v1/ServiceAccount': { object: () => ({}) },
  'v1/PersistentVolumeClaim': {
    object: () => ({ spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }),
    status: { phase: 'Bound' },
  },
  'v1/PersistentVolume': {
    object: () => ({ spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/conformance' } } }),
    status: { phase: 'Released' },
  },
  'v1/ReplicationController': {
    object: () => ({ spec: { replicas: 1, selector: { app: 'conf' }, template: template('conf') } }),
    specChange: image,
    status: { replicas: 2, readyReplicas: 1 },
  },
  'v1/PodTemplate': { object: () => ({ template: template('conf') }) },
  'v1/LimitRange': { object: () => ({ spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '100m' } }] } }) },
  'v1/ResourceQuota': { object: () => ({ spec: { hard: { pods: '10', 'requests.cpu': '4' } } }), status: { hard: { pods: '10' }, used: { pods: '1' } } },
  'apps/v1/Deployment': { object: () => ({ spec: { replicas: 1, ...workload } }), specChange: image, status: { replicas: 2, updatedReplicas: 1 } },
  'apps/v1/ReplicaSet': { object: () => ({ spec: { replicas: 1, ...workload } }), specChange: image, status: { replicas: 2, readyReplicas: 1 } },
  'apps/v1/DaemonSet': {
    object: () => ({ spec: workload }),
    specChange: image,
    status: { currentNumberScheduled: 1, numberMisscheduled: 0, desiredNumberScheduled: 1, numberReady: 1 },
  },
  'apps/v1/StatefulSet': {
    object: () => ({ spec: { replicas: 1, serviceName: 'conf', ...workload } }),
    specChange: image,
    status: { replicas: 2, availableReplicas: 1 },
  },
  'apps/v1/ControllerRevision': { object: () => ({ data: { spec: { template: { spec: podSpec } } }, revision: 1 }) },
  'autoscaling/v2/HorizontalPodAutoscaler': {
    object: () => ({ spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3 } }),
    specChange: (object) => (object['spec'].maxReplicas = 5),
    status: { currentReplicas: 1, desiredReplicas: 2 },
  },
  'autoscaling/v1/HorizontalPodAutoscaler': {
    object: () => ({
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 50 },
    }),
    specChange: (object) => (object['spec'].maxReplicas = 5),
    status: { currentReplicas: 1, desiredReplicas: 2 },
  },
  'batch/v1/Job': {
    object: () => ({ spec: { template: template('conf', 'Never') } }),
    specChange: (object) => (object['spec'].parallelism = 2),
    status: { active: 1 },
  },
  'batch/v1/CronJob': {
    object: () => ({ spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: template('conf', 'OnFailure') } } } }),
    specChange: (object) => (object['spec'].schedule = '*/10 * * * *'),
    status: { lastScheduleTime: '2026-01-01T00:00:00Z' },
  },
  'coordination.k8s.io/v1/Lease': { object: () => ({ spec: { holderIdentity: 'conformance', leaseDurationSeconds: 15 } }) },
  'discovery.k8s.io/v1/EndpointSlice': {
    object: () => ({ addressType: 'IPv4', endpoints: [{ addresses: ['10.244.1.5'] }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }),
    specChange: (object) => (object['endpoints'] = [{ addresses: ['10.244.1.6'] }]),
  },
  'policy/v1/PodDisruptionBudget': {
    object: () => ({ spec: { minAvailable: 1, selector: { matchLabels: { app: 'conf' } } } }),
    specChange: (object) => (object['spec'].minAvailable = 2),
    status: { currentHealthy: 1, desiredHealthy: 1, disruptionsAllowed: 0, expectedPods: 1 },
  },
  'networking.k8s.io/v1/IngressClass': {
    object: () => ({ spec: { controller: 'example.com/ingress-controller' } }),
    specChange: (object) => (object['spec'].parameters = { kind: 'IngressParameters', name: 'conf' }),
  },
  'networking.k8s.io/v1/Ingress': {
    object: () => ({
      spec: {
        rules: [
          { host: 'conf.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } },
        ],
      },
    }),
    specChange: (object) => (object['spec'].ingressClassName = 'conf'),
    status: { loadBalancer: { ingress: [{ ip: '192.0.2.20' }] } },
  },
  'networking.k8s.io/v1/IPAddress': {
    // Named by an IP (in TEST-NET-3, outside every service range): one per object the test makes.
    object: ({ name }) => ({
      metadata: { name: `203.0.113.${1 + [...name].reduce((sum, c) => (sum * 31 + c.charCodeAt(0)) % 250, 0)}` },
      spec: { parentRef: { group: 'gateway.networking.k8s.io', resource: 'gateways', namespace: 'default', name: 'conf' } },
    }),
  },
  'networking.k8s.io/v1/NetworkPolicy': {
    object: () => ({ spec: { podSelector: { matchLabels: { app: 'conf' } } } }),
    specChange: (object) => (object['spec'].policyTypes = ['Ingress', 'Egress']),
  },
  'networking.k8s.io/v1/ServiceCIDR': {
    object: () => ({ spec: { cidrs: ['192.0.2.0/24'] } }),
    status: { conditions: [{ type: 'Ready', status: 'True', reason: '', message: 'conformance', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  },
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration': {
    object: () => ({ webhooks: [webhook('mutate.conf.example.com')] }),
    specChange: (object) => (object['webhooks'][0].timeoutSeconds = 5),
  },
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration': {
    object: () => ({ webhooks: [webhook('validate.conf.example.com')] }),
    specChange: (object) => (object['webhooks'][0].timeoutSeconds = 5),
  },
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy': {
    object: () => ({ spec: { matchConstraints: { resourceRules: [podRule] }, validations: [{ expression: 'object.metadata.name != ""' }] } }),
    specChange: (object) => (object['spec'].failurePolicy = 'Ignore'),
    status: {
      observedGeneration: 1,
      conditions: [{ type: 'Ready', status: 'True', reason: 'Checked', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }],
    },
  },
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding': {
    object: () => ({ spec: { policyName: 'conf', validationActions: ['Deny'] } }),
    specChange: (object) => (object['spec'].validationActions = ['Warn']),
  },
  'node.k8s.io/v1/RuntimeClass': { object: () => ({ handler: 'runc' }) },
  'scheduling.k8s.io/v1/PriorityClass': { object: () => ({ value: 1000, description: 'conformance' }) },
  'certificates.k8s.io/v1/CertificateSigningRequest': {
    object: () => ({ spec: csrObject('unused', SAMPLE_CSR_PEM)['spec'] }),
    status: { conditions: [{ type: 'Failed', status: 'True', reason: 'Conformance', message: 'not signed', lastUpdateTime: '2026-01-01T00:00:00Z' }] },
  },
  'events.k8s.io/v1/Event': {
    object: ({ namespace }) => ({
      eventTime: '2026-01-01T00:00:00.000000Z',
      reportingController: 'conformance.example.com/checker',
      reportingInstance: 'checker-1',
      action: 'Checking',
      reason: 'Checked',
      type: 'Normal',
      note: 'conformance',
      regarding: { kind: 'Pod', namespace, name: 'conf' },
    }),
  },
  'flowcontrol.apiserver.k8s.io/v1/FlowSchema': {
    object: () => ({
      spec: {
        priorityLevelConfiguration: { name: 'global-default' },
        matchingPrecedence: 5000,
        distinguisherMethod: { type: 'ByUser' },
        rules: [{ subjects: [{ kind: 'Group', group: { name: 'conformance' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }],
      },
    }),
    specChange: (object) => (object['spec'].matchingPrecedence = 6000),
    status: { conditions: [{ type: 'Dangling', status: 'True', reason: 'NotFound', message: 'gone', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  },
  'flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfiguration': {
    object: () => ({ spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } } }),
    specChange: (object) => (object['spec'].limited.nominalConcurrencyShares = 6),
    status: { conditions: [{ type: 'ConcurrencyShared', status: 'True', reason: 'Checked', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  },
  'apiregistration.k8s.io/v1/APIService': {
    // An APIService's name is <version>.<group>: the sample makes the group from the name asked for.
    object: ({ name }) => ({
      metadata: { name: `v1.${name}.conformance.example.com` },
      spec: {
        group: `${name}.conformance.example.com`,
        version: 'v1',
        groupPriorityMinimum: 100,
        versionPriority: 10,
        service: { namespace: 'default', name: 'conf' },
      },
    }),
    status: { conditions: [{ type: 'Available', status: 'True', reason: 'Passed', message: 'all checks passed', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
  },
  'storage.k8s.io/v1/CSIDriver': { object: () => ({ spec: { attachRequired: false } }) },
  'storage.k8s.io/v1/CSINode': { object: () => ({ spec: { drivers: [{ name: 'conf.csi.example.com', nodeID: 'node-1' }] } }) },
  'storage.k8s.io/v1/CSIStorageCapacity': { object: () => ({ storageClassName: 'standard', capacity: '10Gi' }) },
  'storage.k8s.io/v1/StorageClass': { object: () => ({ provisioner: 'example.com/conformance' }) },
  'storage.k8s.io/v1/VolumeAttachment': {
    object: () => ({ spec: { attacher: 'conf.csi.example.com', source: { persistentVolumeName: 'pv-1' }, nodeName: 'node-1' } }),
    status: { attached: true },
  },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': {
    object: () => ({
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'Group', name: 'conformance' }],
    }),
  },
  'rbac.authorization.k8s.io/v1/ClusterRole': {
    object: () => ({
      rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }],
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { conformance: 'aggregate' } }] },
    }),
  },
  'rbac.authorization.k8s.io/v1/RoleBinding': {
    object: () => ({
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'default' }],
    }),
  },
  'rbac.authorization.k8s.io/v1/Role': { object: () => ({ rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] }) },
  'apiextensions.k8s.io/v1/CustomResourceDefinition': {
    // A CRD's name is <plural>.<group>: the sample makes both from the name the test asked for.
    object: ({ name }) => {
      const plural = name.replace(/[^a-z]/g, '');
      return {
        metadata: { name: `${plural}.conformance.example.com` },
        spec: {
          group: 'conformance.example.com',
          scope: 'Namespaced',
          names: { plural, kind: `X${plural}` },
          versions: [
            { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
          ],
        },
      };
    },
    specChange: (object) => (object['spec'].names.shortNames = ['xconf']),
    status: { storedVersions: ['v1'] },
  },
};

type Check = 'lifecycle' | 'generation' | 'status' | 'scale' | 'table' | 'protobuf';

/**
 * KNOWN_GAPS: checks a kind fails today, and why. They run as `it.fails`, so they stay in the
 * report and turn red the day the gap is fixed (then delete the entry).
 */
const KNOWN_GAPS: Record<string, Partial<Record<Check, string>>> = {};

/** notApplicable registers nothing, in place of `it`, for a check a kind does not declare. */
const notApplicable = (_name: string, _fn: () => Promise<void>) => undefined;

/** exercisable: served from the store with every verb the checks use (not virtual metrics). */
const exercisable = (def: ResourceDefinition) =>
  (def.source ?? 'store') === 'store' && NEEDED_VERBS.every((verb) => (def.verbs ?? NEEDED_VERBS).includes(verb));
const keyOf = (def: ResourceDefinition) => `${apiVersionOf(def)}/${def.kind}`;
const slugOf = (def: ResourceDefinition) => `${def.plural}-${def.group || 'core'}-${def.version}`.replace(/[^a-z0-9-]/g, '-');

function sampleOf(def: ResourceDefinition): Sample {
  const sample = SAMPLES[keyOf(def)];
  if (!sample) throw new Error(`${keyOf(def)} has no sample: add its smallest valid object to SAMPLES in test/integration/kind-conformance.test.ts`);
  return sample;
}

/** REVIEW_REQUESTS: the smallest valid request of each create-only review kind (`source:
 * 'review'`), which the store-backed checks cannot exercise: nothing is stored. */
const REVIEW_REQUESTS: Record<string, Record<string, unknown>> = {
  'authentication.k8s.io/v1/SelfSubjectReview': {},
  'authentication.k8s.io/v1/TokenReview': { spec: { token: 'not-checked' } },
  'authorization.k8s.io/v1/LocalSubjectAccessReview': { spec: { user: 'jane', resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' } } },
  'authorization.k8s.io/v1/SelfSubjectAccessReview': { spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } },
  'authorization.k8s.io/v1/SelfSubjectRulesReview': { spec: { namespace: 'default' } },
  'authorization.k8s.io/v1/SubjectAccessReview': { spec: { groups: ['dev'], nonResourceAttributes: { path: '/healthz', verb: 'get' } } },
};

describe('built-in kind conformance', () => {
  const cluster = useTestCluster({ lifetime: 'file' });

  it('has a sample for every kind it exercises, and none for a kind that is gone', () => {
    const exercised = kinds().filter(exercisable).map(keyOf);
    expect(
      exercised.filter((key) => !SAMPLES[key]),
      'kinds without a sample in SAMPLES',
    ).toEqual([]);
    expect(
      Object.keys(SAMPLES).filter((key) => !exercised.includes(key)),
      'samples of kinds not served',
    ).toEqual([]);
  });

  describe.each(kinds().map((def) => [keyOf(def), def] as const))('%s', (_key, def) => {
    if (def.source === 'review') {
      const group = `/apis/${def.group}/${def.version}${def.namespaced ? '/namespaces/default' : ''}/${def.plural}`;
      const body = { apiVersion: apiVersionOf(def), kind: def.kind, ...REVIEW_REQUESTS[keyOf(def)] };
      it('is answered on create with a status, as JSON and protobuf, and is never stored', async () => {
        const answered = await request(`${cluster.url}${group}`, { method: 'POST', body });
        expect(answered.status, JSON.stringify(answered.body)).toBe(201);
        expect(answered.body).toMatchObject({ ...body, status: expect.any(Object) });
        if (protobufOf(def)) {
          const sent = await request(`${cluster.url}${group}`, {
            method: 'POST',
            raw: Buffer.from(encodeProtobuf(protobufOf(def)!, body)),
            contentType: PROTOBUF,
          });
          expect(sent.status, JSON.stringify(sent.body)).toBe(201);
          expect(sent.body.status).toEqual(answered.body.status);
        }
        expect((await request(`${cluster.url}${group}`)).status).toBe(405);
      });
      return;
    }
    if (!exercisable(def)) {
      it.skip(`is not exercised: source ${def.source ?? 'store'}, verbs ${(def.verbs ?? ['all']).join(',')}`, () => {});
      return;
    }
    /** check is `it`; `it.fails` for a known gap of this kind; nothing at all when the kind does
     * not declare what the check needs (no generation, no status or scale subresource, no
     * protobuf): a check that cannot apply is not a test. */
    const check = (name: Check, applies = true) => (!applies ? notApplicable : KNOWN_GAPS[keyOf(def)]?.[name] ? it.fails : it);
    const slug = slugOf(def);
    const namespace = def.namespaced ? `conf-${slug}` : '';
    const group = def.group ? `/apis/${def.group}/${def.version}` : `/api/${def.version}`;
    const collection = () => `${cluster.url}${group}${namespace ? `/namespaces/${namespace}` : ''}/${def.plural}`;
    const item = (name: string, subresource = '') => `${collection()}/${name}${subresource ? `/${subresource}` : ''}`;
    /** build makes the kind's sample named after `suffix` (cluster-scoped names carry the slug). */
    const build = (suffix: string, labels: Record<string, string> = { conformance: 'yes' }) => {
      const name = def.namespaced ? suffix : `${slug}-${suffix}`;
      const object = sampleOf(def).object({ name, namespace });
      const metadata = { name, ...(namespace ? { namespace } : {}), ...object['metadata'], labels };
      return { ...object, apiVersion: apiVersionOf(def), kind: def.kind, metadata };
    };
    const create = async (object: Record<string, any>) => {
      const created = await request(collection(), { method: 'POST', body: object });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body;
    };
    /** update reads the object, changes it and PUTs it (to `subresource` if given), again on a
     * 409: a server loop may write it in between (a CRD's status). Returns what was read and written. */
    const update = async (name: string, change: (object: Record<string, any>) => Record<string, any>, subresource = '') => {
      for (let attempt = 0; ; attempt++) {
        const before = (await request(item(name))).body;
        const updated = await request(item(name, subresource), { method: 'PUT', body: change(structuredClone(before)) });
        if (updated.status === 409 && attempt < 5) continue;
        expect(updated.status, JSON.stringify(updated.body)).toBe(200);
        return { before, after: updated.body };
      }
    };

    beforeAll(async () => {
      if (namespace)
        expect(
          (await request(`${cluster.url}/api/v1/namespaces`, { method: 'POST', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } }))
            .status,
        ).toBe(201);
    });

    check('lifecycle')('creates, gets, lists by label, watches and deletes', async () => {
      const empty = await request(`${collection()}?labelSelector=conformance%3Dyes`);
      expect(empty.status).toBe(200);
      const labelled = build('labelled');
      const name = labelled.metadata.name;
      const watch = await openWatch(`${collection()}?watch=1&resourceVersion=${empty.body.metadata.resourceVersion}&fieldSelector=metadata.name%3D${name}`);
      try {
        const created = await create(labelled);
        expect(created.metadata).toMatchObject({ name, labels: { conformance: 'yes' } });
        expect((await request(item(name))).body.metadata.uid).toBe(created.metadata.uid);
        await create(build('plain', {}));
        const listed = await request(`${collection()}?labelSelector=conformance%3Dyes`);
        expect(listed.body.items.map((o: any) => o.metadata.name)).toEqual([name]);

        const patched = await request(item(name), { method: 'PATCH', body: { metadata: { labels: { touched: 'yes' } } }, contentType: MERGE });
        expect(patched.status, JSON.stringify(patched.body)).toBe(200);
        const deleted = await request(item(name), { method: 'DELETE' });
        expect([200, 202], JSON.stringify(deleted.body)).toContain(deleted.status);
        expect((await watch.take(2)).map((e: WatchEvent) => e.type)).toEqual(['ADDED', 'MODIFIED']);
        const after = await request(item(name));
        if (after.status === 404) {
          // Gone, perhaps after server loops wrote it (a CRD's status, its cleanup finalizer):
          // the watch shows those changes, then DELETED.
          const rest: string[] = [];
          while (!['DELETED', 'END'].includes(rest.at(-1) ?? '') && rest.length < 50) rest.push((await watch.next())?.type ?? 'END');
          expect(rest.join(',')).toMatch(/^(MODIFIED,)*DELETED$/);
        } else {
          // Waiting on its finalizers or a grace period.
          expect(after.body.metadata.deletionTimestamp, JSON.stringify(after.body)).toBeDefined();
        }
      } finally {
        watch.close();
      }
    });

    check('generation', def.tracksGeneration)('keeps generation: 1 on create, +1 on a spec change, unchanged on a metadata change', async () => {
      const sample = sampleOf(def);
      if (!sample.specChange) throw new Error(`${keyOf(def)} tracks generation: give its SAMPLES entry a specChange`);
      const { name } = (await create(build('generation'))).metadata;
      expect((await request(item(name))).body.metadata.generation).toBe(1);
      const bumped = await update(name, (object) => {
        sample.specChange!(object);
        return object;
      });
      expect(bumped.after.metadata.generation).toBe(2);
      const relabelled = await update(name, (object) => ({ ...object, metadata: { ...object['metadata'], labels: { other: 'label' } } }));
      expect(relabelled.after.metadata.labels).toEqual({ other: 'label' });
      expect(relabelled.after.metadata.generation).toBe(2);
    });

    check('status', def.subresources.status === true)('writes status only through /status', async () => {
      const status = sampleOf(def).status;
      if (!status) throw new Error(`${keyOf(def)} has a status subresource: give its SAMPLES entry a status`);
      const { name } = (await create(build('status'))).metadata;
      const ignored = await update(name, (object) => ({ ...object, status }));
      expect(ignored.after.status ?? {}).toEqual(ignored.before.status ?? {});
      const written = await update(name, (object) => ({ ...object, status }), 'status');
      expect(written.after.status).toMatchObject(status);
      const { status: _before, metadata: _m1, ...restBefore } = written.before;
      const { status: _after, metadata: _m2, ...restAfter } = written.after;
      expect(restAfter).toEqual(restBefore);
      if (def.tracksGeneration) expect(written.after.metadata.generation).toBe(written.before.metadata.generation);
    });

    check('scale', def.subresources.scale !== undefined)('serves /scale as an autoscaling/v1 Scale over the spec replicas', async () => {
      const scale = def.subresources.scale!;
      const created = await create(build('scale'));
      const read = (object: any, path: string) => path.split('.').reduce((at, key) => at?.[key], object);
      const got = await request(item(created.metadata.name, 'scale'));
      expect(got.body).toMatchObject({
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: created.metadata.name },
        spec: { replicas: read(created, scale.specReplicasPath) },
      });
      const wanted = Number(read(created, scale.specReplicasPath)) + 2;
      const scaled = await request(item(created.metadata.name, 'scale'), { method: 'PUT', body: { ...got.body, spec: { replicas: wanted } } });
      expect(scaled.status, JSON.stringify(scaled.body)).toBe(200);
      expect(scaled.body.spec.replicas).toBe(wanted);
      expect(read((await request(item(created.metadata.name))).body, scale.specReplicasPath)).toBe(wanted);
    });

    check('table')('answers a Table whose columns are the declared printColumns', async () => {
      const created = await create(build('table'));
      const table = await request(item(created.metadata.name), { accept: TABLE });
      expect(table.status).toBe(200);
      expect(table.body.kind).toBe('Table');
      // A kind that declares no columns gets Kubernetes' default Name / Created At table.
      const declared = def.printColumns.length > 0 ? def.printColumns.map((column) => column.name) : ['Name', 'Created At'];
      expect(table.body.columnDefinitions.map((column: { name: string }) => column.name)).toEqual(declared);
      expect(table.body.rows).toHaveLength(1);
    });

    check('protobuf', protobufOf(def) !== undefined)('creates from a protobuf body what the JSON sample says', async () => {
      const sample = build('protobuf');
      const sent = await request(collection(), { method: 'POST', raw: Buffer.from(encodeProtobuf(protobufOf(def)!, sample)), contentType: PROTOBUF });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      const readBack = (await request(item(sample.metadata.name))).body;
      const { metadata, ...content } = sample;
      expect(readBack).toMatchObject({ ...content, metadata: { name: metadata.name, labels: metadata.labels } });
    });
  });
});
