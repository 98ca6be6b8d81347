/**
 * Per-loop service-account credentials (runControllers' serviceAccountCredentials, as
 * kube-controller-manager's --use-service-account-credentials): the controller process,
 * authenticated as system:kube-controller-manager by a token file, makes each loop its own
 * service account and token, and the loop's writes are that service account's.
 */
import { describe, expect, it } from 'vitest';
import { replicaSetDefinition } from '../../apiserver/api/apps/replica-set.js';
import { serviceAccountDefinition } from '../../apiserver/api/core/service-account.js';
import type { HistoryList } from '../../apiserver/api/kubesim/history.js';
import { HISTORY_PATH } from '../../cli/commands/history-client.js';
import { runControllers } from '../../controllers/run-controllers.js';
import { silentLogger } from '../../controllers/runtime/logger.js';
import { eventually } from '../support/eventually.js';
import { writeTokenFile } from '../support/token-file.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const tokenFile = () => writeTokenFile(['admin-token,kubernetes-admin,admin-uid,"system:masters"', 'kcm-token,system:kube-controller-manager,kcm-uid,']);

describe('per-loop service-account credentials', () => {
  const cluster = useTestCluster({ lifetime: 'file', tokenAuthFile: tokenFile(), token: 'admin-token' });

  it("attributes a loop's writes to its own service account", async () => {
    const stop = new AbortController();
    const running = runControllers({
      server: cluster.url,
      token: 'kcm-token',
      names: ['replicaset'],
      clock: cluster.clock,
      logger: silentLogger,
      serviceAccountCredentials: true,
      signal: stop.signal,
    });
    cluster.defer(async () => {
      stop.abort();
      await running;
    });
    const labels = { app: 'loop-creds' };
    const created = await cluster.client.resource(replicaSetDefinition).create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'loop-creds', namespace: 'default' },
      spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    const podCreates = async () => {
      const response = await fetch(`${cluster.url}${HISTORY_PATH}?fromRevision=${created.metadata.resourceVersion}`, {
        headers: { authorization: 'Bearer admin-token' },
      });
      const history = (await response.json()) as HistoryList;
      return history.items.filter((item) => item.resource === 'pods' && item.type === 'ADDED');
    };
    await eventually(async () => expect((await podCreates()).length).toBe(1), { timeoutMs: 10_000 });
    const [pod] = await podCreates();
    expect(pod?.actor).toMatchObject({ user: 'system:serviceaccount:kube-system:replicaset-controller' });
    const account = await cluster.client.resource(serviceAccountDefinition).get('kube-system', 'replicaset-controller');
    expect(account.metadata.name).toBe('replicaset-controller');
  });
});
