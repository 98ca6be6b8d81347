import { describe, expect, it } from 'vitest';
import { NamespaceSchema, namespaceDefinition } from './namespace.js';

describe('Namespace', () => {
  it('defaults the kubernetes finalizer and the Active phase', () => {
    const ns = NamespaceSchema.parse({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    namespaceDefinition.defaults?.(ns);
    expect(ns.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(ns.status).toEqual({ phase: 'Active' });
    expect(namespaceDefinition).toMatchObject({ namespaced: false, nameRule: 'dns1123-label', shortNames: ['ns'] });
    expect(namespaceDefinition.subresources).toEqual({ status: true, extra: ['finalize'] });
  });

  it('prints Name, Status, Age and selects on status.phase', () => {
    const ns = NamespaceSchema.parse({
      metadata: { name: 'old', creationTimestamp: '2026-01-10T11:59:15Z', deletionTimestamp: '2026-01-10T12:00:00Z' },
      status: { phase: 'Terminating', conditions: [{ type: 'NamespaceContentRemaining', status: 'True' }] },
    });
    const cells = namespaceDefinition.printColumns.map((c) => c.cell(ns, { nowMs: Date.parse('2026-01-10T12:00:00Z') }));
    expect(cells).toEqual(['old', 'Terminating', '45s']);
    expect(namespaceDefinition.fieldSelectors?.['status.phase']?.(ns)).toBe('Terminating');
  });

  it('rejects an unknown phase', () => {
    expect(NamespaceSchema.safeParse({ metadata: {}, status: { phase: 'Gone' } }).success).toBe(false);
  });
});
