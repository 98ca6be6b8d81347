import { describe, expect, it } from 'vitest';
import { childSchema, toSchemaDocument } from '../schema-node.js';
import {
  horizontalPodAutoscalerDefinition as def,
  defaultHorizontalPodAutoscaler,
  type HorizontalPodAutoscaler,
  HorizontalPodAutoscalerSchema,
} from './horizontal-pod-autoscaler.js';

/** admit runs the create path of a request body: drop nulls, parse, default, validate. */
function admit(body: unknown, old?: HorizontalPodAutoscaler) {
  const hpa = HorizontalPodAutoscalerSchema.parse(JSON.parse(JSON.stringify(body), (_k, v: unknown) => (v === null ? undefined : v)));
  def.defaults?.(hpa);
  return { hpa, errors: def.validate?.(hpa, old) ?? [] };
}

const base = {
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'default', creationTimestamp: null },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5 },
};

const withSpec = (spec: Record<string, unknown>) => ({ ...base, spec: { ...base.spec, ...spec } });
const fields = (errors: Array<{ field: string }>) => errors.map((e) => e.field);

describe('HorizontalPodAutoscaler defaults', () => {
  it('sets minReplicas 1 and the implicit 80% CPU metric, and leaves behavior unset', () => {
    const { hpa, errors } = admit(base);
    expect(errors).toEqual([]);
    expect(hpa.spec.minReplicas).toBe(1);
    expect(hpa.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
    expect(hpa.spec.behavior).toBeUndefined();
  });

  it('fills both scaling directions when a behavior is given, keeping what was set', () => {
    const { hpa, errors } = admit(withSpec({ behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } }));
    expect(errors).toEqual([]);
    expect(hpa.spec.behavior).toEqual({
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
      scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    });
  });

  it('is idempotent', () => {
    const { hpa } = admit(withSpec({ behavior: {} }));
    const again = structuredClone(hpa);
    defaultHorizontalPodAutoscaler(again);
    expect(again).toEqual(hpa);
  });
});

describe('HorizontalPodAutoscaler validation', () => {
  it('checks the replica bounds', () => {
    // As in Kubernetes, 0 is also reported as scale-to-zero without an Object/External metric.
    expect(admit(withSpec({ minReplicas: 0 })).errors).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.minReplicas', value: 0, detail: 'must be greater than or equal to 1' },
      { type: 'FieldValueForbidden', field: 'spec.metrics', detail: 'must specify at least one Object or External metric to support scaling to zero replicas' },
    ]);
    expect(admit(withSpec({ minReplicas: 6 })).errors).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.maxReplicas', value: 5, detail: 'must be greater than or equal to `minReplicas`' },
    ]);
    expect(fields(admit(withSpec({ maxReplicas: 0 })).errors)).toEqual(['spec.maxReplicas', 'spec.maxReplicas']);
  });

  it('keeps minReplicas 0 valid on update when it already was', () => {
    const { hpa } = admit(withSpec({ minReplicas: 2 }));
    const old = structuredClone(hpa);
    old.spec.minReplicas = 0;
    hpa.spec.minReplicas = 0;
    expect(def.validate?.(hpa, old)).toEqual([
      { type: 'FieldValueForbidden', field: 'spec.metrics', detail: 'must specify at least one Object or External metric to support scaling to zero replicas' },
    ]);
  });

  it('requires the scale target kind and name', () => {
    const { errors } = admit(withSpec({ scaleTargetRef: { kind: '', name: 'a/b' } }));
    expect(errors).toEqual([
      { type: 'FieldValueRequired', field: 'spec.scaleTargetRef.kind' },
      { type: 'FieldValueInvalid', field: 'spec.scaleTargetRef.name', value: 'a/b', detail: "may not contain '/'" },
    ]);
  });

  it('checks metric targets', () => {
    const metrics = [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 0 } } },
      { type: 'Resource', resource: { name: 'memory', target: { type: 'Average', averageValue: '-1Mi' } } },
      { type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'Value', value: '10' } } },
      { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '1', averageValue: '2' } } },
    ];
    expect(admit(withSpec({ metrics })).errors).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.metrics[0].resource.target.averageUtilization', value: 0, detail: 'must be greater than 0' },
      {
        type: 'FieldValueInvalid',
        field: 'spec.metrics[1].resource.target.type',
        value: 'Average',
        detail: 'must be either Utilization, Value, or AverageValue',
      },
      { type: 'FieldValueInvalid', field: 'spec.metrics[1].resource.target.averageValue', value: '-1Mi', detail: 'must be positive' },
      { type: 'FieldValueRequired', field: 'spec.metrics[2].pods.target.averageValue', detail: 'must specify a positive target averageValue' },
      {
        type: 'FieldValueForbidden',
        field: 'spec.metrics[3].external.target.value',
        detail: 'may not set both a target value for metric and a per-pod target',
      },
    ]);
  });

  it('requires exactly the metric source that matches the type', () => {
    const metrics = [
      { type: 'Pods', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
        pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue: '1' } },
      },
      { type: 'Custom' },
    ];
    expect(admit(withSpec({ metrics })).errors).toEqual([
      { type: 'FieldValueRequired', field: 'spec.metrics[0].pods', detail: 'must populate information for the given metric source' },
      { type: 'FieldValueForbidden', field: 'spec.metrics[1].pods', detail: 'must populate the given metric source only' },
      {
        type: 'FieldValueNotSupported',
        field: 'spec.metrics[2].type',
        value: 'Custom',
        detail: 'supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      },
    ]);
  });

  it('checks scaling rules', () => {
    const behavior = {
      scaleUp: { stabilizationWindowSeconds: 4000, selectPolicy: 'Fastest', policies: [] },
      scaleDown: { policies: [{ type: 'Pods', value: 0, periodSeconds: 1801 }] },
    };
    expect(admit(withSpec({ behavior })).errors).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.behavior.scaleUp.stabilizationWindowSeconds', value: 4000, detail: 'must be less than or equal to 3600' },
      { type: 'FieldValueNotSupported', field: 'spec.behavior.scaleUp.selectPolicy', value: 'Fastest', detail: 'supported values: "Disabled", "Max", "Min"' },
      { type: 'FieldValueRequired', field: 'spec.behavior.scaleUp.policies', detail: 'must specify at least one Policy' },
      { type: 'FieldValueInvalid', field: 'spec.behavior.scaleDown.policies[0].value', value: 0, detail: 'must be greater than zero' },
      { type: 'FieldValueInvalid', field: 'spec.behavior.scaleDown.policies[0].periodSeconds', value: 1801, detail: 'must be less than or equal to 1800' },
    ]);
  });
});

describe('HorizontalPodAutoscaler table', () => {
  const cells = (hpa: unknown) => def.printColumns.map((c) => c.cell(hpa, { nowMs: Date.parse('2026-01-01T00:01:00Z') }));

  it('prints the kube columns', () => {
    expect(def.printColumns.map((c) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Reference', 0],
      ['Targets', 0],
      ['MinPods', 0],
      ['MaxPods', 0],
      ['Replicas', 0],
      ['Age', 0],
    ]);
  });

  it('shows <unknown> until the controller has read the metric', () => {
    const { hpa } = admit({ ...withSpec({ minReplicas: 2 }), metadata: { name: 'web', creationTimestamp: '2026-01-01T00:00:00Z' } });
    expect(cells(hpa)).toEqual(['web', 'Deployment/web', 'cpu: <unknown>/80%', '2', 5, 0, '60s']);
    hpa.status = {
      currentReplicas: 3,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 45, averageValue: '45m' } } }],
    };
    expect(cells(hpa).slice(2, 6)).toEqual(['cpu: 45%/80%', '2', 5, 3]);
  });

  it('prints <unset> for a missing minReplicas', () => {
    expect(cells({ metadata: { name: 'x' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'x' }, maxReplicas: 3 } })[3]).toBe('<unset>');
  });
});

describe('HorizontalPodAutoscaler schema', () => {
  it('documents the fields kubectl explain shows', () => {
    const doc = toSchemaDocument(HorizontalPodAutoscalerSchema);
    const spec = childSchema(doc.root, 'spec', doc);
    expect(childSchema(spec, 'behavior', doc)?.description).toContain('scaling behavior');
    expect(doc.definitions['io.k8s.api.autoscaling.v2.MetricSpec']).toBeDefined();
    const status = childSchema(doc.root, 'status', doc);
    expect(status?.properties?.conditions).toMatchObject({ 'x-kubernetes-patch-merge-key': 'type' });
  });
});
