/**
 * isAuthorizedForSignerName is kube's certauthorization.IsAuthorizedForSignerName: may `user`
 * `verb` (approve, sign) the signer — by its name, or by its domain's wildcard
 * (`kubernetes.io/*`)? Asked of the server's authorizer as a request on the certificates.k8s.io
 * `signers` resource, which RBAC rules grant with resourceNames.
 */
import type { Authorizer, UserInfo } from '../../api/authorization/authorizer-types.js';

export function isAuthorizedForSignerName(authorizer: Authorizer, user: UserInfo, verb: string, signerName: string): boolean {
  const allows = (name: string) => authorizer.authorize({ user, verb, apiGroup: 'certificates.k8s.io', resource: 'signers', name }).decision === 'allow';
  return allows(signerName) || allows(`${signerName.split('/')[0]}/*`);
}
