/**
 * startCluster's `audit` option: a controller author sees the requests their cluster's
 * controllers made — here the ReplicaSet controller creating a ReplicaSet's pods, under its
 * own service account, allowed by RBAC's system:controller:replicaset-controller binding.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePolicy } from '../../apiserver/audit/policy.js';
import { type Cluster, startCluster } from '../../cli/cluster/index.js';
import { readAuditLog } from '../support/audit-log.js';
import { eventually } from '../support/eventually.js';
import { request, trustKubeconfig } from '../support/http.js';

const dir = mkdtempSync(join(tmpdir(), 'kubesim-audit-cluster-'));
const logPath = join(dir, 'audit.log');
let cluster: Cluster | undefined;
afterAll(async () => {
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const policy = parsePolicy(`apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: Request
  verbs: [create]
  resources: [{group: "", resources: [pods]}]
`);

describe('startCluster({ audit })', () => {
  it('logs the pods the ReplicaSet controller creates, as that controller', async () => {
    cluster = await startCluster({ nodes: 0, controllers: ['replicaset'], serviceAccountCredentials: true, audit: { policy, log: { path: logPath } } });
    trustKubeconfig(cluster.kubeconfig);
    const replicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    };
    expect((await request(`${cluster.url}/apis/apps/v1/namespaces/default/replicasets`, { method: 'POST', body: replicaSet })).status).toBe(201);
    const creates = await eventually(() => {
      const events = readAuditLog(logPath);
      expect(events).toHaveLength(2);
      return events;
    });
    for (const event of creates) {
      expect(event).toMatchObject({
        stage: 'ResponseComplete',
        level: 'Request',
        verb: 'create',
        user: { username: 'system:serviceaccount:kube-system:replicaset-controller' },
        objectRef: { resource: 'pods', namespace: 'default', apiVersion: 'v1' },
        responseStatus: { code: 201 },
        requestObject: { metadata: { generateName: 'web-', ownerReferences: [{ kind: 'ReplicaSet', name: 'web' }] } },
        annotations: {
          'authorization.k8s.io/decision': 'allow',
          'authorization.k8s.io/reason':
            'RBAC: allowed by ClusterRoleBinding "system:controller:replicaset-controller" of ClusterRole "system:controller:replicaset-controller" to ServiceAccount "replicaset-controller/kube-system"',
        },
      });
    }
  });
});
