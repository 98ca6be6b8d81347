/**
 * The clusterrole-aggregation controller: keeps the rules of every ClusterRole that has an
 * aggregationRule equal to the union of the rules of the ClusterRoles it selects (see
 * aggregated-rules.ts). Any ClusterRole change may change any union, so every event wakes
 * every aggregated role, as in Kubernetes. Rules are written by server-side apply under the
 * controller's own field manager, so it owns `rules` and nothing else.
 */

import type { ClusterRole } from '../../apiserver/api/rbac/index.js';
import { newControllerManagedBy } from '../runtime/builder.js';
import type { Controller } from '../runtime/controller.js';
import { KINDS } from '../runtime/kinds.js';
import type { Manager } from '../runtime/manager.js';
import { keyOf } from '../runtime/reconciler.js';
import type { DeepReadonly, Lister, Reconciler, Request, ResourceClient, Result } from '../runtime/types.js';
import { aggregatedRules, rulesMatch } from './aggregated-rules.js';

/** CLUSTERROLE_AGGREGATION_CONTROLLER_NAME names the controller in logs and counters. */
export const CLUSTERROLE_AGGREGATION_CONTROLLER_NAME = 'clusterrole-aggregation';
/** The field manager of the rules it writes, Kubernetes' own name for it. */
export const CLUSTERROLE_AGGREGATION_FIELD_MANAGER = 'clusterrole-aggregation-controller';

/** AggregationReconcilerDeps are the reconciler's collaborators. */
export interface AggregationReconcilerDeps {
  roleLister: Lister<ClusterRole>;
  roles: ResourceClient<ClusterRole>;
}

/** createAggregationReconciler returns a Reconciler that writes an aggregated role's rules
 * when they differ from the union of the rules it selects. */
export function createAggregationReconciler(deps: AggregationReconcilerDeps): Reconciler {
  return { reconcile: (request) => syncClusterRole(deps, request) };
}

async function syncClusterRole({ roleLister, roles }: AggregationReconcilerDeps, request: Request): Promise<Result> {
  const role = roleLister.get('', request.name);
  if (!role) return {};
  const rules = aggregatedRules(role, roleLister.list(''));
  if (rules === undefined || rulesMatch(role, rules)) return {};
  const body = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: request.name }, rules };
  await roles.patch('', request.name, body, { type: 'apply', fieldManager: CLUSTERROLE_AGGREGATION_FIELD_MANAGER, force: true });
  return {};
}

/** registerClusterRoleAggregationController adds the controller to `manager` (one shared
 * ClusterRole informer). */
export function registerClusterRoleAggregationController(manager: Manager, { workers = 1 }: { workers?: number } = {}): Controller {
  const roleLister = manager.informer(KINDS.clusterRole).lister;
  const aggregatedKeys = () =>
    roleLister
      .list('')
      .filter(aggregates)
      .map((role) => keyOf(role));
  return newControllerManagedBy(manager)
    .named(CLUSTERROLE_AGGREGATION_CONTROLLER_NAME)
    .for(KINDS.clusterRole, { predicates: { add: aggregates, update: (_old, role) => aggregates(role), delete: () => false } })
    .watches(KINDS.clusterRole, aggregatedKeys)
    .workers(workers)
    .complete(() => createAggregationReconciler({ roleLister, roles: manager.client.resource(KINDS.clusterRole) }));
}

function aggregates(role: DeepReadonly<ClusterRole>): boolean {
  return role.aggregationRule !== undefined;
}
