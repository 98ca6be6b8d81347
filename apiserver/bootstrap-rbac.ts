/**
 * The default RBAC objects a Kubernetes cluster starts with (kube-apiserver's bootstrap
 * policy), limited to what kubectl users reach for: cluster-admin; the user-facing roles
 * admin, edit and view, built by aggregation from the system:aggregate-to-* roles (their
 * rules appear once the clusterrole-aggregation controller runs, as on a real cluster); and
 * the system:* basics every authenticated user is bound to. kube-apiserver's per-controller
 * system:controller:* roles are left out: nothing here reads them until RBAC is enforced.
 */
import type { PolicyRule } from './api/rbac/index.js';

/** Every bootstrap object carries this label and the autoupdate annotation, as Kubernetes'. */
const BOOTSTRAP_METADATA = {
  labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
  annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
};

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const ALL = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const AGGREGATE_TO = (role: 'admin' | 'edit' | 'view') => `rbac.authorization.k8s.io/aggregate-to-${role}`;

const rule = (apiGroups: string[], resources: string[], verbs: string[]): PolicyRule => ({ apiGroups, resources, verbs });
const urls = (nonResourceURLs: string[], verbs: string[]): PolicyRule => ({ nonResourceURLs, verbs });

interface BootstrapClusterRole {
  name: string;
  aggregateTo?: 'admin' | 'edit' | 'view';
  aggregates?: 'admin' | 'edit' | 'view';
  rules?: PolicyRule[];
}

const CLUSTER_ROLES: BootstrapClusterRole[] = [
  { name: 'cluster-admin', rules: [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])] },
  { name: 'admin', aggregates: 'admin' },
  { name: 'edit', aggregates: 'edit', aggregateTo: 'admin' },
  { name: 'view', aggregates: 'view', aggregateTo: 'edit' },
  {
    name: 'system:aggregate-to-admin',
    aggregateTo: 'admin',
    rules: [rule(['authorization.k8s.io'], ['localsubjectaccessreviews'], ['create']), rule(['rbac.authorization.k8s.io'], ['rolebindings', 'roles'], ALL)],
  },
  {
    name: 'system:aggregate-to-edit',
    aggregateTo: 'edit',
    rules: [
      rule([''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'], READ),
      rule([''], ['serviceaccounts'], ['impersonate']),
      rule([''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy'], WRITE),
      rule([''], ['pods/eviction'], ['create']),
      rule(
        [''],
        [
          'configmaps',
          'events',
          'persistentvolumeclaims',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'secrets',
          'serviceaccounts',
          'services',
          'services/proxy',
        ],
        WRITE,
      ),
      rule([''], ['serviceaccounts/token'], ['create']),
      rule(
        ['apps'],
        ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale'],
        WRITE,
      ),
      rule(['autoscaling'], ['horizontalpodautoscalers'], WRITE),
      rule(['batch'], ['cronjobs', 'jobs'], WRITE),
      rule(['policy'], ['poddisruptionbudgets'], WRITE),
      rule(['networking.k8s.io'], ['ingresses', 'networkpolicies'], WRITE),
      rule(['coordination.k8s.io'], ['leases'], ALL),
    ],
  },
  {
    name: 'system:aggregate-to-view',
    aggregateTo: 'view',
    rules: [
      rule(
        [''],
        [
          'configmaps',
          'endpoints',
          'persistentvolumeclaims',
          'persistentvolumeclaims/status',
          'pods',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'serviceaccounts',
          'services',
          'services/status',
        ],
        READ,
      ),
      rule(
        [''],
        [
          'bindings',
          'events',
          'limitranges',
          'namespaces/status',
          'pods/log',
          'pods/status',
          'replicationcontrollers/status',
          'resourcequotas',
          'resourcequotas/status',
        ],
        READ,
      ),
      rule([''], ['namespaces'], READ),
      rule(['discovery.k8s.io'], ['endpointslices'], READ),
      rule(
        ['apps'],
        [
          'controllerrevisions',
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/scale',
          'deployments/status',
          'replicasets',
          'replicasets/scale',
          'replicasets/status',
          'statefulsets',
          'statefulsets/scale',
          'statefulsets/status',
        ],
        READ,
      ),
      rule(['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status'], READ),
      rule(['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status'], READ),
      rule(['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status'], READ),
      rule(['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies'], READ),
    ],
  },
  {
    name: 'system:auth-delegator',
    rules: [rule(['authentication.k8s.io'], ['tokenreviews'], ['create']), rule(['authorization.k8s.io'], ['subjectaccessreviews'], ['create'])],
  },
  {
    name: 'system:basic-user',
    rules: [
      rule(['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], ['create']),
      rule(['authentication.k8s.io'], ['selfsubjectreviews'], ['create']),
    ],
  },
  {
    name: 'system:discovery',
    rules: [urls(['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'], ['get'])],
  },
  {
    name: 'system:monitoring',
    rules: [urls(['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'], ['get'])],
  },
  { name: 'system:public-info-viewer', rules: [urls(['/healthz', '/livez', '/readyz', '/version', '/version/'], ['get'])] },
];

/** CLUSTER_ROLE_BINDINGS: each binds the ClusterRole of the same name to these groups. */
const CLUSTER_ROLE_BINDINGS: Array<{ name: string; groups: string[] }> = [
  { name: 'cluster-admin', groups: ['system:masters'] },
  { name: 'system:basic-user', groups: ['system:authenticated'] },
  { name: 'system:discovery', groups: ['system:authenticated'] },
  { name: 'system:monitoring', groups: ['system:monitoring'] },
  { name: 'system:public-info-viewer', groups: ['system:authenticated', 'system:unauthenticated'] },
];

/** Manifest is a bootstrap object body without apiVersion/kind. */
interface Manifest {
  metadata: { name: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** bootstrapClusterRoles: the default ClusterRoles' bodies. */
export function bootstrapClusterRoles(): Manifest[] {
  return CLUSTER_ROLES.map(({ name, aggregateTo, aggregates, rules }) => ({
    metadata: {
      name,
      labels: { ...BOOTSTRAP_METADATA.labels, ...(aggregateTo ? { [AGGREGATE_TO(aggregateTo)]: 'true' } : {}) },
      annotations: { ...BOOTSTRAP_METADATA.annotations },
    },
    ...(aggregates ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [AGGREGATE_TO(aggregates)]: 'true' } }] } } : {}),
    ...(rules ? { rules } : {}),
  }));
}

/** bootstrapClusterRoleBindings: the default ClusterRoleBindings' bodies. */
export function bootstrapClusterRoleBindings(): Manifest[] {
  return CLUSTER_ROLE_BINDINGS.map(({ name, groups }) => ({
    metadata: { name, labels: { ...BOOTSTRAP_METADATA.labels }, annotations: { ...BOOTSTRAP_METADATA.annotations } },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
    subjects: groups.map((group) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: group })),
  }));
}
