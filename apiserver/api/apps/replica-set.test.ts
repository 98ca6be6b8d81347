import { describe, expect, it } from 'vitest';
import { labelSelectorFromStructured } from '../labels.js';
import { toSchemaDocument } from '../schema-node.js';
import { appsDefinitions } from './index.js';
import { replicaSetDefinition as def, defaultReplicaSet, type ReplicaSet, ReplicaSetSchema } from './replica-set.js';

const manifest = () => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'web-7c5d', namespace: 'default', labels: { app: 'web', 'pod-template-hash': '7c5d' } },
  spec: {
    selector: {
      matchLabels: { app: 'web', 'pod-template-hash': '7c5d' },
      matchExpressions: [{ key: 'tier', operator: 'In' as const, values: ['front', 'edge'] }],
    },
    template: {
      metadata: { labels: { app: 'web', 'pod-template-hash': '7c5d', tier: 'front' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
    },
  },
});

function admit(body: unknown, old?: ReplicaSet) {
  const rs = ReplicaSetSchema.parse(body);
  def.defaults?.(rs);
  return { rs, errors: def.validate?.(rs, old) ?? [] };
}

describe('ReplicaSet', () => {
  it('defaults replicas to 1 and the template pod spec, idempotently', () => {
    const { rs, errors } = admit(manifest());
    expect(errors).toEqual([]);
    expect(rs.spec.replicas).toBe(1);
    expect(rs.spec.template?.spec).toMatchObject({ restartPolicy: 'Always', terminationGracePeriodSeconds: 30 });
    const again = structuredClone(rs);
    defaultReplicaSet(again);
    expect(again).toEqual(rs);
  });

  it('validates replicas, selector and template', () => {
    const body = manifest();
    Object.assign(body.spec, { replicas: -2, minReadySeconds: -1 });
    body.spec.template.metadata.labels.tier = 'back';
    Object.assign(body.spec.template.spec, { activeDeadlineSeconds: 30 });
    expect(admit(body).errors).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.replicas', value: -2, detail: 'must be greater than or equal to 0' },
      { type: 'FieldValueInvalid', field: 'spec.minReadySeconds', value: -1, detail: 'must be greater than or equal to 0' },
      {
        type: 'FieldValueInvalid',
        field: 'spec.template.metadata.labels',
        value: { app: 'web', 'pod-template-hash': '7c5d', tier: 'back' },
        detail: '`selector` does not match template `labels`',
      },
      { type: 'FieldValueForbidden', field: 'spec.template.spec.activeDeadlineSeconds', detail: 'activeDeadlineSeconds in ReplicaSet is not Supported' },
    ]);
  });

  it('requires a selector while parsing and a template while validating', () => {
    const withoutSelector = manifest() as { spec: Record<string, unknown> };
    delete withoutSelector.spec.selector;
    expect(ReplicaSetSchema.safeParse(withoutSelector).error?.issues[0]?.path).toEqual(['spec', 'selector']);
    const withoutTemplate = manifest() as { spec: Record<string, unknown> };
    delete withoutTemplate.spec.template;
    expect(admit(withoutTemplate).errors).toEqual([{ type: 'FieldValueRequired', field: 'spec.template' }]);
  });

  it('keeps the selector immutable on update, whatever the key order', () => {
    const { rs: old } = admit(manifest());
    const reordered = manifest();
    reordered.spec.selector.matchLabels = { 'pod-template-hash': '7c5d', app: 'web' };
    expect(admit(reordered, old).errors).toEqual([]);
    const changed = manifest();
    changed.spec.selector.matchExpressions[0]!.values = ['front'];
    expect(admit(changed, old).errors.map((e) => e.detail)).toEqual(['field is immutable']);
  });

  it('prints Desired, Current, Ready and the wide columns', () => {
    const { rs } = admit(manifest());
    rs.metadata.creationTimestamp = '2026-01-01T00:00:00Z';
    rs.spec.replicas = 3;
    rs.status = { replicas: 3, readyReplicas: 1 };
    const cells = def.printColumns.map((c) => c.cell(rs, { nowMs: Date.parse('2026-01-01T02:00:00Z') }));
    expect(def.printColumns.map((c) => `${c.name}${c.priority ? '*' : ''}`)).toEqual([
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Age',
      'Containers*',
      'Images*',
      'Selector*',
    ]);
    expect(cells).toEqual(['web-7c5d', 3, 3, 1, '120m', 'nginx', 'nginx:1.25', 'app=web,pod-template-hash=7c5d,tier in (edge,front)']);
    expect(def.printColumns[7]!.cell({ metadata: { name: 'x' } }, { nowMs: 0 })).toBe('<none>');
  });

  it('exposes /scale with the selector string the Scale reports', () => {
    expect(def).toMatchObject({ shortNames: ['rs'], categories: ['all'], subresources: { status: true } });
    expect(def.subresources.scale).toEqual({ specReplicasPath: 'spec.replicas', statusReplicasPath: 'status.replicas', labelSelectorPath: 'spec.selector' });
    const { rs } = admit(manifest());
    expect(labelSelectorFromStructured(rs.spec.selector).toString()).toBe('app=web,pod-template-hash=7c5d,tier in (edge,front)');
    expect(def.fieldSelectors?.['status.replicas']?.(rs)).toBe('0');
  });

  it('is registered after deployments in the apps group', () => {
    const plurals = appsDefinitions.map((d) => d.plural);
    expect(plurals.slice(0, 2)).toEqual(['deployments', 'replicasets']);
    expect(plurals).toContain('daemonsets');
  });
});

describe('apps OpenAPI', () => {
  it('renders every kind as a schema document named after its Kubernetes definition', () => {
    for (const d of appsDefinitions) {
      const doc = toSchemaDocument(d.schema);
      expect(doc.definitions[`io.k8s.api.apps.v1.${d.kind}`]?.description).toBeTruthy();
    }
  });
});
