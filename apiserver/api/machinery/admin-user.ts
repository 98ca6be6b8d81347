/**
 * The user kubesim treats every request as. kubesim does not authenticate or authorize yet
 * (the next issue adds both), so every caller acts as a cluster administrator, named as
 * kind's and kubeadm's admin kubeconfig name theirs. The review APIs report this honestly.
 */
export const ADMIN_USER = { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] } as const;
