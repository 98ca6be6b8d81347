import { describe, expect, it } from 'vitest';
import type { Webhook } from '../../api/admissionregistration/webhook.js';
import { Registry } from '../../api/registry.js';
import type { ResourceDefinition } from '../../api/resource-definition.js';
import type { AdmissionAttributes } from '../plugin.js';
import { matchesObjectSelector, matchingVersion } from './matching.js';

const served = (fields: Partial<ResourceDefinition>) => ({ subresources: {}, storage: { resource: fields.plural }, ...fields }) as ResourceDefinition;
const pods = served({ group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true, subresources: { status: true } });
const nodes = served({ group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false });
// Two served versions of one stored resource, the second serving a status the first does not.
const widgetsV1 = served({ group: 'w.io', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true, storage: { resource: 'widgets.w.io' } });
const widgetsV2 = { ...widgetsV1, version: 'v2', subresources: { status: true } } as ResourceDefinition;
const registry = new Registry([pods, nodes, widgetsV1, widgetsV2]);
const matchesRules = (hook: Webhook, a: AdmissionAttributes) => matchingVersion(hook, a, registry) !== undefined;

function attributes(def: ResourceDefinition, subresource = '', operation: AdmissionAttributes['operation'] = 'CREATE'): AdmissionAttributes {
  return { operation, def, subresource, namespace: def.namespaced ? 'default' : '', name: 'x', user: { username: 'u', groups: [] }, dryRun: false };
}

function webhook(resources: string[], extra: Record<string, unknown> = {}): Webhook {
  return { name: 'w.test.io', rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources, scope: '*', ...extra }] } as Webhook;
}

describe('matchesRules', () => {
  it.each([
    [['pods'], '', true],
    [['pods'], 'status', false],
    [['pods/status'], 'status', true],
    [['pods/*'], '', true],
    [['pods/*'], 'status', true],
    [['*'], '', true],
    [['*'], 'status', false],
    [['*/status'], 'status', true],
    [['*/*'], 'eviction', true],
    [['nodes'], '', false],
  ])('resources %j match pods subresource %j: %s', (resources, subresource, expected) => {
    expect(matchesRules(webhook(resources), attributes(pods, subresource))).toBe(expected);
  });

  it('matches operations, groups, versions and scope', () => {
    expect(matchesRules(webhook(['pods']), attributes(pods, '', 'UPDATE'))).toBe(false);
    expect(matchesRules(webhook(['pods'], { operations: ['*'] }), attributes(pods, '', 'DELETE'))).toBe(true);
    expect(matchesRules(webhook(['pods'], { apiGroups: ['apps'] }), attributes(pods))).toBe(false);
    expect(matchesRules(webhook(['pods'], { apiVersions: ['v2'] }), attributes(pods))).toBe(false);
    expect(matchesRules(webhook(['*'], { scope: 'Namespaced' }), attributes(nodes))).toBe(false);
    expect(matchesRules(webhook(['*'], { scope: 'Cluster' }), attributes(nodes))).toBe(true);
    expect(matchesRules(webhook(['*'], { scope: 'Cluster' }), attributes(pods))).toBe(false);
  });
});

describe('matchingVersion', () => {
  const forWidgets = (version: string, matchPolicy?: string) =>
    ({
      name: 'w',
      matchPolicy,
      rules: [{ operations: ['*'], apiGroups: ['w.io'], apiVersions: [version], resources: ['widgets', 'widgets/status'] }],
    }) as Webhook;

  it("matches the request's own version first, another served version of the resource unless Exact", () => {
    expect(matchingVersion(forWidgets('v1'), attributes(widgetsV1), registry)).toBe(widgetsV1);
    expect(matchingVersion(forWidgets('v2'), attributes(widgetsV1), registry)).toBe(widgetsV2);
    expect(matchingVersion(forWidgets('v2', 'Equivalent'), attributes(widgetsV1), registry)).toBe(widgetsV2);
    expect(matchingVersion(forWidgets('v2', 'Exact'), attributes(widgetsV1), registry)).toBeUndefined();
    expect(matchingVersion(forWidgets('v3'), attributes(widgetsV1), registry)).toBeUndefined();
  });

  it('matches an equivalent version for a subresource only where that version serves it', () => {
    expect(matchingVersion(forWidgets('v1'), attributes(widgetsV2, 'status'), registry)).toBeUndefined();
    expect(matchingVersion(forWidgets('v2'), attributes(widgetsV2, 'status'), registry)).toBe(widgetsV2);
  });
});

describe('matchesObjectSelector', () => {
  it('matches the new or the old object', () => {
    const selecting = { name: 'w', objectSelector: { matchLabels: { a: 'b' } } } as Webhook;
    const a = attributes(pods, '', 'UPDATE');
    a.object = { apiVersion: 'v1', kind: 'Pod', metadata: { labels: {} } };
    a.oldObject = { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { a: 'b' } } };
    expect(matchesObjectSelector(selecting, a)).toBe(true);
    a.oldObject = { apiVersion: 'v1', kind: 'Pod', metadata: {} };
    expect(matchesObjectSelector(selecting, a)).toBe(false);
    expect(matchesObjectSelector({ name: 'w', objectSelector: {} } as Webhook, a)).toBe(true);
  });
});
