/**
 * The service-account token controller (kube-controller-manager's serviceaccount-token): fills
 * every Secret of type kubernetes.io/service-account-token with a long-lived token of the
 * ServiceAccount it names (annotation kubernetes.io/service-account.name), the cluster CA and
 * the namespace, and records the account's uid beside its name. A token Secret whose account
 * does not exist — or is another account of the same name now (the uid differs) — is deleted,
 * as are an account's token Secrets when the account goes. The token is signed with the
 * service-account key (--service-account-private-key-file), so only the API server that holds
 * the same key accepts it (apiserver/authn/legacy-token.ts).
 *
 * Like kube, the controller fills only what is missing: a Secret that already carries a token
 * keeps it, and the CA is rewritten only when it differs.
 */
import { readFileSync } from 'node:fs';
import { isConflict, isNotFound } from '../../apiserver/api/api-error.js';
import { legacyTokenClaims } from '../../apiserver/api/authentication/legacy-token-claims.js';
import { createTokenSigner, type TokenSigner } from '../../apiserver/api/authentication/service-account-token.js';
import { type Secret, secretDefinition } from '../../apiserver/api/core/secret.js';
import {
  SERVICE_ACCOUNT_NAME_ANNOTATION,
  SERVICE_ACCOUNT_TOKEN_TYPE,
  SERVICE_ACCOUNT_UID_ANNOTATION,
  TOKEN_SECRET_KEYS,
} from '../../apiserver/api/core/secret-types.js';
import { type ServiceAccount, serviceAccountDefinition } from '../../apiserver/api/core/service-account.js';
import { newControllerManagedBy } from '../runtime/builder.js';
import type { Controller } from '../runtime/controller.js';
import type { Manager } from '../runtime/manager.js';
import { requestKey } from '../runtime/reconciler.js';
import type { DeepReadonly, Lister, Reconciler, ResourceClient } from '../runtime/types.js';

/** TOKENS_CONTROLLER_NAME names the controller in logs and counters (kube's --controllers name). */
export const TOKENS_CONTROLLER_NAME = 'serviceaccount-token';

export interface TokensReconcilerDeps {
  secretLister: Lister<Secret>;
  accountLister: Lister<ServiceAccount>;
  secrets: Pick<ResourceClient<Secret>, 'update' | 'delete'>;
  /** Reads an account the cache has not seen yet (created a moment before its Secret). */
  accounts: Pick<ResourceClient<ServiceAccount>, 'get'>;
  signer(): TokenSigner;
  /** The cluster CA certificate (PEM) to put in ca.crt, when the process was given it. */
  caCertificate?(): string;
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** createTokensReconciler returns the Reconciler of one token Secret (keyed namespace/name). */
export function createTokensReconciler(deps: TokensReconcilerDeps): Reconciler {
  return {
    reconcile: async ({ namespace, name }) => {
      const secret = deps.secretLister.get(namespace, name);
      if (!secret || secret.type !== SERVICE_ACCOUNT_TOKEN_TYPE || secret.metadata.deletionTimestamp) return {};
      const annotations = secret.metadata.annotations ?? {};
      const account = await accountOf(deps, namespace, annotations[SERVICE_ACCOUNT_NAME_ANNOTATION] ?? '');
      const wantedUid = annotations[SERVICE_ACCOUNT_UID_ANNOTATION];
      if (!account || (wantedUid && account.metadata.uid !== wantedUid)) {
        await deleteSecret(deps, secret);
        return {};
      }
      const filled = filledSecret(deps, secret, account);
      if (filled) await deps.secrets.update(filled);
      return {};
    },
  };
}

async function accountOf(deps: TokensReconcilerDeps, namespace: string, name: string): Promise<DeepReadonly<ServiceAccount> | undefined> {
  if (!name) return undefined;
  const cached = deps.accountLister.get(namespace, name);
  if (cached) return cached;
  try {
    return await deps.accounts.get(namespace, name);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** deleteSecret deletes this very Secret (its uid as a precondition): one made again under the
 * same name since is not touched. */
async function deleteSecret(deps: TokensReconcilerDeps, secret: DeepReadonly<Secret>): Promise<void> {
  try {
    await deps.secrets.delete(secret.metadata.namespace ?? '', secret.metadata.name ?? '', { preconditions: { uid: secret.metadata.uid } });
  } catch (err) {
    // Gone already, or a new Secret of that name (the uid precondition failed).
    if (!isNotFound(err) && !isConflict(err)) throw err;
  }
}

/** filledSecret is the Secret with what it lacks (token, ca.crt, namespace, the account's
 * annotations), or undefined when it lacks nothing. */
function filledSecret(deps: TokensReconcilerDeps, secret: DeepReadonly<Secret>, account: DeepReadonly<ServiceAccount>): Secret | undefined {
  const data = secret.data ?? {};
  const namespace = secret.metadata.namespace ?? '';
  const ca = deps.caCertificate?.();
  const needsCa = ca !== undefined && data[TOKEN_SECRET_KEYS.caCert] !== base64(ca);
  const needsNamespace = !data[TOKEN_SECRET_KEYS.namespace];
  const needsToken = !data[TOKEN_SECRET_KEYS.token];
  if (!needsCa && !needsNamespace && !needsToken) return undefined;
  const filled = structuredClone(secret) as Secret;
  const filledData = (filled.data ??= {});
  if (needsCa) filledData[TOKEN_SECRET_KEYS.caCert] = base64(ca);
  if (needsNamespace) filledData[TOKEN_SECRET_KEYS.namespace] = base64(namespace);
  if (needsToken) {
    const owner = { namespace, name: account.metadata.name ?? '', uid: account.metadata.uid ?? '' };
    filledData[TOKEN_SECRET_KEYS.token] = base64(deps.signer().sign(legacyTokenClaims(owner, secret.metadata.name ?? '')));
  }
  filled.metadata.annotations = {
    ...filled.metadata.annotations,
    [SERVICE_ACCOUNT_NAME_ANNOTATION]: account.metadata.name ?? '',
    [SERVICE_ACCOUNT_UID_ANNOTATION]: account.metadata.uid ?? '',
  };
  return filled;
}

/** registerTokensController: a token Secret wakes itself; a ServiceAccount's change or
 * deletion wakes the token Secrets that name it. Without the signing key the loop has nothing
 * to sign with and says so. */
export function registerTokensController(manager: Manager, { workers = 1 }: { workers?: number } = {}): Controller | undefined {
  const keyFile = manager.serviceAccountKeyFile;
  if (!keyFile) {
    manager.logger.warn({}, 'no service-account key given (--service-account-private-key-file): token Secrets are not filled');
    return undefined;
  }
  const tokenSecrets = { fieldSelector: `type=${SERVICE_ACCOUNT_TOKEN_TYPE}` };
  const secretLister = manager.informer(secretDefinition, tokenSecrets).lister;
  const accountLister = manager.informer(serviceAccountDefinition).lister;
  const secretsNaming = (account: DeepReadonly<ServiceAccount>) =>
    secretLister
      .list(account.metadata.namespace ?? '')
      .filter((secret) => secret.metadata.annotations?.[SERVICE_ACCOUNT_NAME_ANNOTATION] === account.metadata.name)
      .map((secret) => requestKey({ namespace: secret.metadata.namespace ?? '', name: secret.metadata.name ?? '' }));
  let signer: TokenSigner | undefined;
  let caPem: string | undefined;
  const caFile = manager.clusterCa?.certFile;
  return newControllerManagedBy(manager)
    .named(TOKENS_CONTROLLER_NAME)
    .for(secretDefinition, { informer: tokenSecrets })
    .watches(serviceAccountDefinition, secretsNaming)
    .workers(workers)
    .complete(() =>
      createTokensReconciler({
        secretLister,
        accountLister,
        secrets: manager.client.resource(secretDefinition),
        accounts: manager.client.resource(serviceAccountDefinition),
        // Read on first use: `kubesim up` starts the loops while the API server makes the key.
        signer: () => (signer ??= createTokenSigner(readFileSync(keyFile, 'utf8'))),
        caCertificate: caFile ? () => (caPem ??= readFileSync(caFile, 'utf8')) : undefined,
      }),
    );
}
