/**
 * Who is asking: the user.Info of kube-apiserver (name, uid, groups, extra), and the user names
 * service accounts authenticate as.
 */

export { serviceAccountGroups, serviceAccountUsername } from '../api/authentication/service-account-names.js';
export type { UserInfo } from '../api/authorization/authorizer-types.js';
