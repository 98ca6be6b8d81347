/**
 * Per-loop service-account credentials, as kube-controller-manager's
 * --use-service-account-credentials: each control loop acts as its own service account in
 * kube-system (kube's names, from the bootstrap controller policy), with a token it obtains
 * through TokenRequest using the process's own credentials and renews before it expires. Under
 * RBAC each loop then holds only its system:controller:<name> role.
 */
import type { ControllerName } from '../catalog.js';
import { createKubeClient, type KubeClient, type KubeClientOptions } from './client/http-client.js';
import type { Clock } from './types.js';

/** The service account each loop runs as (kube's controller_policy.go names); none for the
 * token controller, which kube-controller-manager runs with its own credentials (it makes the
 * tokens the others would need). */
export const LOOP_SERVICE_ACCOUNTS: Record<ControllerName, string | undefined> = {
  replicaset: 'replicaset-controller',
  replicationcontroller: 'replication-controller',
  deployment: 'deployment-controller',
  daemonset: 'daemon-set-controller',
  'garbage-collector': 'generic-garbage-collector',
  namespace: 'namespace-controller',
  'node-lifecycle': 'node-controller',
  hpa: 'horizontal-pod-autoscaler',
  disruption: 'disruption-controller',
  endpointslice: 'endpointslice-controller',
  endpoints: 'endpoint-controller',
  statefulset: 'statefulset-controller',
  'persistentvolume-binder': 'persistent-volume-binder',
  job: 'job-controller',
  cronjob: 'cronjob-controller',
  resourcequota: 'resourcequota-controller',
  'ttl-after-finished': 'ttl-after-finished-controller',
  'clusterrole-aggregation': 'clusterrole-aggregation-controller',
  csrsigning: 'certificate-controller',
  'root-ca-cert-publisher': 'root-ca-cert-publisher',
  serviceaccount: 'service-account-controller',
  'serviceaccount-token': undefined,
  'pvc-protection': 'pvc-protection-controller',
  'pv-protection': 'pv-protection-controller',
};

const NAMESPACE = 'kube-system';
/** Tokens are asked for a year of cluster time and renewed once 80 % of that has passed. Not
 * kube-controller-manager's hour: the cluster clock can jump (`kubesim clock advance` of a
 * virtual clock), and a token renewed lazily would be found expired by the first request
 * after a jump of more than its lifetime. */
const TOKEN_SECONDS = 365 * 24 * 3600;
const RENEW_AT = 0.8;

interface TokenRequestAnswer {
  status?: { token?: string; expirationTimestamp?: string };
}

/**
 * loopClient returns a client for `loop` that authenticates as the loop's service account:
 * it ensures kube-system/<name> exists and requests its first token with `client` (the
 * process's credentials), then renews the token in the background when it is due.
 */
export async function loopClient(client: KubeClient, loop: ControllerName, clock: Clock, options: Omit<KubeClientOptions, 'token'>): Promise<KubeClient> {
  const name = LOOP_SERVICE_ACCOUNTS[loop];
  if (!name) throw new Error(`the ${loop} loop runs with its process's own credentials`);
  await ensureServiceAccount(client, name);
  let token = await requestToken(client, name);
  let renewAt = clock.now() + TOKEN_SECONDS * 1000 * RENEW_AT;
  let renewing: Promise<void> | undefined;
  const current = () => {
    if (clock.now() >= renewAt && !renewing) {
      // The old token stays valid for the rest of its lifetime while the new one is fetched.
      renewing = requestToken(client, name)
        .then((fresh) => {
          token = fresh;
          renewAt = clock.now() + TOKEN_SECONDS * 1000 * RENEW_AT;
        })
        .catch((err: unknown) => options.logger?.error({ err, loop }, 'renewing the loop token failed; retrying on the next request'))
        .finally(() => (renewing = undefined));
    }
    return token;
  };
  return createKubeClient({ ...options, token: current });
}

async function ensureServiceAccount(client: KubeClient, name: string): Promise<void> {
  const path = `/api/v1/namespaces/${NAMESPACE}/serviceaccounts`;
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: NAMESPACE } });
  try {
    await client.raw({ method: 'POST', path, body, contentType: 'application/json' });
  } catch (err) {
    if ((err as { code?: number }).code !== 409) throw err;
  }
}

async function requestToken(client: KubeClient, name: string): Promise<string> {
  const path = `/api/v1/namespaces/${NAMESPACE}/serviceaccounts/${name}/token`;
  const body = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: TOKEN_SECONDS } });
  const answer = (await client.raw({ method: 'POST', path, body, contentType: 'application/json' })) as TokenRequestAnswer;
  const token = answer.status?.token;
  if (!token) throw new Error(`TokenRequest for ${NAMESPACE}/${name} returned no token`);
  return token;
}
