/** Defaulting and validation of the core/v1 kinds ReplicationController, PodTemplate,
 * LimitRange and ResourceQuota, checked against kube-apiserver's messages. */
import { describe, expect, it } from 'vitest';
import { describeFieldError } from '../api-error.js';
import type { KubeObject, ResourceDefinition } from '../resource-definition.js';
import { type LimitRange, limitRangeDefinition } from './limit-range.js';
import { applyLimitRangeDefaults, limitRangeViolations } from './limit-ranger.js';
import type { PodSpec } from './pod-spec.js';
import { podTemplateDefinition } from './pod-template.js';
import { replicationControllerDefinition } from './replication-controller.js';
import { resourceQuotaDefinition } from './resource-quota.js';

/** admit parses, defaults and validates `body` as the API server does; returns the object and its messages. */
function admit<T extends KubeObject>(def: ResourceDefinition<T>, body: unknown) {
  const object = def.schema.parse(body);
  def.defaults?.(object);
  return { object, messages: (def.validate?.(object) ?? []).map((error) => `${error.field}: ${describeFieldError(error)}`) };
}

const containers = [{ name: 'app', image: 'nginx:1.27' }];
const rc = (spec: Record<string, unknown>, metadata: Record<string, unknown> = { name: 'web' }) => ({ metadata, spec });

describe('ReplicationController', () => {
  it("defaults the selector, the object's labels and replicas from the template, idempotently", () => {
    const { object, messages } = admit(replicationControllerDefinition, rc({ template: { metadata: { labels: { app: 'web' } }, spec: { containers } } }));
    expect(messages).toEqual([]);
    expect(object.spec.selector).toEqual({ app: 'web' });
    expect(object.metadata.labels).toEqual({ app: 'web' });
    expect(object.spec.replicas).toBe(1);
    expect(object.spec.template?.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' });
    const again = structuredClone(object);
    replicationControllerDefinition.defaults?.(again);
    expect(again).toEqual(object);
  });

  it('keeps labels and a selector that are given', () => {
    const template = { metadata: { labels: { app: 'web', tier: 'front' } }, spec: { containers } };
    const { object } = admit(replicationControllerDefinition, rc({ selector: { app: 'web' }, template }, { name: 'web', labels: { team: 'a' } }));
    expect(object.spec.selector).toEqual({ app: 'web' });
    expect(object.metadata.labels).toEqual({ team: 'a' });
  });

  it('requires a selector and a template', () => {
    expect(admit(replicationControllerDefinition, rc({})).messages).toEqual(['spec.selector: Required value', 'spec.template: Required value']);
  });

  it('words a selector the template does not match, a wrong restartPolicy and negative counts as kube-apiserver does', () => {
    const template = { metadata: { labels: { app: 'other' } }, spec: { containers, restartPolicy: 'OnFailure', activeDeadlineSeconds: 5 } };
    const { messages } = admit(replicationControllerDefinition, rc({ replicas: -1, minReadySeconds: -2, selector: { app: 'web' }, template }));
    expect(messages).toEqual([
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0',
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"other"}: selector does not match labels in spec.template',
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported',
    ]);
  });
});

describe('PodTemplate', () => {
  it('defaults the pod spec and requires containers', () => {
    const { object, messages } = admit(podTemplateDefinition, { metadata: { name: 't' }, template: { spec: { containers } } });
    expect(messages).toEqual([]);
    expect(object.template?.spec).toMatchObject({ restartPolicy: 'Always' });
    expect(admit(podTemplateDefinition, { metadata: { name: 't' } }).messages).toEqual(['template.spec.containers: Required value']);
  });
});

describe('LimitRange', () => {
  const limitRange = (limits: unknown[]) => ({ metadata: { name: 'limits' }, spec: { limits } });

  it('accepts consistent bounds and defaults', () => {
    const item = {
      type: 'Container',
      min: { cpu: '100m' },
      defaultRequest: { cpu: '200m' },
      default: { cpu: '500m' },
      max: { cpu: '1' },
      maxLimitRequestRatio: { cpu: '5' },
    };
    expect(admit(limitRangeDefinition, limitRange([item, { type: 'Pod', max: { memory: '2Gi' } }])).messages).toEqual([]);
  });

  it('reports inconsistent bounds in kube-apiserver words', () => {
    const item = {
      type: 'Container',
      min: { cpu: '2' },
      max: { cpu: '1' },
      default: { cpu: '3' },
      defaultRequest: { cpu: '4' },
      maxLimitRequestRatio: { cpu: '500m' },
    };
    expect(admit(limitRangeDefinition, limitRange([item])).messages).toEqual([
      'spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1',
      'spec.limits[0].defaultRequest[cpu]: Invalid value: "4": default request value 4 is greater than max value 1',
      'spec.limits[0].defaultRequest[cpu]: Invalid value: "4": default request value 4 is greater than default limit value 3',
      'spec.limits[0].default[cpu]: Invalid value: "1": default value 3 is greater than max value 1',
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1',
    ]);
  });

  it('forbids defaults for the Pod type, duplicate types and bad quantities', () => {
    const messages = admit(
      limitRangeDefinition,
      limitRange([
        { type: 'Pod', default: { cpu: '1' } },
        { type: 'Pod', max: { cpu: '-1' } },
      ]),
    ).messages;
    expect(messages).toEqual([
      "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
      'spec.limits[1].type: Duplicate value: "Pod"',
      'spec.limits[1].max[cpu]: Invalid value: "-1": must be greater than or equal to 0',
    ]);
  });
});

describe('ResourceQuota', () => {
  const quota = (spec: unknown) => ({ metadata: { name: 'q' }, spec });

  it('accepts object counts, compute and count/<resource>', () => {
    const hard = { pods: '10', 'requests.cpu': '2', 'limits.memory': '4Gi', 'count/deployments.apps': '3', 'requests.hugepages-2Mi': '1Gi' };
    expect(admit(resourceQuotaDefinition, quota({ hard, scopes: ['BestEffort'] })).messages).toEqual([]);
  });

  it('rejects unknown resources and scopes, negative and fractional counts', () => {
    const { messages } = admit(resourceQuotaDefinition, quota({ hard: { gadgets: '1', pods: '1500m', secrets: '-1' }, scopes: ['Sometimes'] }));
    expect(messages).toEqual([
      'spec.hard[secrets]: Invalid value: "-1": must be greater than or equal to 0',
      'spec.hard[gadgets]: Invalid value: "gadgets": must be a standard resource for quota',
      'spec.hard[pods]: Invalid value: "1500m": must be an integer',
      'spec.scopes: Unsupported value: "Sometimes": supported values: "Terminating", "NotTerminating", "BestEffort", "NotBestEffort", "PriorityClass", "CrossNamespacePodAffinity", "VolumeAttributesClass"',
    ]);
  });

  it('prints used/hard per resource, limits.* in the LIMIT column', () => {
    const printed = { metadata: { name: 'q' }, status: { hard: { pods: '10', 'requests.memory': '1024Mi', 'limits.cpu': '2' }, used: { pods: '3' } } };
    const cells = resourceQuotaDefinition.printColumns.map((column) => column.cell(printed, { nowMs: 0 }));
    expect(cells.slice(2)).toEqual(['pods: 3/10, requests.memory: 0/1Gi', 'limits.cpu: 0/2']);
  });
});

describe('LimitRange defaulting and the LimitRanger', () => {
  it('defaults a Container item: limit from max, request from the limit, else from min', () => {
    const { object } = admit(limitRangeDefinition, {
      metadata: { name: 'l' },
      spec: {
        limits: [
          { type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' }, default: { memory: '256Mi' } },
          { type: 'Pod', max: { cpu: '4' } },
        ],
      },
    });
    expect(object.spec?.limits).toEqual([
      { type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' }, default: { cpu: '2', memory: '256Mi' }, defaultRequest: { cpu: '2', memory: '256Mi' } },
      { type: 'Pod', max: { cpu: '4' } },
    ]);
  });

  it('fills missing container requests and limits and says so in the annotation', () => {
    const ranges = [
      {
        metadata: { name: 'a' },
        spec: { limits: [{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' } }] },
      },
      { metadata: { name: 'b' }, spec: { limits: [{ type: 'Container', default: { cpu: '9' } }] } },
    ];
    const spec = {
      containers: [
        { name: 'app', image: 'nginx', resources: { limits: { memory: '1Gi' } } },
        { name: 'side', image: 'nginx', resources: { requests: { cpu: '1' }, limits: { cpu: '1', memory: '1Gi' } } },
      ],
      initContainers: [{ name: 'init', image: 'busybox' }],
    } as unknown as PodSpec;
    const note = applyLimitRangeDefaults(spec, ranges);
    expect(spec.containers[0]?.resources).toEqual({ requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '1Gi' } });
    expect(spec.containers[1]?.resources).toEqual({ requests: { cpu: '1', memory: '128Mi' }, limits: { cpu: '1', memory: '1Gi' } });
    expect(note).toBe(
      'LimitRanger plugin set: cpu, memory request for container app; cpu limit for container app; memory request for container side; cpu, memory request for init container init; cpu, memory limit for init container init',
    );
    expect(applyLimitRangeDefaults(spec, ranges)).toBeUndefined();
  });

  it("refuses pods outside the ranges' min, max and ratio, in kube-apiserver's words", () => {
    const ranges: LimitRange[] = [
      {
        metadata: { name: 'bounds' },
        spec: {
          limits: [
            { type: 'Container', min: { cpu: '50m' }, max: { cpu: '1', memory: '1Gi' }, maxLimitRequestRatio: { cpu: '4' } },
            { type: 'Pod', max: { memory: '1536Mi' } },
          ],
        },
      },
    ];
    const container = (name: string, requests: Record<string, string>, limits: Record<string, string>) => ({
      name,
      image: 'nginx',
      resources: { requests, limits },
    });
    const spec = {
      containers: [container('big', { cpu: '10m' }, { cpu: '2', memory: '1Gi' }), container('nolimit', { cpu: '100m' }, {})],
    } as unknown as PodSpec;
    expect(limitRangeViolations(spec, ranges)).toEqual([
      'minimum cpu usage per Container is 50m, but request is 10m',
      'maximum cpu usage per Container is 1, but limit is 2',
      'cpu max limit to request ratio per Container is 4, but provided ratio is 200.000000',
      'maximum cpu usage per Container is 1.  No limit is specified',
      'maximum memory usage per Container is 1Gi.  No limit is specified',
      'cpu max limit to request ratio per Container is 4, but no limit is specified or limit is 0',
    ]);
    const fits = {
      containers: [container('a', { cpu: '100m' }, { cpu: '400m', memory: '1Gi' }), container('b', { cpu: '100m' }, { cpu: '400m', memory: '512Mi' })],
    };
    expect(limitRangeViolations(fits as unknown as PodSpec, ranges)).toEqual([]);
    const tooMuch = {
      containers: [container('a', { cpu: '100m' }, { cpu: '400m', memory: '1Gi' }), container('b', { cpu: '100m' }, { cpu: '400m', memory: '1Gi' })],
    };
    expect(limitRangeViolations(tooMuch as unknown as PodSpec, ranges)).toEqual(['maximum memory usage per Pod is 1536Mi, but limit is 2Gi']);
  });
});
