/**
 * The authorizer of `authorization: 'RBAC'`, chained as kube-apiserver chains
 * --authorization-mode=Node,RBAC: members of system:masters are always allowed (kube's
 * privileged-group authorizer), then the Node authorizer decides for kubelets, then RBAC. The
 * reasons of the authorizers that gave one are joined, as kube's union authorizer does.
 */
import type { RequestAttributes } from './attributes.js';
import type { AuthorizationDecision, Authorizer } from './authorizer.js';
import type { NodeGraph } from './node-authorizer.js';
import { authorizeNode } from './node-authorizer.js';
import { authorizeRbac, type RbacObjects } from './rbac-authorizer.js';

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
