/**
 * The clusterrole-aggregation controller as a real process (`kubesim controller
 * clusterrole-aggregation`) against a running API server: the default admin, edit and view
 * roles gain the rules of the system:aggregate-to-* roles, a new labelled ClusterRole joins
 * every role that selects it, and relabelling or deleting a source takes its rules back out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClusterRole, clusterRoleDefinition, type PolicyRule } from '../../apiserver/api/rbac/index.js';
import { eventually } from '../support/eventually.js';
import { spawnKubesim, stopAllKubesim } from '../support/processes.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const clusterRole = (name: string, labels: Record<string, string>, rules: PolicyRule[], selectors?: Record<string, string>[]): ClusterRole => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name, labels },
  rules,
  ...(selectors ? { aggregationRule: { clusterRoleSelectors: selectors.map((matchLabels) => ({ matchLabels })) } } : {}),
});

const crontabs: PolicyRule = { apiGroups: ['stable.example.com'], resources: ['crontabs'], verbs: ['get', 'list', 'watch'] };
const widgets: PolicyRule = { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] };

describe('clusterrole-aggregation controller process', () => {
  const cluster = useTestCluster({ lifetime: 'file', userAgent: 'aggregation-test' });
  const roles = () => cluster.client.resource(clusterRoleDefinition);
  const rulesOf = async (name: string) => (await roles().get('', name)).rules ?? [];

  beforeAll(() => {
    spawnKubesim(['controller', 'clusterrole-aggregation', '--kubeconfig', cluster.kubeconfigPath, '--log-level', 'warn']);
  });
  afterAll(async () => {
    await stopAllKubesim();
  });

  it('fills admin, edit and view from the system:aggregate-to-* roles, view ⊂ edit ⊂ admin', async () => {
    // view gathers kubesim's kubesim.io reads too (kubesim:aggregate-to-view sorts first).
    const viewSource = [...(await rulesOf('kubesim:aggregate-to-view')), ...(await rulesOf('system:aggregate-to-view'))];
    const editSource = await rulesOf('system:aggregate-to-edit');
    await eventually(async () => expect(await rulesOf('view')).toEqual(viewSource));
    await eventually(async () => expect(await rulesOf('edit')).toEqual([...editSource, ...viewSource]));
    await eventually(async () => {
      const admin = await rulesOf('admin');
      expect(admin).toEqual(expect.arrayContaining([...editSource, ...viewSource, ...(await rulesOf('system:aggregate-to-admin'))]));
    });
    const view = await roles().get('', 'view');
    expect(view.metadata.managedFields?.map((entry) => [entry.manager, entry.operation])).toContainEqual(['clusterrole-aggregation-controller', 'Apply']);
  });

  it('adds a labelled role to every role selecting it, and removes it when relabelled or deleted', async () => {
    await roles().create(clusterRole('crontab-reader', { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' }, [crontabs]));
    for (const name of ['view', 'edit', 'admin']) await eventually(async () => expect(await rulesOf(name)).toContainEqual(crontabs));

    await roles().create(clusterRole('widgets-all', {}, [], [{ 'example.com/widgets': 'true' }, { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' }]));
    await roles().create(clusterRole('widget-reader', { 'example.com/widgets': 'true' }, [widgets, crontabs]));
    // Selectors in order, roles by name within each, each rule once.
    await eventually(async () => expect((await rulesOf('widgets-all')).slice(0, 2)).toEqual([widgets, crontabs]));

    await roles().patch('', 'crontab-reader', { metadata: { labels: { 'rbac.authorization.k8s.io/aggregate-to-view': null } } }, { type: 'merge' });
    await eventually(async () => expect(await rulesOf('admin')).not.toContainEqual(crontabs));
    expect(await rulesOf('widgets-all')).toContainEqual(crontabs); // still from widget-reader
    await roles().delete('', 'widget-reader');
    await eventually(async () => expect(await rulesOf('widgets-all')).toEqual(await rulesOf('view')));
  });
});
