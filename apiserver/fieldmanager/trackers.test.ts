/**
 * The trackers as the registry drives them (merge → decode → track), on the Deployment
 * kind: ownership after updates, apply conflicts and force, pruning of dropped fields, the
 * kubectl client-side → server-side bridge, and no-op applies.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.js';
import { builtinDefinitions } from '../api/builtin.js';
import type { KubeObject } from '../api/resource-definition.js';
import { decodeObject } from '../registry/object-codec.js';
import { createApplyTracker } from './apply-tracker.js';
import { createUpdateTracker } from './field-tracker.js';
import { LAST_APPLIED_ANNOTATION } from './last-applied.js';
import type { WriteSubresource } from './write-scope.js';

const def = builtinDefinitions().find((d) => d.kind === 'Deployment')!;
let clockMs = Date.parse('2026-01-01T00:00:00Z');
const now = () => clockMs;
const decode = (body: Record<string, unknown>) => decodeObject(def, body, { fieldValidation: 'Ignore', warnings: [] });

function manifest(replicas?: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const spec: Record<string, unknown> = {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } },
    ...extra,
  };
  if (replicas !== undefined) spec['replicas'] = replicas;
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec };
}

function update(current: KubeObject | undefined, next: KubeObject, manager: string, subresource: WriteSubresource = ''): KubeObject {
  const out = structuredClone(next);
  createUpdateTracker({ def, manager, subresource, now }).track(current, out);
  return out;
}

function apply(current: KubeObject | undefined, config: Record<string, unknown>, manager = 'kubectl', force = false): KubeObject {
  const tracker = createApplyTracker({ def, manager, subresource: '', now, force });
  const next = decode(tracker.merge(current, config));
  tracker.track(current, next);
  return next;
}

const managers = (object: KubeObject) =>
  (object.metadata['managedFields'] as Array<{ manager: string; operation: string }>).map((e) => `${e.manager}/${e.operation}`);
const fieldsOf = (object: KubeObject, manager: string) =>
  (object.metadata['managedFields'] as Array<{ manager: string; fieldsV1: Record<string, any> }>).find((e) => e.manager === manager)?.fieldsV1;

function conflictOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected a conflict');
}

describe('Update tracking', () => {
  it('records a create as an Update owning every field it set, with its time', () => {
    const created = update(undefined, decode(manifest(2)), 'kubectl-create');
    expect(created.metadata['managedFields']).toEqual([
      expect.objectContaining({ manager: 'kubectl-create', operation: 'Update', apiVersion: 'apps/v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1' }),
    ]);
    expect(fieldsOf(created, 'kubectl-create')!['f:spec']['f:replicas']).toEqual({});
    expect(fieldsOf(created, 'kubectl-create')!['f:metadata']).toBeUndefined();
  });

  it('moves a field to the manager that changed it, with subresource scale', () => {
    const created = update(undefined, decode(manifest(2)), 'kubectl-create');
    const scaled = update(created, { ...created, spec: { ...(created['spec'] as object), replicas: 5 } }, 'hpa', 'scale');
    const hpa = (scaled.metadata['managedFields'] as any[]).find((e) => e.manager === 'hpa');
    expect(hpa).toMatchObject({ operation: 'Update', subresource: 'scale', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
    expect(fieldsOf(scaled, 'kubectl-create')!['f:spec']['f:replicas']).toBeUndefined();
  });

  it('leaves managedFields untouched when a write changes nothing', () => {
    const created = update(undefined, decode(manifest(2)), 'a');
    clockMs += 60_000;
    expect(update(created, structuredClone(created), 'b').metadata['managedFields']).toEqual(created.metadata['managedFields']);
  });

  it('takes managedFields sent with a main-resource write, and [] resets them', () => {
    const created = update(undefined, decode(manifest(2)), 'a');
    const reset = update(created, { ...structuredClone(created), metadata: { ...created.metadata, managedFields: [] } }, 'b');
    expect(reset.metadata['managedFields']).toBeUndefined();
    const status = update(
      created,
      { ...structuredClone(created), metadata: { ...created.metadata, managedFields: [] }, status: { replicas: 1 } },
      'c',
      'status',
    );
    expect(managers(status)).toEqual(['a/Update', 'c/Update']);
  });

  it('merges the oldest of more than ten Update managers into ancient-changes', () => {
    let object = update(undefined, decode(manifest(1)), 'm0');
    for (let i = 1; i <= 11; i++) {
      clockMs += 1000;
      object = update(object, { ...object, metadata: { ...object.metadata, labels: { [`l${i}`]: 'x', ...object.metadata.labels } } }, `m${i}`);
    }
    expect(managers(object)).toHaveLength(10);
    expect(managers(object)[0]).toBe('ancient-changes/Update');
  });
});

describe('server-side apply', () => {
  it('conflicts with the manager owning a field whose value it changes, and not when the value is the same', () => {
    const created = update(undefined, decode(manifest(2)), 'kubectl-client-side-apply');
    const error = conflictOf(() => apply(created, manifest(3)));
    expect(error.code).toBe(409);
    expect(error.message).toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas');
    expect(error.details?.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using apps/v1', field: '.spec.replicas' },
    ]);
    const shared = apply(created, manifest(2));
    expect(fieldsOf(shared, 'kubectl')!['f:spec']['f:replicas']).toEqual({});
    expect(fieldsOf(shared, 'kubectl-client-side-apply')!['f:spec']['f:replicas']).toEqual({});
  });

  it('lists several conflicts per manager, managers sorted', () => {
    const created = apply(undefined, manifest(2, { minReadySeconds: 1 }), 'zeta');
    const both = update(created, { ...created, spec: { ...(created['spec'] as object), paused: true } }, 'alpha');
    const error = conflictOf(() => apply(both, manifest(3, { minReadySeconds: 2, paused: false }), 'kubectl'));
    expect(error.message).toBe(
      'Apply failed with 3 conflicts: conflicts with "alpha" using apps/v1:\n- .spec.paused\nconflicts with "zeta":\n- .spec.minReadySeconds\n- .spec.replicas',
    );
  });

  it('takes the fields with force', () => {
    const created = update(undefined, decode(manifest(2)), 'hpa', 'scale');
    const forced = apply(created, manifest(3), 'kubectl', true);
    expect((forced['spec'] as { replicas: number }).replicas).toBe(3);
    expect(managers(forced)).toEqual(['kubectl/Apply']);
  });

  it('removes a field the applier dropped, unless another manager owns it', () => {
    const first = apply(undefined, manifest(2, { minReadySeconds: 5, paused: true }));
    const shared = apply(first, manifest(undefined, { paused: true }), 'other');
    const second = apply(shared, manifest(undefined));
    const spec = second['spec'] as Record<string, unknown>;
    expect(spec['minReadySeconds']).toBeUndefined();
    expect(spec['paused']).toBe(true);
    // replicas came back as the default, owned by nobody.
    expect(spec['replicas']).toBe(1);
    expect(fieldsOf(second, 'kubectl')!['f:spec']['f:replicas']).toBeUndefined();
  });

  it('removes a container dropped from the configuration, and keeps the order of the rest', () => {
    const containers = (names: string[]) => ({
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: names.map((name) => ({ name, image: 'img' })) } },
    });
    const first = apply(undefined, manifest(1, containers(['a', 'b', 'c'])));
    const second = apply(first, manifest(1, containers(['a', 'c'])));
    expect((second['spec'] as any).template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['a', 'c']);
  });

  it('is a no-op when nothing changes: same time, same entries', () => {
    const first = apply(undefined, manifest(2));
    clockMs += 60_000;
    const again = apply(first, manifest(2));
    expect(again.metadata['managedFields']).toEqual(first.metadata['managedFields']);
  });

  it('forgives kubectl the conflicts on fields its last client-side apply listed, and rewrites that annotation', () => {
    const csa = decode(manifest(2));
    csa.metadata.annotations = { [LAST_APPLIED_ANNOTATION]: `${JSON.stringify(manifest(2))}\n` };
    const created = update(undefined, csa, 'kubectl-client-side-apply');
    const upgraded = apply(created, manifest(3));
    expect((upgraded['spec'] as { replicas: number }).replicas).toBe(3);
    expect(JSON.parse(upgraded.metadata.annotations![LAST_APPLIED_ANNOTATION]!).spec.replicas).toBe(3);
    // Another manager gets no such pass.
    expect(conflictOf(() => apply(created, manifest(3), 'argocd')).code).toBe(409);
  });

  it('rejects a configuration of another type, with managedFields, or with unidentified list items', () => {
    const reason = (config: Record<string, unknown>) => conflictOf(() => apply(undefined, config)).message;
    expect(reason({ ...manifest(1), kind: 'ReplicaSet' })).toBe('invalid object type: apps/v1, Kind=ReplicaSet');
    expect(reason({ ...manifest(1), metadata: { name: 'web', managedFields: [] } })).toBe('metadata.managedFields must be nil');
    const noName = manifest(1, { template: { spec: { containers: [{ image: 'x' }] } } });
    expect(reason(noName)).toBe(
      'failed to create typed patch object: .spec.template.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    );
  });
});
