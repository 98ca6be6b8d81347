/**
 * Causes on every write, end to end: the Deployment and ReplicaSet controllers, the scheduler
 * and kubelet-sim run in process against a real API server (fast clock); a user scales a
 * Deployment, and the history API shows who made every resulting write and what event made
 * them do it — user → deployment controller → replicaset controller → scheduler → kubelet.
 */
import { describe, expect, it } from 'vitest';
import { type Deployment, deploymentDefinition } from '../../apiserver/api/apps/deployment.js';
import { configMapDefinition } from '../../apiserver/api/core/config-map.js';
import type { HistoryItem, HistoryList } from '../../apiserver/api/kubesim/history.js';
import { CAUSE_HEADER } from '../../apiserver/api/machinery/cause.js';
import { followHistory, HISTORY_PATH } from '../../cli/commands/history-client.js';
import { buildTraceTree, countNodes } from '../../cli/commands/trace-tree.js';
import { createKubeClient } from '../../controllers/runtime/client/http-client.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const NS = 'default';
/** Cluster time runs this much faster than wall time: pods start within a fraction of a second. */
const SPEED = 20;

function web(replicas: number): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: NS, labels: { app: 'web' } },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
    },
  };
}

/** eventTrigger is what a loop reports when the watch event of `item`'s write queued it. */
const triggeredBy = (item: HistoryItem, kind: string) => ({
  kind: 'event',
  object: { kind, namespace: item.namespace, name: item.name, resourceVersion: String(item.revision) },
});

describe('history: causes on every write', () => {
  // Writes as a user makes them with kubectl: a User-Agent and a bearer token, no cause.
  const cluster = useTestCluster({
    lifetime: 'file',
    speed: SPEED,
    userAgent: 'kubectl/v1.32.0 (linux/amd64)',
    token: 'alice',
    nodes: 2,
    controllers: ['replicaset', 'deployment'],
    scheduler: true,
  });
  const history = async (query: string): Promise<HistoryList> => {
    const response = await request<HistoryList>(`${cluster.url}${HISTORY_PATH}?${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };

  const readyReplicas = async (count: number) =>
    eventually(async () => expect((await cluster.client.resource(deploymentDefinition).get(NS, 'web')).status?.readyReplicas).toBe(count), {
      timeoutMs: 20_000,
    });

  it('scaling a Deployment records user → deployment → replicaset → scheduler → kubelet, each with its trigger', async () => {
    await cluster.client.resource(deploymentDefinition).create(web(3));
    await readyReplicas(3);
    const scaled = await cluster.client.resource(deploymentDefinition).patch(NS, 'web', { spec: { replicas: 5 } }, { type: 'merge' });
    await readyReplicas(5);
    const from = Number(scaled.metadata.resourceVersion);
    const { items } = await history(`fromRevision=${from}`);
    const find = (what: string, predicate: (item: HistoryItem) => boolean) => {
      const found = items.filter(predicate);
      expect(found.length, `${what} in\n${items.map((i) => JSON.stringify(i)).join('\n')}`).toBeGreaterThan(0);
      return found;
    };

    const [scale] = find("the user's scale", (i) => i.revision === from);
    expect(scale).toMatchObject({ resource: 'deployments.apps', kind: 'Deployment', name: 'web', type: 'MODIFIED' });
    expect(scale?.actor).toMatchObject({ userAgent: 'kubectl/v1.32.0 (linux/amd64)', user: 'alice' });
    expect(scale?.actor?.controller).toBeUndefined();
    expect(scale?.diff).toContainEqual({ path: 'spec.replicas', old: 3, new: 5 });

    const [rsScale] = find(
      'the deployment controller scaling the ReplicaSet',
      (i) => i.resource === 'replicasets.apps' && i.actor?.controller === 'deployment' && i.diff.some((c) => c.path === 'spec.replicas'),
    );
    expect(rsScale?.actor?.trigger).toMatchObject({ ...triggeredBy(scale!, 'Deployment'), type: 'MODIFIED' });
    expect(rsScale?.actor).toMatchObject({ key: 'default/web', userAgent: expect.stringMatching(/^kubesim-/) });
    expect(rsScale?.diff).toContainEqual({ path: 'spec.replicas', old: 3, new: 5 });

    const created = find('the replicaset controller creating pods', (i) => i.resource === 'pods' && i.type === 'ADDED');
    expect(created).toHaveLength(2);
    for (const pod of created) {
      expect(pod.actor).toMatchObject({
        controller: 'replicaset',
        key: `default/${rsScale!.name}`,
        trigger: { ...triggeredBy(rsScale!, 'ReplicaSet'), type: 'MODIFIED' },
      });
      const [bound] = find(`the scheduler binding ${pod.name}`, (i) => i.name === pod.name && i.actor?.controller === 'scheduler');
      expect(bound?.diff).toContainEqual({ path: 'spec.nodeName', new: expect.stringMatching(/^node-/) });
      expect(bound?.actor).toMatchObject({ key: `default/${pod.name}`, trigger: { ...triggeredBy(pod, 'Pod'), type: 'ADDED' } });
      const reports = find(`a kubelet reporting ${pod.name}`, (i) => i.name === pod.name && i.actor?.controller?.startsWith('kubelet/') === true);
      const node = bound?.diff.find((c) => c.path === 'spec.nodeName')?.new;
      expect(reports.every((r) => r.actor?.controller === `kubelet/${String(node)}`)).toBe(true);
      // Its first report follows the binding: the bound pod's event, directly or as the origin of a stage.
      const first = reports[0]?.actor?.trigger;
      const origin = first?.kind === 'event' ? first : first?.kind === 'stage' || first?.kind === 'requeue' ? first.origin : undefined;
      expect(origin).toMatchObject(triggeredBy(bound!, 'Pod'));
    }

    // kubesim trace's walk from the user's change reaches all of it.
    const tree = buildTraceTree(items, scale!);
    const reached = new Set<number>();
    const visit = (node: typeof tree) => {
      reached.add(node.item.revision);
      node.children.forEach(visit);
    };
    visit(tree);
    for (const pod of created) expect(reached.has(pod.revision)).toBe(true);
    expect(countNodes(tree)).toBeGreaterThanOrEqual(1 + 1 + 2 + 2 + 2);
  });

  it('narrows by resource, namespace, name and label selector, and pages with continue', async () => {
    const byName = await history('resource=deploy&namespace=default&name=web');
    expect(byName.items.length).toBeGreaterThanOrEqual(2);
    expect(byName.items.every((i) => i.resource === 'deployments.apps' && i.name === 'web')).toBe(true);
    expect(byName.items[0]).toMatchObject({ type: 'ADDED', diff: [] });
    const labelled = await history('labelSelector=app%3Dweb');
    expect(new Set(labelled.items.map((i) => i.resource))).toEqual(new Set(['deployments.apps', 'replicasets.apps', 'pods']));
    const page = await history('resource=pods&limit=2');
    expect(page.items).toHaveLength(2);
    const next = await history(`resource=pods&limit=2&fromRevision=${page.metadata.continue}`);
    expect(next.items[0]!.revision).toBeGreaterThan(page.items[1]!.revision);
    const withObject = await history('resource=deployments.apps&name=web&includeObject=true');
    expect(withObject.items.at(-1)?.object).toMatchObject({ spec: { replicas: 5 } });
  });

  it('rejects bad parameters with a Status naming them', async () => {
    const bad = async (query: string) => (await request(`${cluster.url}${HISTORY_PATH}?${query}`)).body;
    expect(await bad('resource=gadgets')).toMatchObject({ kind: 'Status', code: 400, message: 'the server doesn\'t have a resource type "gadgets"' });
    expect(await bad('name=web')).toMatchObject({ code: 400, message: expect.stringMatching(/name requires resource/) });
    expect(await bad('fromRevision=abc')).toMatchObject({ code: 400, message: expect.stringMatching(/fromRevision/) });
    expect(await bad('labelSelector=a%20in')).toMatchObject({ code: 400 });
  });

  it('streams later changes as JSON lines, filtered like a read', async () => {
    const abort = new AbortController();
    const seen: HistoryItem[] = [];
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const following = (async () => {
      for await (const item of followHistory(cluster.kubeconfigPath, { resource: 'configmaps', namespace: NS }, abort.signal, opened)) {
        seen.push(item);
        if (seen.length === 2) abort.abort();
      }
    })();
    // The stream starts "from now": write once the server accepted it.
    await open;
    const configMaps = cluster.client.resource(configMapDefinition);
    await cluster.client.resource(deploymentDefinition).patch(NS, 'web', { metadata: { annotations: { unrelated: 'yes' } } }, { type: 'merge' });
    const first = await configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'streamed', namespace: NS }, data: { a: '1' } });
    await configMaps.update({ ...first, data: { a: '2' } });
    await following;
    // The Deployment's change does not pass the filter.
    expect(seen[0]).toMatchObject({ resource: 'configmaps', name: 'streamed', type: 'ADDED', actor: { user: 'alice' } });
    expect(seen[1]).toMatchObject({ name: 'streamed', type: 'MODIFIED', diff: [{ path: 'data.a', old: '1', new: '2' }] });
  });

  it('refuses a write whose cause header is not a cause, and records none', async () => {
    const before = (await history('resource=configmaps&name=bad-cause')).items;
    const response = await fetch(`${cluster.url}/api/v1/namespaces/${NS}/configmaps`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [CAUSE_HEADER]: '{"controller":"x"}' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad-cause' } }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/^invalid X-Kubesim-Cause header: /);
    expect((await history('resource=configmaps&name=bad-cause')).items).toEqual(before);
  });

  it('serves an object as it was before a change (list with resourceVersion=N&resourceVersionMatch=Exact)', async () => {
    const { items } = await history('resource=deployments.apps&name=web');
    const scale = items.find((i) => i.diff.some((c) => c.path === 'spec.replicas' && c.new === 5))!;
    const at = (revision: number) =>
      request(
        `${cluster.url}/apis/apps/v1/namespaces/${NS}/deployments?fieldSelector=metadata.name%3Dweb&resourceVersion=${revision}&resourceVersionMatch=Exact`,
      );
    const before = await at(scale.revision - 1);
    expect(before.status).toBe(200);
    expect(before.body.items.map((d: Deployment) => d.spec.replicas)).toEqual([3]);
    expect((await at(scale.revision)).body.items.map((d: Deployment) => d.spec.replicas)).toEqual([5]);
  });
});

describe('history: compaction', () => {
  const cluster = useTestCluster({ lifetime: 'file' });

  it('answers a fromRevision whose history was compacted with 410 Expired, for reads and streams', async () => {
    const client = createKubeClient({ server: cluster.url, userAgent: 'kubectl/v1.32.0' });
    for (let i = 0; i < 3; i++)
      await client.resource(configMapDefinition).create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}`, namespace: NS } });
    client.close();
    const compacted = cluster.server.store.compact({ keepRevisions: 1, maxAgeMs: 0 });
    for (const watch of ['', '&watch=1']) {
      const response = await request(`${cluster.url}${HISTORY_PATH}?fromRevision=${compacted}${watch}`);
      expect(response.status).toBe(410);
      expect(response.body).toMatchObject({ kind: 'Status', reason: 'Expired' });
    }
    const kept = await request<HistoryList>(`${cluster.url}${HISTORY_PATH}?fromRevision=${compacted + 1}`);
    expect(kept.body.items.map((i) => i.revision)).toEqual([compacted + 1]);
  });
});
