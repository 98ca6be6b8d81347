/**
 * The authorizer of `authorization: 'RBAC'`, chained as kube-apiserver chains
 * --authorization-mode=Node,RBAC: members of system:masters are always allowed (kube's
 * privileged-group authorizer), then the Node authorizer decides for kubelets, then RBAC. The
 * reasons of the authorizers that gave one are joined, as kube's union authorizer does.
 */
import type { GrantedRules } from '../api/resource-definition.js';
import type { RequestAttributes } from './attributes.js';
import type { AuthorizationDecision, Authorizer } from './authorizer.js';
import { authorizeNode, type NodeGraph, nodeNameOf } from './node-authorizer.js';
import { authorizeRbac, type RbacObjects, rbacRulesFor } from './rbac-authorizer.js';
import type { UserInfo } from './user.js';

export const MASTERS_GROUP = 'system:masters';

const ALLOWED: AuthorizationDecision = { decision: 'allow', reason: '' };

export function rbacModeAuthorizer(objects: RbacObjects, graph: NodeGraph): Authorizer {
  return {
    authorize(attributes: RequestAttributes): AuthorizationDecision {
      if (attributes.user.groups.includes(MASTERS_GROUP)) return ALLOWED;
      const node = authorizeNode(graph, attributes);
      if (node.decision !== 'no-opinion') return node;
      const rbac = authorizeRbac(objects, attributes);
      if (rbac.allowed) return { decision: 'allow', reason: rbac.reason };
      return { decision: 'no-opinion', reason: [node.reason, rbac.reason].filter((r) => r !== '').join('\n') };
    },
  };
}

/** Everything: what AlwaysAllow and the system:masters group grant (kube's RulesFor for them). */
export const EVERYTHING: GrantedRules['rules'] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** aggregateErrors words several errors as kube's utilerrors.NewAggregate does. */
const aggregateErrors = (errors: string[]) => (errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`);

/**
 * rbacModeRulesFor is the chain's rule resolver (kube's union RulesFor): everything for
 * system:masters, what RBAC bindings grant, and for a kubelet an incomplete list, since the
 * Node authorizer cannot enumerate what it allows.
 */
export function rbacModeRulesFor(objects: RbacObjects): (user: UserInfo, namespace: string) => GrantedRules {
  return (user, namespace) => {
    const rules: GrantedRules['rules'] = user.groups.includes(MASTERS_GROUP) ? [...EVERYTHING] : [];
    const errors: string[] = [];
    let incomplete = false;
    if (nodeNameOf(user)) {
      incomplete = true;
      errors.push('node authorizer does not support user rule resolution');
    }
    const rbac = rbacRulesFor(objects, user, namespace);
    rules.push(...(rbac.rules as GrantedRules['rules']));
    if (rbac.errors.length) {
      incomplete = true;
      errors.push(aggregateErrors(rbac.errors));
    }
    return { rules, incomplete, ...(errors.length ? { evaluationError: aggregateErrors(errors) } : {}) };
  };
}
