import { describe, expect, it } from 'vitest';
import { describeFieldError } from '../api-error.js';
import { childSchema, deref, toSchemaDocument } from '../schema-node.js';
import { type Deployment, DeploymentSchema, deploymentDefinition as def, defaultDeployment } from './deployment.js';

const fromWire = (text: string): unknown => JSON.parse(text, (_k, v: unknown) => (v === null ? undefined : v));

// The body `kubectl create deployment web --image=nginx:1.25 --replicas=2` sends (docs/kubectl-wire.md, "Request bodies kubectl sends").
const CREATE_BODY = `{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"web","creationTimestamp":null,"labels":{"app":"web"}},
 "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"creationTimestamp":null,"labels":{"app":"web"}},
 "spec":{"containers":[{"name":"nginx","image":"nginx:1.25","resources":{}}]}},"strategy":{}},"status":{}}`;

/** admit runs the create path of a request body: parse, default, validate. */
function admit(body: unknown, old?: Deployment) {
  const deployment = DeploymentSchema.parse(body);
  def.defaults?.(deployment);
  return { deployment, errors: def.validate?.(deployment, old) ?? [] };
}

function withSpec(patch: (spec: any) => void) {
  const body = fromWire(CREATE_BODY) as { spec: unknown };
  patch(body.spec);
  return body;
}

describe('Deployment defaults', () => {
  it('parses what kubectl create deployment sends and fills the §1.10 defaults', () => {
    const { deployment, errors } = admit(fromWire(CREATE_BODY));
    expect(errors).toEqual([]);
    expect(deployment.spec).toMatchObject({
      replicas: 2,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
    expect(deployment.spec.template.spec).toMatchObject({ restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler' });
    expect(deployment.spec.template.spec.containers?.[0]).toMatchObject({ imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' });
  });

  it('defaults replicas to 1, keeps explicit values and is idempotent', () => {
    const { deployment } = admit(
      withSpec((spec) => {
        delete spec.replicas;
        spec.strategy = { rollingUpdate: { maxSurge: 1 } };
      }),
    );
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } });
    const again = structuredClone(deployment);
    defaultDeployment(again);
    expect(again).toEqual(deployment);
  });

  it('leaves a Recreate strategy without rollingUpdate', () => {
    const { deployment, errors } = admit(withSpec((spec) => (spec.strategy = { type: 'Recreate' })));
    expect(deployment.spec.strategy).toEqual({ type: 'Recreate' });
    expect(errors).toEqual([]);
  });
});

describe('Deployment validation', () => {
  it('requires the template labels to match the selector', () => {
    const { errors } = admit(withSpec((spec) => (spec.template.metadata.labels = { app: 'api' })));
    expect(errors).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.template.metadata.labels', value: { app: 'api' }, detail: '`selector` does not match template `labels`' },
    ]);
  });

  it('rejects an empty selector and an invalid one', () => {
    expect(admit(withSpec((spec) => (spec.selector = {}))).errors).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.selector', value: {}, detail: 'empty selector is invalid for deployment' },
    ]);
    const invalidSelector = admit(withSpec((spec) => (spec.selector = { matchExpressions: [{ key: 'app', operator: 'In' }] }))).errors;
    expect(invalidSelector.map((e) => `${e.field}: ${describeFieldError(e)}`)).toEqual([
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"In"}]}: invalid label selector',
    ]);
  });

  it('checks replicas, the pod template and its restart policy', () => {
    const { errors } = admit(
      withSpec((spec) => {
        spec.replicas = -1;
        spec.template.spec.restartPolicy = 'Never';
        spec.template.spec.containers = [];
      }),
    );
    expect(errors).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.replicas', value: -1, detail: 'must be greater than or equal to 0' },
      { type: 'FieldValueRequired', field: 'spec.template.spec.containers' },
      { type: 'FieldValueNotSupported', field: 'spec.template.spec.restartPolicy', value: 'Never', detail: 'supported values: "Always"' },
    ]);
  });

  it('checks the rolling update parameters', () => {
    const rolling = (rollingUpdate: unknown) => admit(withSpec((spec) => (spec.strategy = { type: 'RollingUpdate', rollingUpdate }))).errors;
    expect(rolling({ maxSurge: 0, maxUnavailable: '0%' })).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.strategy.rollingUpdate.maxUnavailable', value: '0%', detail: 'may not be 0 when `maxSurge` is 0' },
    ]);
    expect(rolling({ maxSurge: '200%', maxUnavailable: '110%' })).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.strategy.rollingUpdate.maxUnavailable', value: '110%', detail: 'must not be greater than 100%' },
    ]);
    expect(rolling({ maxSurge: '1/2', maxUnavailable: -1 }).map((e) => e.field)).toEqual([
      'spec.strategy.rollingUpdate.maxUnavailable',
      'spec.strategy.rollingUpdate.maxSurge',
    ]);
  });

  it('forbids rollingUpdate with Recreate', () => {
    const { errors } = admit(withSpec((spec) => (spec.strategy = { type: 'Recreate', rollingUpdate: { maxSurge: 1 } })));
    expect(errors).toEqual([
      { type: 'FieldValueForbidden', field: 'spec.strategy.rollingUpdate', detail: "may not be specified when strategy `type` is 'Recreate'" },
    ]);
  });

  it('requires progressDeadlineSeconds to exceed minReadySeconds', () => {
    const { errors } = admit(withSpec((spec) => Object.assign(spec, { minReadySeconds: 30, progressDeadlineSeconds: 30, revisionHistoryLimit: -2 })));
    expect(errors).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.revisionHistoryLimit', value: -2, detail: 'must be greater than or equal to 0' },
      { type: 'FieldValueInvalid', field: 'spec.progressDeadlineSeconds', value: 30, detail: 'must be greater than minReadySeconds' },
    ]);
  });

  it('keeps the selector immutable on update', () => {
    const { deployment: old } = admit(fromWire(CREATE_BODY));
    const { errors } = admit(
      withSpec((spec) => {
        spec.selector.matchLabels.tier = 'front';
        spec.template.metadata.labels.tier = 'front';
      }),
      old,
    );
    expect(errors).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.selector', value: { matchLabels: { app: 'web', tier: 'front' } }, detail: 'field is immutable' },
    ]);
    expect(admit(fromWire(CREATE_BODY), old).errors).toEqual([]);
  });

  it('rejects an unknown strategy type while parsing', () => {
    const result = DeploymentSchema.safeParse(withSpec((spec) => (spec.strategy = { type: 'BlueGreen' })));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['spec', 'strategy', 'type'], message: 'supported values: "Recreate", "RollingUpdate"' });
  });
});

describe('Deployment table', () => {
  const cells = (d: unknown) => def.printColumns.map((c) => c.cell(d, { nowMs: Date.parse('2026-01-01T00:05:00Z') }));

  it('prints ready/desired, up-to-date, available and the wide columns', () => {
    const { deployment } = admit(
      withSpec((spec) => {
        spec.replicas = 3;
        spec.template.spec.containers.push({ name: 'sidecar', image: 'envoy:1.30' });
      }),
    );
    deployment.metadata.creationTimestamp = '2026-01-01T00:00:00Z';
    deployment.status = { replicas: 3, readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 };
    expect(def.printColumns.map((c) => `${c.name}${c.priority ? '*' : ''}`)).toEqual([
      'Name',
      'Ready',
      'Up-to-date',
      'Available',
      'Age',
      'Containers*',
      'Images*',
      'Selector*',
    ]);
    expect(cells(deployment)).toEqual(['web', '2/3', 3, 2, '5m', 'nginx,sidecar', 'nginx:1.25,envoy:1.30', 'app=web']);
  });

  it('does not throw on a bare object', () => {
    expect(cells({ metadata: { name: 'x' } })).toEqual(['x', '0/0', 0, 0, '<unknown>', '', '', '']);
  });
});

describe('Deployment definition', () => {
  it('serves deploy in category all with status and scale subresources', () => {
    expect(def).toMatchObject({ group: 'apps', version: 'v1', plural: 'deployments', shortNames: ['deploy'], categories: ['all'], tracksGeneration: true });
    expect(def.subresources).toEqual({
      status: true,
      scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: 'status.replicas', labelSelectorPath: 'spec.selector' },
    });
  });

  it('documents spec.strategy for kubectl explain and marks it retainKeys', () => {
    const doc = toSchemaDocument(DeploymentSchema);
    const spec = childSchema(doc.root, 'spec', doc);
    const strategyProperty = deref(spec, doc)?.properties?.strategy;
    expect(strategyProperty).toMatchObject({ 'x-kubernetes-patch-strategy': 'retainKeys' });
    expect(strategyProperty?.description).toContain('RollingUpdate');
    const strategy = childSchema(spec, 'strategy', doc);
    expect(childSchema(strategy, 'rollingUpdate', doc)?.description).toContain('rolling update');
    expect(doc.definitions['io.k8s.api.apps.v1.DeploymentSpec']).toBeDefined();
  });
});
