/**
 * The RBAC objects the authorizer reads, kept in memory and current from the store (as
 * kube-apiserver's RBAC authorizer reads its informers' caches), indexed by namespace and name.
 * No request reads the store. Like kube-apiserver's, the cache trails a write by the time its
 * watch event takes to arrive (microseconds here).
 */

import type { Store, StoredObject } from '../../store/index.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../api/rbac/index.js';
import type { RbacObjects } from './rbac-authorizer.js';
import { followResource } from './store-follower.js';

const RESOURCES = {
  roles: 'roles.rbac.authorization.k8s.io',
  roleBindings: 'rolebindings.rbac.authorization.k8s.io',
  clusterRoles: 'clusterroles.rbac.authorization.k8s.io',
  clusterRoleBindings: 'clusterrolebindings.rbac.authorization.k8s.io',
} as const;

type Kind = keyof typeof RESOURCES;

/** Objects of one kind by namespace ('' for cluster-scoped kinds), then name. */
type Index = Map<string, Map<string, StoredObject>>;

export interface RbacCache extends RbacObjects {
  stop(): void;
}

function put(index: Index, namespace: string, name: string, object: StoredObject | undefined): void {
  let names = index.get(namespace);
  if (!object) {
    names?.delete(name);
    if (names?.size === 0) index.delete(namespace);
    return;
  }
  if (!names) index.set(namespace, (names = new Map()));
  names.set(name, object);
}

export function startRbacCache(store: Store, logger?: { error(fields: object, message: string): void }): RbacCache {
  const indexes: Record<Kind, Index> = { roles: new Map(), roleBindings: new Map(), clusterRoles: new Map(), clusterRoleBindings: new Map() };
  // Counts every change to any of the four kinds: the authorizer's memo of what bindings grant
  // whom is good until it moves.
  let version = 0;
  const followers = (Object.keys(RESOURCES) as Kind[]).map((kind) =>
    followResource(store, RESOURCES[kind], {
      reset: () => {
        version++;
        indexes[kind].clear();
      },
      apply: (ref, object) => {
        version++;
        put(indexes[kind], ref.namespace, ref.name, object);
      },
      logger,
    }),
  );
  const values = <T>(kind: Kind, namespace: string) => (indexes[kind].get(namespace)?.values() ?? []) as Iterable<T>;
  return {
    clusterRoleBindings: () => values<ClusterRoleBinding>('clusterRoleBindings', ''),
    roleBindings: (namespace) => values<RoleBinding>('roleBindings', namespace),
    clusterRole: (name) => indexes.clusterRoles.get('')?.get(name) as ClusterRole | undefined,
    role: (namespace, name) => indexes.roles.get(namespace)?.get(name) as Role | undefined,
    version: () => version,
    stop: () => {
      for (const follower of followers) follower.stop();
    },
  };
}
