import { describe, expect, it } from 'vitest';
import { type APIService, APIServiceSchema, apiServiceDefinition as def } from './api-service.js';

const service = (name: string, spec: Record<string, unknown>): APIService => APIServiceSchema.parse({ metadata: { name }, spec });
const ctx = { listStored: () => [], randomInt: () => 0, now: () => 0 };
const row = (s: APIService) => def.printColumns.slice(1, 3).map((column) => column.cell(s, { nowMs: 0 }));

describe('APIService', () => {
  it('is Local and available without a service', () => {
    const local = service('v1.apps', { group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });
    expect(def.validate?.(local)).toEqual([]);
    def.strategy?.beforeCreate?.(local, ctx);
    expect(local.status?.conditions?.[0]).toMatchObject({
      type: 'Available',
      status: 'True',
      reason: 'Local',
      message: 'Local APIServices are always available',
    });
    expect(row(local)).toEqual(['Local', 'True']);
  });

  it('stores an aggregated one as unavailable', () => {
    const remote = service('v1beta1.custom.metrics.k8s.io', {
      group: 'custom.metrics.k8s.io',
      version: 'v1beta1',
      groupPriorityMinimum: 100,
      versionPriority: 100,
      service: { namespace: 'monitoring', name: 'adapter' },
    });
    def.defaults?.(remote);
    expect(remote.spec?.service?.port).toBe(443);
    def.strategy?.beforeCreate?.(remote, ctx);
    expect(row(remote)).toEqual(['monitoring/adapter', 'False (AggregationNotSupported)']);
  });

  it('validates in kube-aggregator’s words', () => {
    const bad = service('v1.wrong', { group: 'right.example.com', version: 'v1', groupPriorityMinimum: 0, versionPriority: 1001, insecureSkipTLSVerify: true });
    expect(def.validate?.(bad)?.map((e) => `${e.field}: ${e.detail}`)).toEqual([
      'metadata.name: must be `spec.version+"."+spec.group`: "v1.right.example.com"',
      'spec.groupPriorityMinimum: must be positive and less than 20000',
      'spec.versionPriority: must be positive and less than 1000',
      'spec.insecureSkipTLSVerify: local APIServices may not have insecureSkipTLSVerify',
    ]);
  });
});
