import { describe, expect, it } from 'vitest';
import type { Webhook } from '../../api/admissionregistration/webhook.js';
import type { ResourceDefinition } from '../../api/resource-definition.js';
import type { AdmissionAttributes } from '../plugin.js';
import { matchesObjectSelector, matchesRules } from './matching.js';

const pods = { group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true } as ResourceDefinition;
const nodes = { group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false } as ResourceDefinition;

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
