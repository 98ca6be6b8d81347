/**
 * kube-apiserver's Node authorizer: a kubelet (user system:node:<name> in group system:nodes)
 * may do what the system:node rules allow, except that it reads only the secrets, configmaps,
 * persistent volume claims and volumes, and creates tokens only for the service accounts, of
 * pods bound to it, and touches only its own Lease and CSINode. Anything else: no opinion
 * (RBAC decides next). Reasons are kube's, word for word.
 */
import { isResourceRequest, type RequestAttributes, type ResourceRequest } from './attributes.js';
import type { AuthorizationDecision } from './authorizer.js';
import { NODE_RULES } from './node-rules.js';
import { ruleAllows } from './rbac-rules.js';
import type { UserInfo } from './user.js';

const NODE_USER_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';
const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** The objects a node's pods use, as kube's authorization graph links them. */
export type NodeGraphKind = 'secrets' | 'configmaps' | 'persistentvolumeclaims' | 'persistentvolumes' | 'serviceaccounts';

export interface NodeGraph {
  /** Whether a pod bound to `node` uses the object (a PV: through a claim a pod uses). */
  related(node: string, kind: NodeGraphKind, namespace: string, name: string): boolean;
  /** The node a pod is bound to, when it is. */
  podNode(namespace: string, name: string): string | undefined;
}

/** nodeNameOf is the node a user is the kubelet of, or undefined for anyone else. */
export function nodeNameOf(user: UserInfo): string | undefined {
  if (!user.username.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) return undefined;
  return user.username.slice(NODE_USER_PREFIX.length) || undefined;
}

const NO_OPINION: AuthorizationDecision = { decision: 'no-opinion', reason: '' };
const noOpinion = (reason: string): AuthorizationDecision => ({ decision: 'no-opinion', reason });
const ALLOW: AuthorizationDecision = { decision: 'allow', reason: '' };

function byGraph(graph: NodeGraph, node: string, kind: NodeGraphKind, request: ResourceRequest): AuthorizationDecision {
  if (!request.name) return noOpinion('No Object name found');
  if (graph.related(node, kind, request.namespace ?? '', request.name)) return ALLOW;
  return noOpinion(`no relationship found between node '${node}' and this object`);
}

function readNamespaced(graph: NodeGraph, node: string, kind: NodeGraphKind, request: ResourceRequest): AuthorizationDecision {
  if (!['get', 'list', 'watch'].includes(request.verb)) return noOpinion('can only read resources of this type');
  if (request.subresource) return noOpinion('cannot read subresource');
  if (!request.namespace) return noOpinion('can only read namespaced object of this type');
  return byGraph(graph, node, kind, request);
}

function getOnly(graph: NodeGraph, node: string, kind: NodeGraphKind, request: ResourceRequest): AuthorizationDecision {
  if (request.verb !== 'get') return noOpinion('can only get individual resources of this type');
  if (request.subresource) return noOpinion('cannot get subresource');
  return byGraph(graph, node, kind, request);
}

function ownNamed(node: string, request: ResourceRequest, what: string): AuthorizationDecision {
  if (!['get', 'create', 'update', 'patch', 'delete'].includes(request.verb)) return noOpinion(`can only get, create, update, patch, or delete a ${what}`);
  if (request.subresource) return noOpinion(`cannot modify ${what} subresources`);
  // A create carries no name in its URL: NodeRestriction checks the name at admission.
  if (request.verb !== 'create' && request.name !== node) return noOpinion(`can only access ${what} with the same name as the requesting node`);
  return ALLOW;
}

function ownLease(node: string, request: ResourceRequest): AuthorizationDecision {
  if (!['get', 'create', 'update', 'patch', 'delete'].includes(request.verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
  if (request.namespace !== NODE_LEASE_NAMESPACE) return noOpinion(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
  return ownNamed(node, request, 'node lease');
}

function byRules(request: ResourceRequest): AuthorizationDecision {
  return NODE_RULES.some((rule) => ruleAllows(rule, request)) ? ALLOW : NO_OPINION;
}

export function authorizeNode(graph: NodeGraph, attributes: RequestAttributes): AuthorizationDecision {
  const node = nodeNameOf(attributes.user);
  if (!node || !isResourceRequest(attributes)) return NO_OPINION;
  const request = attributes;
  const key = `${request.apiGroup}/${request.resource}`;
  switch (key) {
    case '/secrets':
    case '/configmaps':
      return readNamespaced(graph, node, request.resource as NodeGraphKind, request);
    case '/persistentvolumeclaims':
      return request.subresource === 'status' ? byRules(request) : getOnly(graph, node, 'persistentvolumeclaims', request);
    case '/persistentvolumes':
      return getOnly(graph, node, 'persistentvolumes', request);
    case '/serviceaccounts':
      if (request.verb !== 'create' || request.subresource !== 'token') return noOpinion('can only create tokens for individual service accounts');
      return byGraph(graph, node, 'serviceaccounts', request);
    case 'coordination.k8s.io/leases':
      return ownLease(node, request);
    case 'storage.k8s.io/csinodes':
      return ownNamed(node, request, 'CSINode');
    default:
      return byRules(request);
  }
}
