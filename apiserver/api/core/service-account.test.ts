import { describe, expect, it } from 'vitest';
import { ServiceAccountSchema, serviceAccountDefinition } from './service-account.js';

describe('ServiceAccount', () => {
  it('parses and prints Name, Secrets, Age', () => {
    const sa = ServiceAccountSchema.parse({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'builder', namespace: 'default', creationTimestamp: '2026-01-10T11:00:00Z' },
      secrets: [{ name: 'builder-token' }],
      imagePullSecrets: [{ name: 'registry' }],
      automountServiceAccountToken: false,
    });
    const cells = serviceAccountDefinition.printColumns.map((c) => c.cell(sa, { nowMs: Date.parse('2026-01-10T12:00:00Z') }));
    expect(cells).toEqual(['builder', 1, '60m']);
    expect(serviceAccountDefinition.shortNames).toEqual(['sa']);
  });
});
