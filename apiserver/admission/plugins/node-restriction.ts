/**
 * NodeRestriction (kube's plugin/pkg/admission/noderestriction), the admission half of node
 * isolation: the Node authorizer lets every kubelet write nodes, pods and leases in general;
 * this plugin narrows a kubelet (system:node:<name> in system:nodes) to its own Node, its own
 * Lease and CSINode, the pods bound to it (status, deletion, eviction, mirror pods) and tokens
 * bound to those pods. Messages are kube's, word for word. Everyone else passes untouched.
 */
import { goQuote } from '../../api/machinery/go-quote.js';
import type { KubeObject } from '../../api/resource-definition.js';
import { nodeNameOf } from '../../authz/node-authorizer.js';
import type { RegistryContext } from '../../registry/context.js';
import { admissionForbidden } from '../forbidden.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../plugin.js';

const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** Labels a kubelet may not set on its own Node (kube's node-restriction.kubernetes.io/ prefix). */
const RESTRICTED_LABEL_PREFIX = 'node-restriction.kubernetes.io/';

type Json = Record<string, unknown>;
const field = (object: unknown, ...path: string[]): unknown => path.reduce<unknown>((at, key) => (at as Json | undefined)?.[key], object);

const forbidden = admissionForbidden;

function storedPod(ctx: RegistryContext, namespace: string, name: string): KubeObject | undefined {
  try {
    return ctx.store.get({ resource: 'pods', namespace, name }) as KubeObject;
  } catch {
    return undefined;
  }
}

function admitPod(ctx: RegistryContext, node: string, attributes: AdmissionAttributes): void {
  const { operation, subresource } = attributes;
  if (subresource === '' && operation === 'CREATE') return admitMirrorPod(node, attributes);
  if (subresource === '' && operation === 'DELETE') {
    if (field(attributes.oldObject, 'spec', 'nodeName') !== node) {
      throw forbidden(attributes, `node ${goQuote(node)} can only delete pods with spec.nodeName set to itself`);
    }
    return;
  }
  if (subresource === 'status') {
    if (field(attributes.oldObject, 'spec', 'nodeName') !== node) {
      throw forbidden(attributes, `node ${goQuote(node)} can only update pod status for pods with spec.nodeName set to itself`);
    }
    return;
  }
  if (subresource === 'eviction') {
    const target = storedPod(ctx, attributes.namespace, attributes.name);
    if (field(target, 'spec', 'nodeName') !== node) throw forbidden(attributes, `node ${goQuote(node)} can only evict pods with spec.nodeName set to itself`);
    return;
  }
  throw forbidden(attributes, `unexpected operation ${goQuote(operation)}, subresource ${goQuote(subresource)}`);
}

function admitMirrorPod(node: string, attributes: AdmissionAttributes): void {
  const pod = attributes.object;
  if (field(pod, 'metadata', 'annotations', MIRROR_POD_ANNOTATION) === undefined) {
    throw forbidden(attributes, `pod does not have ${goQuote(MIRROR_POD_ANNOTATION)} annotation, node ${goQuote(node)} can only create mirror pods`);
  }
  if (field(pod, 'spec', 'nodeName') !== node) throw forbidden(attributes, `node ${goQuote(node)} can only create pods with spec.nodeName set to itself`);
  const volumes = (field(pod, 'spec', 'volumes') as Json[] | undefined) ?? [];
  if (volumes.some((v) => v['secret'])) throw forbidden(attributes, `node ${goQuote(node)} can not create pods that reference secrets`);
  if (volumes.some((v) => v['configMap'])) throw forbidden(attributes, `node ${goQuote(node)} can not create pods that reference configmaps`);
  if (volumes.some((v) => v['persistentVolumeClaim'])) {
    throw forbidden(attributes, `node ${goQuote(node)} can not create pods that reference persistentvolumeclaims`);
  }
}

function admitNode(node: string, attributes: AdmissionAttributes): void {
  const target = attributes.name || attributes.object?.metadata?.name || '';
  if (attributes.operation === 'DELETE') {
    if (target !== node) throw forbidden(attributes, `node ${goQuote(node)} is not allowed to delete node ${goQuote(target)}`);
    return;
  }
  if (target !== node) throw forbidden(attributes, `node ${goQuote(node)} is not allowed to modify node ${goQuote(target)}`);
  const labels = (field(attributes.object, 'metadata', 'labels') as Record<string, string> | undefined) ?? {};
  const oldLabels = (field(attributes.oldObject, 'metadata', 'labels') as Record<string, string> | undefined) ?? {};
  const changed = [...new Set([...Object.keys(labels), ...Object.keys(oldLabels)])]
    .filter((key) => key.startsWith(RESTRICTED_LABEL_PREFIX) && labels[key] !== oldLabels[key])
    .sort();
  if (changed.length) throw forbidden(attributes, `is not allowed to modify labels: ${changed.join(', ')}`);
}

function admitOwnNamed(node: string, attributes: AdmissionAttributes, what: string): void {
  const name = attributes.operation === 'CREATE' ? (attributes.object?.metadata?.name ?? '') : attributes.name;
  if (name !== node) throw forbidden(attributes, `can only access ${what} with the same name as the requesting node`);
}

function admitToken(ctx: RegistryContext, node: string, attributes: AdmissionAttributes): void {
  const ref = field(attributes.object, 'spec', 'boundObjectRef') as Json | undefined;
  if (ref?.['kind'] !== 'Pod') throw forbidden(attributes, 'node requested token not bound to a pod');
  const pod = storedPod(ctx, attributes.namespace, String(ref['name'] ?? ''));
  if (ref['uid'] && field(pod, 'metadata', 'uid') !== ref['uid'])
    throw forbidden(attributes, 'the UID in the bound object reference does not match the UID in record');
  if (field(pod, 'spec', 'nodeName') !== node) throw forbidden(attributes, 'node requested token bound to a pod scheduled on a different node');
}

/** The resources NodeRestriction looks at (every other write passes it untouched). */
const NODE_RESTRICTED_RESOURCES = new Set(['/pods', '/nodes', '/serviceaccounts', 'coordination.k8s.io/leases', 'storage.k8s.io/csinodes']);

/** NodeRestriction: export for the admission chain (validating phase). */
export const nodeRestriction: AdmissionPlugin = {
  name: 'NodeRestriction',
  handles: (_operation, def) => NODE_RESTRICTED_RESOURCES.has(`${def.group}/${def.plural}`),
  validate(ctx, attributes) {
    const node = nodeNameOf(attributes.user);
    if (!node) return;
    const { def, subresource } = attributes;
    const resource = `${def.group}/${def.plural}`;
    if (resource === '/pods') return admitPod(ctx, node, attributes);
    if (resource === '/nodes') return admitNode(node, attributes);
    if (resource === '/serviceaccounts' && subresource === 'token') return admitToken(ctx, node, attributes);
    if (resource === 'coordination.k8s.io/leases') {
      if (attributes.namespace !== NODE_LEASE_NAMESPACE)
        throw forbidden(attributes, `can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
      return admitOwnNamed(node, attributes, 'node lease');
    }
    if (resource === 'storage.k8s.io/csinodes') return admitOwnNamed(node, attributes, 'CSINode');
  },
};
