import { describe, expect, it } from 'vitest';
import { leaseDefinition as def, LeaseSchema } from './lease.js';

const lease = (spec: Record<string, unknown>) =>
  LeaseSchema.parse({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'kube-scheduler', namespace: 'kube-system' }, spec });

describe('Lease', () => {
  it('parses a leader-election lease with microsecond times', () => {
    const spec = {
      holderIdentity: 'scheduler-1_6c3e',
      leaseDurationSeconds: 15,
      acquireTime: '2026-01-01T00:00:00.000000Z',
      renewTime: '2026-01-01T00:00:10.123456Z',
      leaseTransitions: 2,
    };
    const parsed = lease(spec);
    expect(parsed.spec).toEqual(spec);
    expect(def.validate?.(parsed)).toEqual([]);
  });

  it('validates durations, transitions and the coordination strategy', () => {
    expect(def.validate?.(lease({ leaseDurationSeconds: 0, leaseTransitions: -1, preferredHolder: 'b' }))).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.leaseDurationSeconds', value: 0, detail: 'must be greater than 0' },
      { type: 'FieldValueInvalid', field: 'spec.leaseTransitions', value: -1, detail: 'must be greater than or equal to 0' },
      { type: 'FieldValueForbidden', field: 'spec.preferredHolder', detail: 'may only be specified if `strategy` is defined' },
    ]);
    expect(def.validate?.(lease({ strategy: 'Newest' }))).toEqual([
      { type: 'FieldValueNotSupported', field: 'spec.strategy', value: 'Newest', detail: 'supported values: "OldestEmulationVersion"' },
    ]);
    expect(def.validate?.(lease({ strategy: 'example.com/newest', preferredHolder: 'b' }))).toEqual([]);
  });

  it('prints Name, Holder and Age', () => {
    const cells = (o: unknown) => def.printColumns.map((c) => c.cell(o, { nowMs: Date.parse('2026-01-01T00:00:30Z') }));
    expect(cells({ metadata: { name: 'node-1', creationTimestamp: '2026-01-01T00:00:00Z' }, spec: { holderIdentity: 'node-1' } })).toEqual([
      'node-1',
      'node-1',
      '30s',
    ]);
    expect(cells({ metadata: { name: 'free' } })[1]).toBe('');
  });
});
