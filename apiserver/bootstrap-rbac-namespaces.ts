/**
 * The Roles and RoleBindings kube-apiserver 1.33 bootstraps in kube-system and kube-public
 * (kube's bootstrappolicy/namespace_policy.go): leader locking for the controller manager and
 * the scheduler, the authentication configmap reader, and the bootstrap-signer, cloud-provider
 * and token-cleaner controllers' namespaced powers.
 */
import type { PolicyRule } from './api/rbac/index.js';
import { BOOTSTRAP_METADATA, EVENTS_RULE, named, READ, rule, type Subject, subjectManifest } from './bootstrap-rbac.js';

interface NamespacedRole {
  namespace: string;
  name: string;
  rules: PolicyRule[];
}

interface NamespacedBinding {
  namespace: string;
  name: string;
  role: string;
  subjects: Subject[];
}

const sa = (name: string): Subject => ({ kind: 'ServiceAccount', name, namespace: 'kube-system' });
const user = (name: string): Subject => ({ kind: 'User', name });

const leaderLocking = (component: string): PolicyRule[] => [rule([''], ['configmaps'], ['watch']), named([''], ['configmaps'], [component], ['get', 'update'])];

const ROLES: NamespacedRole[] = [
  {
    namespace: 'kube-system',
    name: 'extension-apiserver-authentication-reader',
    rules: [named([''], ['configmaps'], ['extension-apiserver-authentication'], READ)],
  },
  { namespace: 'kube-system', name: 'system::leader-locking-kube-controller-manager', rules: leaderLocking('kube-controller-manager') },
  { namespace: 'kube-system', name: 'system::leader-locking-kube-scheduler', rules: leaderLocking('kube-scheduler') },
  { namespace: 'kube-system', name: 'system:controller:bootstrap-signer', rules: [rule([''], ['secrets'], READ)] },
  { namespace: 'kube-system', name: 'system:controller:cloud-provider', rules: [rule([''], ['configmaps'], ['create', 'get', 'list', 'watch'])] },
  { namespace: 'kube-system', name: 'system:controller:token-cleaner', rules: [rule([''], ['secrets'], ['delete', 'get', 'list', 'watch']), EVENTS_RULE] },
  {
    namespace: 'kube-public',
    name: 'system:controller:bootstrap-signer',
    rules: [rule([''], ['configmaps'], READ), named([''], ['configmaps'], ['cluster-info'], ['update']), EVENTS_RULE],
  },
];

const BINDINGS: NamespacedBinding[] = [
  {
    namespace: 'kube-system',
    name: 'system::extension-apiserver-authentication-reader',
    role: 'extension-apiserver-authentication-reader',
    subjects: [user('system:kube-controller-manager'), user('system:kube-scheduler')],
  },
  {
    namespace: 'kube-system',
    name: 'system::leader-locking-kube-controller-manager',
    role: 'system::leader-locking-kube-controller-manager',
    subjects: [sa('kube-controller-manager'), user('system:kube-controller-manager')],
  },
  {
    namespace: 'kube-system',
    name: 'system::leader-locking-kube-scheduler',
    role: 'system::leader-locking-kube-scheduler',
    subjects: [sa('kube-scheduler'), user('system:kube-scheduler')],
  },
  { namespace: 'kube-system', name: 'system:controller:bootstrap-signer', role: 'system:controller:bootstrap-signer', subjects: [sa('bootstrap-signer')] },
  { namespace: 'kube-system', name: 'system:controller:cloud-provider', role: 'system:controller:cloud-provider', subjects: [sa('cloud-provider')] },
  { namespace: 'kube-system', name: 'system:controller:token-cleaner', role: 'system:controller:token-cleaner', subjects: [sa('token-cleaner')] },
  { namespace: 'kube-public', name: 'system:controller:bootstrap-signer', role: 'system:controller:bootstrap-signer', subjects: [sa('bootstrap-signer')] },
];

/** kubesim's own: its loops' and scheduler's leader-election leases, in kube-system only. */
const CLUSTER_ROLE_BINDINGS_IN_NAMESPACES: NamespacedBinding[] = [
  {
    namespace: 'kube-system',
    name: 'kubesim:leader-election',
    role: 'kubesim:leader-election',
    subjects: [user('system:kube-controller-manager'), user('system:kube-scheduler'), { kind: 'Group', name: 'system:serviceaccounts:kube-system' }],
  },
];

const metadata = (namespace: string, name: string) => ({
  name,
  namespace,
  labels: { ...BOOTSTRAP_METADATA.labels },
  annotations: { ...BOOTSTRAP_METADATA.annotations },
});

/** bootstrapRoles: the namespaced Roles' bodies, each with its namespace. */
export function bootstrapRoles() {
  return ROLES.map(({ namespace, name, rules }) => ({ namespace, body: { metadata: metadata(namespace, name), rules } }));
}

/** bootstrapRoleBindings: the namespaced RoleBindings' bodies, each with its namespace. */
export function bootstrapRoleBindings() {
  const manifest =
    (kind: 'Role' | 'ClusterRole') =>
    ({ namespace, name, role, subjects }: NamespacedBinding) => ({
      namespace,
      body: {
        metadata: metadata(namespace, name),
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: role },
        subjects: subjects.map(subjectManifest),
      },
    });
  return [...BINDINGS.map(manifest('Role')), ...CLUSTER_ROLE_BINDINGS_IN_NAMESPACES.map(manifest('ClusterRole'))];
}
