import { describe, expect, it } from 'vitest';
import { builtinDefinitions } from '../api/builtin.js';
import type { ResourceDefinition } from '../api/resource-definition.js';
import { desiredApiServices } from './autoregister.js';

describe('autoregister', () => {
  it('wants one Local APIService per served group-version, with kube-apiserver’s priorities', () => {
    const desired = desiredApiServices(builtinDefinitions());
    expect(desired.get('v1.')).toEqual({ spec: { group: '', version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 }, managed: 'onstart' });
    expect(desired.get('v2.autoscaling')?.spec).toMatchObject({ groupPriorityMinimum: 17500, versionPriority: 30 });
    expect(desired.get('v1.autoscaling')?.spec).toMatchObject({ groupPriorityMinimum: 17500, versionPriority: 15 });
    expect(desired.get('v1.flowcontrol.apiserver.k8s.io')?.spec).toMatchObject({ groupPriorityMinimum: 16100, versionPriority: 21 });
    expect([...desired.values()].every((service) => service.spec.service === undefined)).toBe(true);
  });

  it('registers a CRD’s versions as kube-apiserver’s CRD registration does', () => {
    const widget = { group: 'example.com', version: 'v1alpha1', plural: 'widgets', unstructured: true } as ResourceDefinition;
    expect(desiredApiServices([widget]).get('v1alpha1.example.com')).toEqual({
      spec: { group: 'example.com', version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 100 },
      managed: 'true',
    });
  });
});
