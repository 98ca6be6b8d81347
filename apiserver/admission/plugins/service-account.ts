/**
 * ServiceAccount, as kube-apiserver's plugin (plugin/pkg/admission/serviceaccount), on pod
 * creation: a pod naming no account runs as `default`; the account must exist (kube looks the
 * `default` one up for a moment longer, since the service-account controller makes it right
 * after the namespace); its image pull secrets are copied to a pod that has none; and unless
 * the pod or the account sets automountServiceAccountToken false, every container and init
 * container mounts a projected `kube-api-access-<5 chars>` volume (a bound token, the
 * kube-root-ca.crt ConfigMap's ca.crt, the namespace) at /var/run/secrets/kubernetes.io/serviceaccount.
 * An account annotated kubernetes.io/enforce-mountable-secrets=true limits its pods to the
 * Secrets it lists. Mirror pods are never changed, and may name no account and no Secret.
 *
 * `requireExisting: false` is for servers with no service-account controller (a bare test
 * server): a pod whose account does not exist is then admitted as it is, with no token volume.
 */
import type { Container } from '../../api/core/container.js';
import type { Pod } from '../../api/core/pod.js';
import type { ServiceAccount } from '../../api/core/service-account.js';
import type { Volume } from '../../api/core/volume.js';
import type { RegistryContext } from '../../registry/context.js';
import { generateNameSuffix } from '../../registry/metadata.js';
import { type MaybePromise, perWrite } from '../chain.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../plugin.js';
import { enforcesMountableSecrets, referencesSecrets, secretReferenceProblem } from './service-account-secrets.js';

export const DEFAULT_SERVICE_ACCOUNT = 'default';
export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const TOKEN_VOLUME_PREFIX = 'kube-api-access-';
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
/** kube's WarnOnlyBoundTokenExpirationSeconds: an hour and 7 s, so a token past its hour is told apart. */
const TOKEN_EXPIRATION_SECONDS = 3607;
/** How long a missing `default` account is waited for: kube tries 10 times, 100–200 ms apart. */
const DEFAULT_ACCOUNT_WAIT_MS = 1500;
const DEFAULT_ACCOUNT_POLL_MS = 10;

export interface ServiceAccountAdmissionOptions {
  /** Refuse a pod whose service account does not exist (kube-apiserver always does). */
  requireExisting: boolean;
}

export function createServiceAccountAdmission({ requireExisting }: ServiceAccountAdmissionOptions): AdmissionPlugin {
  /** lookUp: the account, read once per write and name; undefined when missing and not required. */
  const lookUp = (ctx: RegistryContext, attributes: AdmissionAttributes, name: string): MaybePromise<ServiceAccount | undefined> =>
    perWrite(attributes, `serviceaccount/${name}`, () => {
      const found = readAccount(ctx, attributes.namespace, name);
      if (found || !requireExisting) return found;
      const missing = () =>
        admissionForbidden(attributes, `error looking up service account ${attributes.namespace}/${name}: serviceaccount "${name}" not found`);
      if (name !== DEFAULT_SERVICE_ACCOUNT) throw missing();
      return awaitAccount(ctx, attributes.namespace, name).then((account) => account ?? Promise.reject(missing()));
    });

  const validate = (ctx: RegistryContext, attributes: AdmissionAttributes): MaybePromise<void> => {
    const pod = attributes.object as unknown as Pod;
    if (isMirrorPod(pod)) return validateMirrorPod(attributes, pod);
    const name = pod.spec.serviceAccountName;
    if (!name) throw admissionForbidden(attributes, `no service account specified for pod ${attributes.namespace}/${pod.metadata.name ?? ''}`);
    return then(lookUp(ctx, attributes, name), (account) => {
      const problem = account && enforcesMountableSecrets(account) ? secretReferenceProblem(account, pod.spec) : undefined;
      if (problem) throw admissionForbidden(attributes, problem);
    });
  };

  return {
    name: 'ServiceAccount',
    handles: (operation, def, subresource) => operation === 'CREATE' && subresource === '' && def.storage.resource === 'pods',
    admit(ctx, attributes) {
      const pod = attributes.object as unknown as Pod;
      if (!pod.spec) return;
      if (isMirrorPod(pod)) return validate(ctx, attributes);
      pod.spec.serviceAccountName ||= DEFAULT_SERVICE_ACCOUNT;
      pod.spec.serviceAccount = pod.spec.serviceAccountName;
      return then(lookUp(ctx, attributes, pod.spec.serviceAccountName), (account) => {
        if (!account) return;
        if (pod.spec.automountServiceAccountToken ?? account.automountServiceAccountToken ?? true) mountToken(ctx, pod);
        if ((pod.spec.imagePullSecrets ?? []).length === 0 && (account.imagePullSecrets ?? []).length > 0) {
          pod.spec.imagePullSecrets = account.imagePullSecrets!.map((ref) => ({ name: ref.name }));
        }
        return validate(ctx, attributes);
      });
    },
    validate(ctx, attributes) {
      if ((attributes.object as unknown as Pod).spec) return validate(ctx, attributes);
    },
  };
}

function then<T>(value: MaybePromise<T>, next: (value: T) => MaybePromise<void>): MaybePromise<void> {
  return value instanceof Promise ? value.then(next) : next(value);
}

function readAccount(ctx: RegistryContext, namespace: string, name: string): ServiceAccount | undefined {
  try {
    return ctx.store.get({ resource: 'serviceaccounts', namespace, name }) as unknown as ServiceAccount;
  } catch {
    return undefined;
  }
}

/** awaitAccount polls the store for an account the controller is about to make (wall time:
 * the controller reacts to the namespace at once, whatever the cluster clock does). */
async function awaitAccount(ctx: RegistryContext, namespace: string, name: string): Promise<ServiceAccount | undefined> {
  const deadline = Date.now() + DEFAULT_ACCOUNT_WAIT_MS;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, DEFAULT_ACCOUNT_POLL_MS));
    const account = readAccount(ctx, namespace, name);
    if (account) return account;
  }
  return undefined;
}

function isMirrorPod(pod: Pod): boolean {
  return pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined;
}

function validateMirrorPod(attributes: AdmissionAttributes, pod: Pod): void {
  if (pod.spec.serviceAccountName) throw admissionForbidden(attributes, 'a mirror pod may not reference service accounts');
  if (referencesSecrets(pod.spec)) throw admissionForbidden(attributes, 'a mirror pod may not reference secrets');
  const sources = (pod.spec.volumes ?? []).flatMap((volume) => (volume.projected?.['sources'] as Array<Record<string, unknown>>) ?? []);
  if (sources.some((source) => source['serviceAccountToken'] !== undefined)) {
    throw admissionForbidden(attributes, 'a mirror pod may not use ServiceAccountToken volume projections');
  }
}

/** mountToken mounts the token volume (an existing kube-api-access-* one, else a new one) in
 * every container and init container that has nothing mounted at the token path yet. */
function mountToken(ctx: RegistryContext, pod: Pod): void {
  const spec = pod.spec;
  const existing = (spec.volumes ?? []).find((volume) => volume.name.startsWith(TOKEN_VOLUME_PREFIX));
  const volumeName = existing?.name ?? `${TOKEN_VOLUME_PREFIX}${generateNameSuffix(ctx.random.serviceAccountVolume)}`;
  let mounted = false;
  for (const container of [...(spec.initContainers ?? []), ...spec.containers] as Container[]) {
    if ((container.volumeMounts ?? []).some((mount) => mount.mountPath === TOKEN_MOUNT_PATH)) continue;
    container.volumeMounts = [...(container.volumeMounts ?? []), { name: volumeName, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
    mounted = true;
  }
  if (mounted && !existing) spec.volumes = [...(spec.volumes ?? []), tokenVolume(volumeName)];
}

/** tokenVolume is kube's TokenVolumeSource under `name`. */
function tokenVolume(name: string): Volume {
  return {
    name,
    projected: {
      defaultMode: 0o644,
      sources: [
        { serviceAccountToken: { expirationSeconds: TOKEN_EXPIRATION_SECONDS, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    },
  };
}
