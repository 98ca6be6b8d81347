/**
 * What a kubelet may do (kube's bootstrappolicy.NodeRules): the rules of the system:node
 * ClusterRole, which the Node authorizer evaluates for every kubelet (the role itself is bound
 * to no one, as in kube 1.33). Reads of secrets, configmaps, persistent volumes (and claims) and
 * service-account tokens are further limited by the Node authorizer to what the node's pods use.
 */
import type { PolicyRule } from '../api/rbac/index.js';

const READ = ['get', 'list', 'watch'];
const rule = (apiGroups: string[], resources: string[], verbs: string[]): PolicyRule => ({ apiGroups, resources, verbs });

export const NODE_RULES: readonly PolicyRule[] = [
  rule(['authentication.k8s.io'], ['tokenreviews'], ['create']),
  rule(['authorization.k8s.io'], ['localsubjectaccessreviews', 'subjectaccessreviews'], ['create']),
  rule([''], ['services'], READ),
  rule([''], ['nodes'], ['create', 'get', 'list', 'watch']),
  rule([''], ['nodes/status'], ['patch', 'update']),
  rule([''], ['nodes'], ['patch', 'update']),
  rule([''], ['events'], ['create', 'patch', 'update']),
  rule(['events.k8s.io'], ['events'], ['create', 'patch', 'update']),
  rule([''], ['pods'], READ),
  rule([''], ['pods'], ['create', 'delete']),
  rule([''], ['pods/status'], ['patch', 'update']),
  rule([''], ['pods/eviction'], ['create']),
  rule([''], ['configmaps', 'secrets'], READ),
  rule([''], ['persistentvolumeclaims', 'persistentvolumes'], ['get']),
  rule([''], ['endpoints'], ['get']),
  rule(['certificates.k8s.io'], ['certificatesigningrequests'], ['create', 'get', 'list', 'watch']),
  rule(['coordination.k8s.io'], ['leases'], ['create', 'delete', 'get', 'patch', 'update']),
  rule(['storage.k8s.io'], ['volumeattachments'], ['get']),
  rule([''], ['serviceaccounts/token'], ['create']),
  rule([''], ['persistentvolumeclaims/status'], ['get', 'patch', 'update']),
  rule(['storage.k8s.io'], ['csidrivers'], READ),
  rule(['storage.k8s.io'], ['csinodes'], ['create', 'delete', 'get', 'patch', 'update']),
  rule(['node.k8s.io'], ['runtimeclasses'], READ),
  rule(['resource.k8s.io'], ['resourceclaims'], ['get']),
  rule(['resource.k8s.io'], ['resourceslices'], ['deletecollection', 'get', 'list', 'watch']),
];
