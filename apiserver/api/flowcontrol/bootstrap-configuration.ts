/**
 * The API Priority and Fairness configuration a 1.33 kube-apiserver creates at start: the
 * mandatory priority levels and schemas (`exempt`, `catch-all`) and the suggested ones, each
 * marked `apf.kubernetes.io/autoupdate-spec: "true"` as kube-apiserver marks the objects it
 * keeps. apiserver/bootstrap.ts creates them; nothing enforces them in kubesim.
 */

const AUTOUPDATE = { 'apf.kubernetes.io/autoupdate-spec': 'true' };

const meta = (name: string) => ({ name, annotations: { ...AUTOUPDATE } });

const queued = (name: string, shares: number, lendablePercent: number, queues: number, handSize: number) => ({
  metadata: meta(name),
  spec: {
    type: 'Limited',
    limited: { nominalConcurrencyShares: shares, lendablePercent, limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } } },
  },
});

/** BOOTSTRAP_PRIORITY_LEVELS: mandatory first, then the suggested levels. */
export const BOOTSTRAP_PRIORITY_LEVELS = [
  { metadata: meta('exempt'), spec: { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } } },
  { metadata: meta('catch-all'), spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } } },
  queued('system', 30, 33, 64, 6),
  queued('node-high', 40, 25, 64, 6),
  queued('leader-election', 10, 0, 16, 4),
  queued('workload-high', 40, 50, 128, 6),
  queued('workload-low', 100, 90, 128, 6),
  queued('global-default', 20, 50, 128, 6),
];

type Subject = Record<string, unknown>;
const group = (name: string): Subject => ({ kind: 'Group', group: { name } });
const user = (name: string): Subject => ({ kind: 'User', user: { name } });
const kubeSystemAccount = (name: string): Subject => ({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name } });

const EVERY_RESOURCE = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }];
const EVERY_URL = [{ verbs: ['*'], nonResourceURLs: ['*'] }];
const LEASES = { verbs: ['get', 'create', 'update'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] };
const EVERYONE = [group('system:unauthenticated'), group('system:authenticated')];

interface Rule {
  subjects: Subject[];
  resourceRules?: Record<string, unknown>[];
  nonResourceRules?: Record<string, unknown>[];
}

const schema = (name: string, level: string, matchingPrecedence: number, distinguisher: string | undefined, rule: Rule) => ({
  metadata: meta(name),
  spec: {
    priorityLevelConfiguration: { name: level },
    matchingPrecedence,
    ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
    rules: [rule],
  },
});

/** everything is a rule matching every request of `subjects`. */
const everything = (...subjects: Subject[]): Rule => ({ subjects, resourceRules: EVERY_RESOURCE, nonResourceRules: EVERY_URL });

/** BOOTSTRAP_FLOW_SCHEMAS: mandatory first, then the suggested schemas. */
export const BOOTSTRAP_FLOW_SCHEMAS = [
  schema('exempt', 'exempt', 1, undefined, everything(group('system:masters'))),
  schema('catch-all', 'catch-all', 10000, 'ByUser', everything(...EVERYONE)),
  schema('probes', 'exempt', 2, undefined, { subjects: EVERYONE, nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }] }),
  schema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [user('system:kube-controller-manager'), user('system:kube-scheduler'), kubeSystemAccount('*')],
    resourceRules: [LEASES],
  }),
  schema('endpoint-controller', 'workload-high', 150, 'ByUser', {
    subjects: [user('system:kube-controller-manager'), kubeSystemAccount('endpoint-controller')],
    resourceRules: [{ verbs: ['get', 'create', 'update'], apiGroups: [''], resources: ['endpoints'], namespaces: ['*'] }],
  }),
  schema('workload-leader-election', 'leader-election', 200, 'ByUser', { subjects: [kubeSystemAccount('*')], resourceRules: [LEASES] }),
  schema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: [group('system:nodes')],
    resourceRules: [
      { verbs: ['*'], apiGroups: [''], resources: ['nodes', 'nodes/status'], clusterScope: true },
      { verbs: ['*'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] },
    ],
  }),
  schema('system-nodes', 'system', 500, 'ByUser', everything(group('system:nodes'))),
  schema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', everything(user('system:kube-controller-manager'))),
  schema('kube-scheduler', 'workload-high', 800, 'ByNamespace', everything(user('system:kube-scheduler'))),
  schema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', everything(kubeSystemAccount('*'))),
  schema('service-accounts', 'workload-low', 9000, 'ByUser', everything(group('system:serviceaccounts'))),
  schema('global-default', 'global-default', 9900, 'ByUser', everything(...EVERYONE)),
];
