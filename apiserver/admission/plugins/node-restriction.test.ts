import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/resource-definition.js';
import type { UserInfo } from '../../authz/user.js';
import { type RunningApiServer, startApiServer } from '../../start-api-server.js';
import type { AdmissionAttributes } from '../plugin.js';
import { nodeRestriction } from './node-restriction.js';

let server: RunningApiServer;
beforeAll(async () => {
  server = await startApiServer({ port: 0 });
  const pod = (name: string, nodeName: string) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, uid: `uid-${name}` },
    spec: { nodeName, containers: [] },
  });
  for (const [name, node] of [
    ['mine', 'node-1'],
    ['theirs', 'node-2'],
  ]) {
    server.store.create(
      { resource: 'pods', namespace: 'default', name: name! },
      { ...pod(name!, node!), metadata: { name: name!, namespace: 'default', uid: `uid-${name}` } },
    );
  }
});
afterAll(() => server.close());

const kubelet: UserInfo = { username: 'system:node:node-1', groups: ['system:nodes', 'system:authenticated'] };

function attributes(group: string, plural: string, extra: Partial<AdmissionAttributes>): AdmissionAttributes {
  const def = server.context.registry.find(group, 'v1', plural)!;
  return { operation: 'UPDATE', def, subresource: '', namespace: 'default', name: '', user: kubelet, dryRun: false, ...extra };
}

const refusal = (a: AdmissionAttributes) => {
  try {
    nodeRestriction.validate!(server.context, a, { warnings: [], auditAnnotations: {} });
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
};

const object = (name: string, body: object = {}) => ({ metadata: { name }, ...body }) as KubeObject;

describe('NodeRestriction', () => {
  it('keeps a kubelet to its own Node', () => {
    expect(refusal(attributes('', 'nodes', { name: 'node-1', object: object('node-1'), oldObject: object('node-1') }))).toBeUndefined();
    expect(refusal(attributes('', 'nodes', { name: 'node-2', object: object('node-2') }))).toBe(
      'nodes "node-2" is forbidden: node "node-1" is not allowed to modify node "node-2"',
    );
    const labelled = object('node-1', { metadata: { name: 'node-1', labels: { 'node-restriction.kubernetes.io/pool': 'a' } } });
    expect(refusal(attributes('', 'nodes', { name: 'node-1', object: labelled, oldObject: object('node-1') }))).toBe(
      'nodes "node-1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool',
    );
  });

  it('keeps a kubelet to the status, deletion and eviction of pods bound to it', () => {
    const pod = (nodeName: string) => object('p', { spec: { nodeName } });
    expect(refusal(attributes('', 'pods', { subresource: 'status', name: 'p', object: pod('node-1'), oldObject: pod('node-1') }))).toBeUndefined();
    expect(refusal(attributes('', 'pods', { subresource: 'status', name: 'p', object: pod('node-2'), oldObject: pod('node-2') }))).toBe(
      'pods "p" is forbidden: node "node-1" can only update pod status for pods with spec.nodeName set to itself',
    );
    expect(refusal(attributes('', 'pods', { operation: 'DELETE', name: 'p', oldObject: pod('node-2') }))).toBe(
      'pods "p" is forbidden: node "node-1" can only delete pods with spec.nodeName set to itself',
    );
    expect(refusal(attributes('', 'pods', { operation: 'CREATE', subresource: 'eviction', name: 'theirs', object: object('theirs') }))).toBe(
      'pods "theirs" is forbidden: node "node-1" can only evict pods with spec.nodeName set to itself',
    );
    expect(refusal(attributes('', 'pods', { operation: 'CREATE', subresource: 'eviction', name: 'mine', object: object('mine') }))).toBeUndefined();
    expect(refusal(attributes('', 'pods', { operation: 'CREATE', object: pod('node-1') }))).toBe(
      'pods "p" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "node-1" can only create mirror pods',
    );
  });

  it('keeps a kubelet to its own Lease, names on create included', () => {
    const lease = (name: string, operation: AdmissionAttributes['operation']) =>
      attributes('coordination.k8s.io', 'leases', { operation, namespace: 'kube-node-lease', name: operation === 'CREATE' ? '' : name, object: object(name) });
    expect(refusal(lease('node-1', 'CREATE'))).toBeUndefined();
    expect(refusal(lease('node-2', 'CREATE'))).toBe(
      'leases.coordination.k8s.io "node-2" is forbidden: can only access node lease with the same name as the requesting node',
    );
    expect(refusal(lease('node-2', 'UPDATE'))).toBe(
      'leases.coordination.k8s.io "node-2" is forbidden: can only access node lease with the same name as the requesting node',
    );
  });

  it('lets tokens be requested only for pods bound to the node, and leaves other users alone', () => {
    const token = (pod: string) =>
      attributes('', 'serviceaccounts', {
        operation: 'CREATE',
        subresource: 'token',
        name: 'default',
        object: object('default', { spec: { boundObjectRef: { kind: 'Pod', name: pod } } }),
      });
    expect(refusal(token('mine'))).toBeUndefined();
    expect(refusal(token('theirs'))).toBe('serviceaccounts "default" is forbidden: node requested token bound to a pod scheduled on a different node');
    const admin = {
      ...attributes('', 'nodes', { name: 'node-2', object: object('node-2') }),
      user: { username: 'kubernetes-admin', groups: ['system:masters'] },
    };
    expect(refusal(admin)).toBeUndefined();
  });
});
