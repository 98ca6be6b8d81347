/** The user names and groups service accounts authenticate as (kube's serviceaccount package). */

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/** serviceAccountUsername is the name a service account's token authenticates as. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_PREFIX}${namespace}:${name}`;
}

/** The groups kube-apiserver gives every service account of a namespace. */
export function serviceAccountGroups(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'];
}
