/**
 * A control loop under RBAC, as itself: the ReplicaSet loop runs with the identity kubesim's
 * loops share today (system:kube-controller-manager) and with its own service account
 * (kube-system/replicaset-controller, as kube-controller-manager's
 * --use-service-account-credentials). Taking `create pods` from its role stalls it with a
 * Forbidden it keeps retrying; giving it back heals it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRealClock } from '../../apiserver/api/machinery/clock.js';
import { registerReplicaSetController } from '../../controllers/replicaset/index.js';
import { createKubeClient } from '../../controllers/runtime/client/http-client.js';
import { createLogger } from '../../controllers/runtime/logger.js';
import { createManager } from '../../controllers/runtime/manager.js';
import { eventually } from '../support/eventually.js';
import { type RbacServer, startRbacServer, tokenOf } from '../support/rbac-server.js';

let cluster: RbacServer;
beforeAll(async () => {
  cluster = await startRbacServer();
});
afterAll(() => cluster.close());

let stopLoop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stopLoop?.();
  stopLoop = undefined;
});

function startReplicaSetLoop(user: string): void {
  const client = createKubeClient({ server: cluster.url, token: tokenOf(user), userAgent: 'kubesim-replicaset/test' });
  const manager = createManager({
    client,
    clock: createRealClock(),
    logger: createLogger({ component: 'replicaset', level: 'silent' }),
    component: 'replicaset',
  });
  registerReplicaSetController(manager);
  const abort = new AbortController();
  const running = manager.start(abort.signal);
  stopLoop = async () => {
    abort.abort();
    await running;
    client.close();
  };
}

const replicaSet = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
});

async function createReplicaSet(name: string): Promise<void> {
  const created = await cluster.as('admin', '/apis/apps/v1/namespaces/default/replicasets', { method: 'POST', body: replicaSet(name) });
  expect(created.status).toBe(201);
}

const podCount = async (app: string) => (await cluster.as('admin', `/api/v1/namespaces/default/pods?labelSelector=app%3D${app}`)).body.items.length;

describe('the ReplicaSet loop under RBAC', () => {
  it('creates pods as system:kube-controller-manager, the identity the loops share', async () => {
    startReplicaSetLoop('system:kube-controller-manager');
    await createReplicaSet('shared');
    await eventually(async () => expect(await podCount('shared')).toBe(2));
  });

  it('creates pods as its own service account, stalls when its role loses create pods, heals when it is back', async () => {
    const rolePath = '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:controller:replicaset-controller';
    const role = (await cluster.as('admin', rolePath)).body;
    startReplicaSetLoop('system:serviceaccount:kube-system:replicaset-controller');
    await createReplicaSet('own');
    await eventually(async () => expect(await podCount('own')).toBe(2));

    const withoutCreate = structuredClone(role);
    for (const rule of withoutCreate.rules) rule.verbs = rule.verbs.filter((verb: string) => !(rule.resources.includes('pods') && verb === 'create'));
    expect((await cluster.as('admin', rolePath, { method: 'PUT', body: withoutCreate })).status).toBe(200);
    const review = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user: 'system:serviceaccount:kube-system:replicaset-controller', resourceAttributes: { verb: 'create', resource: 'pods', namespace: 'default' } },
    };
    await eventually(async () =>
      expect((await cluster.as('admin', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { method: 'POST', body: review })).body.status.allowed).toBe(
        false,
      ),
    );
    await createReplicaSet('stalled');
    // The loop's FailedCreate event carries the Forbidden it got.
    await eventually(async () => {
      const events = (await cluster.as('admin', '/api/v1/namespaces/default/events')).body.items as Array<{
        reason: string;
        message: string;
        involvedObject: { name: string };
      }>;
      const failed = events.find((e) => e.involvedObject.name === 'stalled' && e.reason === 'FailedCreate');
      expect(failed?.message).toContain('is forbidden: User "system:serviceaccount:kube-system:replicaset-controller" cannot create resource "pods"');
    });
    expect(await podCount('stalled')).toBe(0);

    const restored = { ...role, metadata: { ...role.metadata, resourceVersion: undefined } };
    expect((await cluster.as('admin', rolePath, { method: 'PUT', body: restored })).status).toBe(200);
    await eventually(async () => expect(await podCount('stalled')).toBe(2), { timeoutMs: 30_000 });
  });
});
