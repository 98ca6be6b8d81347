/**
 * The Website operator tested against a whole kubesim cluster running in this process — the
 * pattern to copy for your own operator:
 *
 *   beforeAll   startCluster() once per file (the built-in loops, the scheduler, a node),
 *               install your CRDs, and markBaseline(): reset() returns here
 *   beforeEach  reset(), clear fault rules, let time run, start your operator and
 *               let settle() count its queue (cluster.track)
 *   the test    make a change ─► await cluster.settle() ─► assert; no polling, no sleeps
 *   afterEach   stop your operator (before the next reset pulls its CRD away)
 *
 * The operator itself knows nothing of kubesim: it gets a KubeConfig and, optionally, a clock.
 */

import { get, type RequestOptions } from 'node:https';
import { ApiException, AppsV1Api, CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { type Cluster, startCluster } from 'kubesim';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startWebsiteOperator, type WebsiteOperator } from './controller.js';
import { installWebsiteCrd } from './crd.js';
import { type Condition, FIELD_MANAGER, GROUP, PLURAL, VERSION, type Website, type WebsiteSpec } from './website.js';

const NS = 'default';
const websiteApi = { group: GROUP, version: VERSION, plural: PLURAL, namespace: NS };

let cluster: Cluster;
let apps: AppsV1Api;
let core: CoreV1Api;
let custom: CustomObjectsApi;
let kc: KubeConfig;
let operator: WebsiteOperator;
let untrack: () => void;
/** What the operator logged as failed (a reconcile it had to retry through its queue). */
let failures: string[];

beforeAll(async () => {
  cluster = await startCluster();
  kc = new KubeConfig();
  kc.loadFromString(cluster.kubeconfig);
  [apps, core, custom] = [kc.makeApiClient(AppsV1Api), kc.makeApiClient(CoreV1Api), kc.makeApiClient(CustomObjectsApi)];
  await installWebsiteCrd(kc);
  await cluster.settle(); // the CRD is Established and served
  cluster.markBaseline(); // reset() now returns to a cluster with the CRD installed
});

afterAll(() => cluster.stop());

/** getJson GETs `path` as the kubeconfig's user, over HTTPS with its CA and client certificate. */
async function getJson(path: string, accept: string): Promise<unknown> {
  const options: RequestOptions = { headers: { Accept: accept } };
  await kc.applyToHTTPSOptions(options);
  return new Promise((resolve, reject) => {
    get(`${cluster.url}${path}`, options, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve(JSON.parse(body)));
    }).on('error', reject);
  });
}

beforeEach(async () => {
  cluster.clock.resume(); // a test may have paused it
  // Back to the baseline: the CRD, no Websites, no Deployments, the node as it was. Fault
  // rules outlive a reset on purpose; clear them here.
  await cluster.reset();
  cluster.faults.clear();
  cluster.faults.clearInjected();
  failures = [];
  operator = await startWebsiteOperator({ kubeConfig: kc, clock: cluster.clock, log: (message) => failures.push(message) });
  // settle() (and every step of clock.advance) waits for the operator's queue too.
  untrack = cluster.track('website-operator', () => operator.activity());
});

afterEach(async () => {
  untrack();
  await operator.stop();
});

/** The part of a meta.k8s.io Table the test reads. */
interface PrintedTable {
  columnDefinitions: Array<{ name: string }>;
  rows: Array<{ cells: unknown[] }>;
}

async function createWebsite(name: string, spec: WebsiteSpec): Promise<Website> {
  const body = { apiVersion: `${GROUP}/${VERSION}`, kind: 'Website', metadata: { name }, spec };
  return (await custom.createNamespacedCustomObject({ ...websiteApi, body })) as Website;
}

async function getWebsite(name: string): Promise<Website> {
  return (await custom.getNamespacedCustomObject({ ...websiteApi, name })) as Website;
}

async function readyCondition(name: string): Promise<Condition | undefined> {
  return (await getWebsite(name)).status?.conditions?.find((c) => c.type === 'Ready');
}

async function podPhases(instance: string): Promise<Array<string | undefined>> {
  const pods = await core.listNamespacedPod({ namespace: NS, labelSelector: `app.kubernetes.io/instance=${instance}` });
  return pods.items.map((pod) => pod.status?.phase);
}

/** statusCode is the HTTP status of a failed client-node call. */
async function statusCode(call: Promise<unknown>): Promise<number | string> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  return err instanceof ApiException ? err.code : String(err);
}

describe('the Website operator', () => {
  it('turns a Website into a Deployment whose pods run, reports it Ready, and follows spec changes', async () => {
    const created = await createWebsite('shop', { image: 'nginx:1.27', replicas: 2, port: 8080 });
    await cluster.settle();

    const deployment = await apps.readNamespacedDeployment({ namespace: NS, name: 'shop' });
    expect(deployment.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Website', name: 'shop', uid: created.metadata?.uid, controller: true }),
    ]);
    expect(deployment.spec?.template.spec?.containers[0]).toMatchObject({ image: 'nginx:1.27', ports: [expect.objectContaining({ containerPort: 8080 })] });
    expect(await podPhases('shop')).toEqual(['Running', 'Running']);
    const website = await getWebsite('shop');
    expect(website.status).toMatchObject({ observedGeneration: 1, readyReplicas: 2 });
    expect(await readyCondition('shop')).toMatchObject({ status: 'True', reason: 'Available', message: '2/2 replicas ready' });

    // `kubectl get websites` prints the CRD's additionalPrinterColumns (a server-side Table).
    const table = (await getJson(`/apis/${GROUP}/${VERSION}/namespaces/${NS}/${PLURAL}`, 'application/json;as=Table;v=v1;g=meta.k8s.io')) as PrintedTable;
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Image', 'Desired', 'Ready', 'Status', 'Age']);
    expect(table.rows[0]?.cells.slice(0, 5)).toEqual(['shop', 'nginx:1.27', 2, 2, 'Available']);

    // A spec change is a new generation: the Deployment follows, and status catches up with it.
    await custom.patchNamespacedCustomObject({ ...websiteApi, name: 'shop', body: [{ op: 'replace', path: '/spec/replicas', value: 3 }] });
    await cluster.settle();
    expect((await apps.readNamespacedDeployment({ namespace: NS, name: 'shop' })).spec?.replicas).toBe(3);
    expect((await getWebsite('shop')).status).toMatchObject({ observedGeneration: 2, readyReplicas: 3 });
    expect(failures).toEqual([]);
  });

  it('is served with the CRD schema: defaults filled in, bad specs refused with 422', async () => {
    const created = await createWebsite('plain', { image: 'nginx:1.27' });
    expect(created.spec).toEqual({ image: 'nginx:1.27', replicas: 1, port: 80 });
    expect(await statusCode(createWebsite('too-many', { image: 'nginx:1.27', replicas: 11 }))).toBe(422);
    // The x-kubernetes-validations (CEL) rule.
    expect(await statusCode(createWebsite('floating', { image: 'nginx:latest' }))).toBe(422);
  });

  it('reports Stalled once pods cannot start for the progress deadline, on cluster time', async () => {
    // No room for pods: the only node is cordoned, so they stay Pending.
    const [node] = (await core.listNode()).items;
    await core.patchNode({ name: node!.metadata!.name!, body: [{ op: 'add', path: '/spec/unschedulable', value: true }] });
    cluster.clock.pause(); // from here on, cluster time moves only when the test says so
    await createWebsite('stuck', { image: 'nginx:1.27' });
    await cluster.settle();
    expect(await readyCondition('stuck')).toMatchObject({ status: 'False', reason: 'Progressing', message: '0/1 replicas ready' });

    // The operator asked to look again at the deadline (60 s); advance fires that requeue (and
    // every other timer due on the way) and settles after each, in a few milliseconds.
    await cluster.clock.advance(59_000);
    expect(await readyCondition('stuck')).toMatchObject({ reason: 'Progressing' });
    await cluster.clock.advance(1_000);
    expect(await readyCondition('stuck')).toMatchObject({ status: 'False', reason: 'Stalled', message: '0/1 replicas ready after 60s' });
    expect(failures).toEqual([]);
  });

  it('recovers when its first status update fails with 409 Conflict', async () => {
    // Select the operator's requests by its field manager (a user agent works too).
    const rule = cluster.faults.add({
      fieldManager: FIELD_MANAGER,
      verbs: ['update'],
      resource: `${PLURAL}.${GROUP}`,
      subresource: 'status',
      error: 409,
      count: 1,
    });
    await createWebsite('retry', { image: 'nginx:1.27' });
    await cluster.settle();

    expect(cluster.faults.injected()).toEqual([
      expect.objectContaining({
        ruleId: rule.id,
        request: expect.objectContaining({ method: 'PUT', verb: 'update' }),
        injected: [expect.objectContaining({ type: 'error', code: 409 })],
      }),
    ]);
    expect(cluster.faults.get(rule.id)?.status).toEqual({ fired: 1, active: false });
    expect(await readyCondition('retry')).toMatchObject({ status: 'True' });
    // It re-read and wrote again at once: no reconcile failed into the queue's backoff.
    expect(failures).toEqual([]);
  });

  it('leaves deleting the Deployment to the garbage collector when the Website is deleted', async () => {
    await createWebsite('temp', { image: 'nginx:1.27', replicas: 2 });
    await cluster.settle();
    expect(await podPhases('temp')).toEqual(['Running', 'Running']);

    await custom.deleteNamespacedCustomObject({ ...websiteApi, name: 'temp' });
    // The garbage collector picks up kinds added since it started (the CRD of beforeAll) when
    // it re-runs discovery, every 30 s as in kube-controller-manager: skip that wait.
    await cluster.clock.advance(30_000);
    await cluster.settle();
    expect(await statusCode(apps.readNamespacedDeployment({ namespace: NS, name: 'temp' }))).toBe(404);
    expect(await podPhases('temp')).toEqual([]);
  });

  it('starts every test from the just-started cluster', async () => {
    // Whatever ran before: reset() removed its objects, uncordoned the node, and the rules are gone.
    expect((await custom.listNamespacedCustomObject(websiteApi)).items).toEqual([]);
    expect((await apps.listNamespacedDeployment({ namespace: NS })).items).toEqual([]);
    expect((await core.listNode()).items.map((n) => n.spec?.unschedulable ?? false)).toEqual([false]);
    expect(cluster.faults.list()).toEqual([]);
  });
});
