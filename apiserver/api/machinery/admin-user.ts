/**
 * The user kubesim treats every request as. kubesim does not authenticate or authorize yet
 * (the next issue adds both), so every caller acts as a cluster administrator, named as
 * kind's and kubeadm's admin kubeconfig name theirs. The review APIs report this honestly.
 */
export const ADMIN_USER = { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] } as const;

/** NO_AUTHORIZATION_REASON is the reason every access review carries while nothing is enforced. */
export const NO_AUTHORIZATION_REASON = 'kubesim does not enforce authorization yet: every request is allowed';
