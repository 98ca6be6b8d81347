/**
 * The Secret types Kubernetes gives meaning to, their keys, and what validation requires of
 * each (kube-apiserver's ValidateSecret: a service-account token Secret names its account; the
 * others carry their keys). Their contents are not parsed: a malformed .dockerconfigjson is
 * accepted here, where kube-apiserver refuses it with Go's JSON error.
 */
import type { FieldError } from '../resource-definition.js';
import { required } from '../validation.js';

/** A Secret holding a service account's long-lived (legacy) token, filled by the token controller. */
export const SERVICE_ACCOUNT_TOKEN_TYPE = 'kubernetes.io/service-account-token';
export const SERVICE_ACCOUNT_NAME_ANNOTATION = 'kubernetes.io/service-account.name';
export const SERVICE_ACCOUNT_UID_ANNOTATION = 'kubernetes.io/service-account.uid';
/** The keys the token controller writes into such a Secret. */
export const TOKEN_SECRET_KEYS = { token: 'token', caCert: 'ca.crt', namespace: 'namespace' } as const;

/** The keys each other type must carry. */
const REQUIRED_KEYS: Record<string, readonly string[]> = {
  'kubernetes.io/dockercfg': ['.dockercfg'],
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
};

interface TypedSecret {
  type?: string;
  metadata: { annotations?: Record<string, string> };
  data?: Record<string, string>;
}

/** validateSecretType returns what the Secret's type requires and it lacks, in kube's words. */
export function validateSecretType(secret: TypedSecret): FieldError[] {
  const data = secret.data ?? {};
  const missing = (keys: readonly string[]) => keys.filter((key) => !(key in data)).map((key) => required(`data[${key}]`));
  switch (secret.type) {
    case SERVICE_ACCOUNT_TOKEN_TYPE:
      // Only the account's name: the uid and the token come later, from the token controller.
      return secret.metadata.annotations?.[SERVICE_ACCOUNT_NAME_ANNOTATION] ? [] : [required(`metadata.annotations[${SERVICE_ACCOUNT_NAME_ANNOTATION}]`)];
    case 'kubernetes.io/basic-auth':
      // Either may be empty, but one of the two must be there.
      return 'username' in data || 'password' in data ? [] : missing(['username', 'password']);
    case 'kubernetes.io/ssh-auth':
      return data['ssh-privatekey'] ? [] : [required('data[ssh-privatekey]')];
    default:
      return missing(REQUIRED_KEYS[secret.type ?? ''] ?? []);
  }
}
