/**
 * The default RBAC objects a Kubernetes 1.33 cluster starts with (kube-apiserver's bootstrap
 * policy, plugin/pkg/auth/authorizer/rbac/bootstrappolicy): cluster-admin; the user-facing roles
 * admin, edit and view, built by aggregation from the system:aggregate-to-* roles (their rules
 * appear once the clusterrole-aggregation controller runs, as on a real cluster); the system:*
 * roles of the components (kube-controller-manager, kube-scheduler, kubelets, kube-proxy), the
 * certificate approvers, the basics every authenticated user is bound to; the per-loop
 * system:controller:* roles (bootstrap-rbac-controllers.ts) and the kube-system / kube-public
 * Roles (bootstrap-rbac-namespaces.ts). Plus kubesim's own: kubesim-operator (the whole
 * kubesim.io API) and the kubesim.io reads aggregated into view.
 */
import type { PolicyRule } from './api/rbac/index.js';
import { NODE_RULES } from './authz/node-rules.js';
import { CONTROLLER_ROLES } from './bootstrap-rbac-controllers.js';

/** Every bootstrap object carries this label and the autoupdate annotation, as Kubernetes'. */
const BOOTSTRAP_METADATA = {
  labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
  annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
};

export const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const ALL = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const AGGREGATE_TO = (role: 'admin' | 'edit' | 'view') => `rbac.authorization.k8s.io/aggregate-to-${role}`;

export const rule = (apiGroups: string[], resources: string[], verbs: string[]): PolicyRule => ({ apiGroups, resources, verbs });
export const named = (apiGroups: string[], resources: string[], resourceNames: string[], verbs: string[]): PolicyRule => ({
  apiGroups,
  resources,
  resourceNames,
  verbs,
});
/** The events every component records (kube's eventsRule). */
export const EVENTS_RULE = rule(['', 'events.k8s.io'], ['events'], ['create', 'patch', 'update']);
const READ_UPDATE = ['get', 'list', 'watch', 'patch', 'update'];
const CERTIFICATES = 'certificates.k8s.io';
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
      rule(
        ['extensions'],
        [
          'daemonsets',
          'deployments',
          'deployments/rollback',
          'deployments/scale',
          'ingresses',
          'networkpolicies',
          'replicasets',
          'replicasets/scale',
          'replicationcontrollers/scale',
        ],
        WRITE,
      ),
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
      rule(
        ['extensions'],
        [
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/scale',
          'deployments/status',
          'ingresses',
          'ingresses/status',
          'networkpolicies',
          'replicasets',
          'replicasets/scale',
          'replicasets/status',
          'replicationcontrollers/scale',
        ],
        READ,
      ),
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
  { name: 'system:heapster', rules: [rule([''], ['events', 'namespaces', 'nodes', 'pods'], READ), rule(['extensions'], ['deployments'], READ)] },
  { name: 'system:node', rules: [...NODE_RULES] },
  {
    name: 'system:node-problem-detector',
    rules: [rule([''], ['nodes'], ['get']), rule([''], ['nodes/status'], ['patch']), EVENTS_RULE],
  },
  {
    name: 'system:kubelet-api-admin',
    rules: [rule([''], ['nodes'], READ), rule([''], ['nodes'], ['proxy']), rule([''], ['nodes/log', 'nodes/metrics', 'nodes/proxy', 'nodes/stats'], ['*'])],
  },
  { name: 'system:node-bootstrapper', rules: [rule([CERTIFICATES], ['certificatesigningrequests'], ['create', 'get', 'list', 'watch'])] },
  { name: 'system:kube-aggregator', rules: [rule([''], ['endpoints', 'services'], READ)] },
  {
    name: 'system:kube-controller-manager',
    rules: [
      EVENTS_RULE,
      rule(['coordination.k8s.io'], ['leases'], ['create']),
      named(['coordination.k8s.io'], ['leases'], ['kube-controller-manager'], ['get', 'update']),
      rule([''], ['secrets', 'serviceaccounts'], ['create']),
      rule([''], ['secrets'], ['delete']),
      rule([''], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts'], ['get']),
      rule([''], ['secrets', 'serviceaccounts'], ['update']),
      rule(['authentication.k8s.io'], ['tokenreviews'], ['create']),
      rule(['authorization.k8s.io'], ['subjectaccessreviews'], ['create']),
      rule(['*'], ['*'], ['list', 'watch']),
      rule([''], ['serviceaccounts/token'], ['create']),
    ],
  },
  { name: 'system:kube-dns', rules: [rule([''], ['endpoints', 'services'], ['list', 'watch'])] },
  {
    name: 'system:persistent-volume-provisioner',
    rules: [
      rule([''], ['persistentvolumes'], ['create', 'delete', 'get', 'list', 'watch']),
      rule([''], ['persistentvolumeclaims'], ['get', 'list', 'update', 'watch']),
      rule(['storage.k8s.io'], ['storageclasses'], READ),
      rule([''], ['events'], ['watch']),
      EVENTS_RULE,
    ],
  },
  {
    name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient',
    rules: [rule([CERTIFICATES], ['certificatesigningrequests/nodeclient'], ['create'])],
  },
  {
    name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient',
    rules: [rule([CERTIFICATES], ['certificatesigningrequests/selfnodeclient'], ['create'])],
  },
  {
    name: 'system:volume-scheduler',
    rules: [
      rule([''], ['persistentvolumes'], READ_UPDATE),
      rule(['storage.k8s.io'], ['storageclasses'], READ),
      rule([''], ['persistentvolumeclaims'], READ_UPDATE),
    ],
  },
  ...['legacy-unknown', 'kubelet-serving', 'kube-apiserver-client', 'kube-apiserver-client-kubelet'].map((signer) => ({
    name: `system:certificates.k8s.io:${signer}-approver`,
    rules: [named([CERTIFICATES], ['signers'], [`kubernetes.io/${signer}`], ['approve'])],
  })),
  {
    name: 'system:service-account-issuer-discovery',
    rules: [urls(['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'], ['get'])],
  },
  {
    name: 'system:node-proxier',
    rules: [
      rule([''], ['endpoints', 'services'], ['list', 'watch']),
      rule([''], ['nodes'], READ),
      EVENTS_RULE,
      rule(['networking.k8s.io'], ['servicecidrs'], ['list', 'watch']),
      rule(['discovery.k8s.io'], ['endpointslices'], ['list', 'watch']),
    ],
  },
  {
    name: 'system:kube-scheduler',
    rules: [
      EVENTS_RULE,
      rule(['coordination.k8s.io'], ['leases'], ['create']),
      named(['coordination.k8s.io'], ['leases'], ['kube-scheduler'], ['get', 'update']),
      rule([''], ['nodes'], READ),
      rule([''], ['pods'], ['delete', 'get', 'list', 'watch']),
      rule([''], ['bindings', 'pods/binding'], ['create']),
      rule([''], ['pods/status'], ['patch', 'update']),
      rule([''], ['replicationcontrollers', 'services'], READ),
      rule(['apps', 'extensions'], ['replicasets'], READ),
      rule(['apps'], ['statefulsets'], READ),
      rule(['policy'], ['poddisruptionbudgets'], READ),
      rule([''], ['persistentvolumeclaims', 'persistentvolumes'], READ),
      rule(['authentication.k8s.io'], ['tokenreviews'], ['create']),
      rule(['authorization.k8s.io'], ['subjectaccessreviews'], ['create']),
      rule(['storage.k8s.io'], ['csinodes'], READ),
      rule([''], ['namespaces'], READ),
      rule(['storage.k8s.io'], ['csidrivers'], READ),
      rule(['storage.k8s.io'], ['csistoragecapacities'], READ),
    ],
  },
  // kubesim's own API (apiserver/authz/request-info.ts maps it onto kubesim.io resources).
  { name: 'kubesim-operator', rules: [rule(['kubesim.io'], ['*'], ['*'])] },
  {
    name: 'kubesim:aggregate-to-view',
    aggregateTo: 'view',
    rules: [
      rule(['kubesim.io'], ['activity', 'clock', 'components', 'faults', 'faults/injected', 'history'], ['get', 'watch']),
      // The live view's page (granted by a ClusterRoleBinding to view; its WebSocket is not yet authorized).
      urls(['/kubesim/ui', '/kubesim/ui/*'], ['get']),
    ],
  },
  // What every kubesim component (loops, scheduler, kubelets) does beyond kube's roles: report
  // its activity (PUT activity/<component>) and follow the cluster clock.
  {
    name: 'kubesim:component',
    rules: [rule(['kubesim.io'], ['activity'], ['get', 'update']), rule(['kubesim.io'], ['clock'], ['get', 'watch'])],
  },
  // kubesim's loops elect leaders on leases kubesim-<loop> (kube's roles name only
  // kube-controller-manager's); bound in kube-system only (bootstrap-rbac-namespaces.ts).
  { name: 'kubesim:leader-election', rules: [rule(['coordination.k8s.io'], ['leases'], ['create', 'get', 'update'])] },
  // The simulated kubelet names a pod's owners in its view (ReplicaSets, Deployments); a kube
  // kubelet reads neither.
  { name: 'kubesim:kubelet-owner-reader', rules: [rule(['apps'], ['deployments', 'replicasets'], READ)] },
  // Until each loop runs with its own service account (kube-controller-manager's
  // --use-service-account-credentials), every loop process shares the identity
  // system:kube-controller-manager: it holds the union of the loops' roles.
  { name: 'kubesim:controller-loops', rules: CONTROLLER_ROLES.flatMap(({ rules }) => rules) },
  ...CONTROLLER_ROLES.map(({ name, rules }) => ({ name: `system:controller:${name}`, rules })),
];

type Subject = { kind: 'Group' | 'User' | 'ServiceAccount'; name: string; namespace?: string };
const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', name }));
const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'User', name }));

/** CLUSTER_ROLE_BINDINGS: each binds the ClusterRole of the same name to these subjects. */
const CLUSTER_ROLE_BINDINGS: Array<{ name: string; subjects: Subject[] }> = [
  { name: 'cluster-admin', subjects: groups('system:masters') },
  { name: 'system:basic-user', subjects: groups('system:authenticated') },
  { name: 'system:discovery', subjects: groups('system:authenticated') },
  { name: 'system:monitoring', subjects: groups('system:monitoring') },
  { name: 'system:public-info-viewer', subjects: groups('system:authenticated', 'system:unauthenticated') },
  { name: 'system:node-proxier', subjects: users('system:kube-proxy') },
  { name: 'system:kube-controller-manager', subjects: users('system:kube-controller-manager') },
  { name: 'system:kube-dns', subjects: [{ kind: 'ServiceAccount', name: 'kube-dns', namespace: 'kube-system' }] },
  { name: 'system:kube-scheduler', subjects: users('system:kube-scheduler') },
  { name: 'system:volume-scheduler', subjects: users('system:kube-scheduler') },
  // Kept without subjects since the Node authorizer took over (kube 1.7), as kube keeps it.
  { name: 'system:node', subjects: [] },
  { name: 'system:service-account-issuer-discovery', subjects: groups('system:serviceaccounts') },
  {
    name: 'kubesim:component',
    subjects: [...groups('system:nodes', 'system:serviceaccounts:kube-system'), ...users('system:kube-controller-manager', 'system:kube-scheduler')],
  },
  { name: 'kubesim:kubelet-owner-reader', subjects: groups('system:nodes') },
  { name: 'kubesim:controller-loops', subjects: users('system:kube-controller-manager') },
  ...CONTROLLER_ROLES.map(({ name }) => ({
    name: `system:controller:${name}`,
    subjects: [{ kind: 'ServiceAccount' as const, name, namespace: 'kube-system' }],
  })),
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
  return CLUSTER_ROLE_BINDINGS.map(({ name, subjects }) => ({
    metadata: { name, labels: { ...BOOTSTRAP_METADATA.labels }, annotations: { ...BOOTSTRAP_METADATA.annotations } },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
    ...(subjects.length ? { subjects: subjects.map(subjectManifest) } : {}),
  }));
}

/** subjectManifest writes a subject as kube does: users and groups in the RBAC API group. */
export function subjectManifest(subject: Subject): Record<string, string> {
  if (subject.kind === 'ServiceAccount') return { kind: 'ServiceAccount', name: subject.name, namespace: subject.namespace ?? '' };
  return { apiGroup: 'rbac.authorization.k8s.io', kind: subject.kind, name: subject.name };
}

export { BOOTSTRAP_METADATA, type Subject };
