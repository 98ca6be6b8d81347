import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error.js';
import type { KubeObject } from '../resource-definition.js';
import { toSchemaDocument } from '../schema-node.js';
import { type HorizontalPodAutoscaler, HorizontalPodAutoscalerSchema, horizontalPodAutoscalerDefinition as v2Def } from './horizontal-pod-autoscaler.js';
import {
  HorizontalPodAutoscalerV1Schema,
  HpaRoundTripAnnotations,
  hpaV1ToV2,
  hpaV2ToV1,
  horizontalPodAutoscalerV1Definition as v1Def,
} from './horizontal-pod-autoscaler-v1.js';
import { autoscalingDefinitions } from './index.js';

const fromWire = (text: string): unknown => JSON.parse(text, (_k, v: unknown) => (v === null ? undefined : v));

// The body `kubectl autoscale deploy web --min=2 --max=5 --cpu-percent=80` sends (docs/kubectl-wire.md, "Request bodies kubectl sends").
const AUTOSCALE_BODY = `{"kind":"HorizontalPodAutoscaler","apiVersion":"autoscaling/v1","metadata":{"name":"web","creationTimestamp":null},
 "spec":{"scaleTargetRef":{"kind":"Deployment","name":"web","apiVersion":"apps/v1"},"minReplicas":2,"maxReplicas":5,
 "targetCPUUtilizationPercentage":80},"status":{"currentReplicas":0,"desiredReplicas":0}}`;

function parseV1(body: unknown) {
  const hpa = HorizontalPodAutoscalerV1Schema.parse(body);
  v1Def.defaults?.(hpa);
  return hpa;
}

const v2 = (spec: Partial<HorizontalPodAutoscaler['spec']>, rest: Partial<HorizontalPodAutoscaler> = {}): HorizontalPodAutoscaler =>
  HorizontalPodAutoscalerSchema.parse({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default' },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, minReplicas: 1, maxReplicas: 5, ...spec },
    ...rest,
  });

const cpuMetric = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } };
const memoryMetric = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } };

describe('autoscaling/v1 HorizontalPodAutoscaler', () => {
  it('parses what kubectl autoscale sends and validates it', () => {
    const hpa = parseV1(fromWire(AUTOSCALE_BODY));
    expect(hpa.spec).toEqual({
      scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
      minReplicas: 2,
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 80,
    });
    expect(v1Def.validate?.(hpa)).toEqual([]);
  });

  it('defaults minReplicas only; the CPU metric comes from conversion', () => {
    const hpa = parseV1({ metadata: { name: 'web' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3 } });
    expect(hpa.spec.minReplicas).toBe(1);
    expect(hpa.spec.targetCPUUtilizationPercentage).toBeUndefined();
    expect(hpaV1ToV2(hpa).spec.metrics).toEqual([cpuMetric]);
  });

  it('reports errors at the v2 field paths Kubernetes uses', () => {
    const hpa = parseV1({
      metadata: { name: 'web' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3, targetCPUUtilizationPercentage: 0 },
    });
    expect(v1Def.validate?.(hpa)).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.metrics[0].resource.target.averageUtilization', value: 0, detail: 'must be greater than 0' },
    ]);
  });

  it('is served after v2, from the same storage, with conversion', () => {
    expect(autoscalingDefinitions.map((d) => d.version)).toEqual(['v2', 'v1']);
    expect(v1Def.storage.resource).toBe(v2Def.storage.resource);
    expect(v2Def.storage.toStorage).toBeUndefined();
    const stored = v1Def.storage.toStorage!(parseV1(fromWire(AUTOSCALE_BODY)) as KubeObject);
    expect(stored.apiVersion).toBe('autoscaling/v2');
    expect(HorizontalPodAutoscalerSchema.safeParse(stored).success).toBe(true);
  });

  it('prints the same table cells as v2', () => {
    const hpa = hpaV2ToV1(v2({ minReplicas: 2, metrics: [memoryMetric, cpuMetric] as HorizontalPodAutoscaler['spec']['metrics'] }));
    expect(v1Def.printColumns.map((c) => c.cell(hpa, { nowMs: 0 })).slice(1, 6)).toEqual([
      'Deployment/web',
      'memory: <unknown>/100Mi, cpu: <unknown>/80%',
      '2',
      5,
      0,
    ]);
  });
});

describe('v1 → v2 → v1', () => {
  it('maps targetCPUUtilizationPercentage to a cpu Utilization metric and back', () => {
    const v1 = parseV1(fromWire(AUTOSCALE_BODY));
    const stored = hpaV1ToV2(v1);
    expect(stored.spec.metrics).toEqual([cpuMetric]);
    expect(stored.metadata.annotations).toBeUndefined();
    expect(hpaV2ToV1(stored)).toEqual(v1);
  });

  it('keeps annotated metrics, statuses and conditions written by v1 clients', () => {
    const v1 = parseV1(hpaV2ToV1(v2({ metrics: [memoryMetric, cpuMetric] as HorizontalPodAutoscaler['spec']['metrics'] })));
    v1.metadata.annotations = { ...v1.metadata.annotations, team: 'web' };
    expect(hpaV2ToV1(hpaV1ToV2(v1))).toEqual(v1);
  });
});

describe('v2 → v1 → v2', () => {
  const rich = v2(
    {
      metrics: [
        memoryMetric,
        { type: 'Pods', pods: { metric: { name: 'rps', selector: { matchLabels: { app: 'web' } } }, target: { type: 'AverageValue', averageValue: '10' } } },
        {
          type: 'Object',
          object: {
            describedObject: { kind: 'Ingress', name: 'main', apiVersion: 'networking.k8s.io/v1' },
            metric: { name: 'hits' },
            target: { type: 'Value', value: '2k' },
          },
        },
        { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '30' } } },
        { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 60 } } },
        cpuMetric,
      ] as HorizontalPodAutoscaler['spec']['metrics'],
      behavior: { scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 50, periodSeconds: 30 }] } },
    },
    {
      status: {
        currentReplicas: 2,
        desiredReplicas: 3,
        lastScaleTime: '2026-01-01T00:00:00Z',
        currentMetrics: [
          { type: 'Resource', resource: { name: 'memory', current: { averageValue: '50Mi' } } },
          { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 45, averageValue: '45m' } } },
        ],
        conditions: [{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'ReadyForNewScale' }],
      },
    },
  );

  it('moves what v1 cannot express into the round-trip annotations', () => {
    const v1 = hpaV2ToV1(rich);
    expect(v1.spec.targetCPUUtilizationPercentage).toBe(80);
    expect(v1.status).toMatchObject({ currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 45 });
    const annotations = v1.metadata.annotations ?? {};
    expect(JSON.parse(annotations[HpaRoundTripAnnotations.metrics]!)[0]).toEqual({
      type: 'Resource',
      resource: { name: 'memory', targetAverageValue: '100Mi' },
    });
    expect(JSON.parse(annotations[HpaRoundTripAnnotations.metrics]!)[1]).toEqual({
      type: 'Pods',
      pods: { metricName: 'rps', targetAverageValue: '10', selector: { matchLabels: { app: 'web' } } },
    });
    expect(JSON.parse(annotations[HpaRoundTripAnnotations.behavior]!)).toEqual({
      ScaleDown: { StabilizationWindowSeconds: 60, SelectPolicy: 'Max', Policies: [{ Type: 'Percent', Value: 50, PeriodSeconds: 30 }] },
    });
    expect(JSON.parse(annotations[HpaRoundTripAnnotations.conditions]!)).toEqual(rich.status?.conditions);
  });

  it('restores the v2 object (the CPU utilization metric is listed last, as Kubernetes does)', () => {
    expect(hpaV1ToV2(parseV1(JSON.parse(JSON.stringify(hpaV2ToV1(rich)))))).toEqual(rich);
    const cpuFirst = v2({ metrics: [cpuMetric, memoryMetric] as HorizontalPodAutoscaler['spec']['metrics'] });
    expect(hpaV1ToV2(hpaV2ToV1(cpuFirst)).spec.metrics).toEqual([memoryMetric, cpuMetric]);
  });

  it('drops stale round-trip annotations from the stored object', () => {
    const stale = v2({}, { metadata: { name: 'web', annotations: { [HpaRoundTripAnnotations.metrics]: '[]', keep: 'me' } } });
    expect(hpaV2ToV1(stale).metadata.annotations).toEqual({ keep: 'me' });
  });

  it('reads Go-written behavior annotations case-insensitively and ignores broken ones', () => {
    const v1 = parseV1({
      metadata: { name: 'web', annotations: { [HpaRoundTripAnnotations.behavior]: '{"scaleUp":{"SelectPolicy":"Disabled","Policies":null}}' } },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3 },
    });
    expect(hpaV1ToV2(v1).spec.behavior).toEqual({ scaleUp: { selectPolicy: 'Disabled' } });
    v1.metadata.annotations = { [HpaRoundTripAnnotations.behavior]: 'not json' };
    expect(hpaV1ToV2(v1).spec.behavior).toBeUndefined();
  });

  it('rejects a malformed metrics annotation with BadRequest', () => {
    const v1 = parseV1({
      metadata: { name: 'web', annotations: { [HpaRoundTripAnnotations.metrics]: 'abc' } },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3 },
    });
    expect(() => hpaV1ToV2(v1)).toThrow(ApiError);
    expect(hpaV1ToV2(v1, { lenient: true }).spec.metrics).toEqual([cpuMetric]);
  });
});

describe('autoscaling OpenAPI', () => {
  it('renders both versions as schema documents named after their Kubernetes definitions', () => {
    for (const d of autoscalingDefinitions) {
      const doc = toSchemaDocument(d.schema);
      expect(doc.definitions[`io.k8s.api.autoscaling.${d.version}.HorizontalPodAutoscaler`]?.description).toBeTruthy();
    }
  });
});
