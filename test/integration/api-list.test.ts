/** Lists: selectors, all-namespaces paths, pagination, snapshot reads by resourceVersion,
 * and server-side Tables (`kubectl get`). */
import { beforeEach, describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { configMap, deployment, event, names, paths, pod } from '../support/objects.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const MERGE = 'application/merge-patch+json';

describe('API lists', () => {
  const cluster = useTestCluster();
  const url = (path: string) => `${cluster.url}${path}`;
  const list = (path: string, accept?: string) => request(url(path), { accept });
  const post = async (collection: string, body: unknown) => {
    const res = await request(url(collection), { method: 'POST', body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };

  describe('label selectors', () => {
    beforeEach(async () => {
      await post(paths.configmaps(), configMap('a', { env: 'prod', tier: 'fe' }));
      await post(paths.configmaps(), configMap('b', { env: 'dev', tier: 'be' }));
      await post(paths.configmaps(), configMap('c', { env: 'prod' }));
      await post(paths.configmaps(), configMap('d'));
    });

    it.each([
      ['env=prod', ['a', 'c']],
      ['env==prod', ['a', 'c']],
      ['env!=prod', ['b', 'd']],
      ['env in (prod,dev)', ['a', 'b', 'c']],
      ['env notin (prod)', ['b', 'd']],
      ['tier', ['a', 'b']],
      ['!tier', ['c', 'd']],
      ['env=prod,tier=fe', ['a']],
      ['env=prod,!tier', ['c']],
      ['env=staging', []],
      ['', ['a', 'b', 'c', 'd']],
    ])('labelSelector %j selects %j', async (selector, expected) => {
      const res = await list(`${paths.configmaps()}?labelSelector=${encodeURIComponent(selector)}`);
      expect(res.status).toBe(200);
      expect(names(res.body)).toEqual(expected);
    });

    // Messages are apimachinery's labels parser's, inconsistent commas included.
    it.each([
      ['env in prod', "unable to parse requirement: found 'prod' expected: '('"],
      ['env=(x', "unable to parse requirement: found '(', expected: identifier"],
      ['!', "unable to parse requirement: found '', expected: identifier"],
      ['Bad Key=x', "unable to parse requirement: found 'Key', expected: in, notin, =, ==, !=, gt, lt"],
      ['env=a b', "found 'b', expected: ',' or 'end of string'"],
    ])('answers 400 for the malformed selector %j', async (selector, message) => {
      const res = await list(`${paths.configmaps()}?labelSelector=${encodeURIComponent(selector)}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400, message });
    });
  });

  describe('field selectors', () => {
    it('selects by metadata.name and metadata.namespace', async () => {
      await post(paths.configmaps(), configMap('a'));
      await post(paths.configmaps(), configMap('b'));
      await post(paths.configmaps('kube-system'), configMap('a'));
      expect(names((await list(`${paths.configmaps()}?fieldSelector=metadata.name%3Da`)).body)).toEqual(['a']);
      expect(names((await list(`${paths.configmaps()}?fieldSelector=metadata.name!%3Da`)).body)).toEqual(['b']);
      expect(names((await list(`${paths.configmaps()}?fieldSelector=metadata.name%3D%3Db`)).body)).toEqual(['b']);
      const all = await list('/api/v1/configmaps?fieldSelector=metadata.name%3Da');
      expect(all.body.items.map((i: any) => i.metadata.namespace)).toEqual(['default', 'kube-system']);
      const inNs = await list('/api/v1/configmaps?fieldSelector=metadata.namespace%3Dkube-system,metadata.name%3Da');
      expect(inNs.body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`)).toEqual(['kube-system/a']);
    });

    it('selects pods by spec.nodeName and status.phase', async () => {
      await post(paths.pods(), pod('bound'));
      await post(paths.pods(), pod('free'));
      const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'bound' }, target: { kind: 'Node', name: 'node-1' } };
      expect((await request(url(`${paths.pod('bound')}/binding`), { method: 'POST', body: binding })).status).toBe(201);
      await request(url(`${paths.pod('bound')}/status`), { method: 'PATCH', body: { status: { phase: 'Running' } }, contentType: MERGE });
      expect(names((await list('/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-1')).body)).toEqual(['bound']);
      expect(names((await list(`${paths.pods()}?fieldSelector=spec.nodeName%3D`)).body)).toEqual(['free']);
      expect(names((await list(`${paths.pods()}?fieldSelector=status.phase%3DRunning`)).body)).toEqual(['bound']);
      // What `kubectl describe node` sends.
      const describeNode = '/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-1%2Cstatus.phase%21%3DSucceeded%2Cstatus.phase%21%3DFailed&limit=500';
      expect(names((await list(describeNode)).body)).toEqual(['bound']);
    });

    it('selects events by involvedObject fields, an empty namespace matching cluster-scoped objects', async () => {
      await post(
        paths.events(),
        event('web.1', { kind: 'Deployment', namespace: 'default', name: 'web', uid: 'u-1', apiVersion: 'apps/v1' }, 'ScalingReplicaSet'),
      );
      await post(paths.events(), event('web.2', { kind: 'ReplicaSet', namespace: 'default', name: 'web-abc', uid: 'u-2', apiVersion: 'apps/v1' }));
      await post(paths.events(), event('node.1', { kind: 'Node', name: 'node-1', uid: 'node-1' }, 'NodeReady'));
      const forDeploy = 'fieldSelector=involvedObject.kind%3DDeployment%2CinvolvedObject.apiVersion%3Dapps%2Fv1%2CinvolvedObject.name%3Dweb';
      expect(names((await list(`${paths.events()}?${forDeploy}`)).body)).toEqual(['web.1']);
      const describe =
        'fieldSelector=involvedObject.name%3Dweb%2CinvolvedObject.namespace%3Ddefault%2CinvolvedObject.kind%3DDeployment%2CinvolvedObject.uid%3Du-1&limit=500';
      expect(names((await list(`${paths.events()}?${describe}`)).body)).toEqual(['web.1']);
      const node = 'fieldSelector=involvedObject.uid%3Dnode-1%2CinvolvedObject.name%3Dnode-1%2CinvolvedObject.namespace%3D%2CinvolvedObject.kind%3DNode';
      expect(names((await list(`/api/v1/events?${node}`)).body)).toEqual(['node.1']);
      expect(names((await list(`${paths.events()}?fieldSelector=reason%3DScalingReplicaSet`)).body)).toEqual(['web.1']);
    });

    it('answers 400 for a field the kind does not index', async () => {
      const res = await list(`${paths.configmaps()}?fieldSelector=spec.foo%3Dx`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400, message: 'field label not supported: spec.foo' });
      const phase = await list(`${paths.deployments()}?fieldSelector=status.phase%3DRunning`);
      expect(phase.status).toBe(400);
      expect(phase.body.message).toBe('field label not supported: status.phase');
    });
  });

  describe('all-namespaces paths', () => {
    it('lists pods and deployments across namespaces with kind and apiVersion on items', async () => {
      await post(paths.pods(), pod('p1'));
      await post(paths.pods('kube-system'), pod('p0'));
      await post(paths.deployments('kube-system'), deployment('dns'));
      await post(paths.deployments(), deployment('web'));
      const pods = await list('/api/v1/pods');
      expect(pods.body.kind).toBe('PodList');
      expect(pods.body.items.map((p: any) => `${p.metadata.namespace}/${p.metadata.name}`)).toEqual(['default/p1', 'kube-system/p0']);
      const deploys = await list('/apis/apps/v1/deployments');
      expect(deploys.body.kind).toBe('DeploymentList');
      expect(deploys.body.apiVersion).toBe('apps/v1');
      expect(deploys.body.metadata.resourceVersion).toBe(String(cluster.server.store.currentRevision));
      expect(deploys.body.items.map((d: any) => [d.kind, d.apiVersion, d.metadata.namespace, d.metadata.name])).toEqual([
        ['Deployment', 'apps/v1', 'default', 'web'],
        ['Deployment', 'apps/v1', 'kube-system', 'dns'],
      ]);
    });
  });

  describe('pagination', () => {
    beforeEach(async () => {
      for (const name of ['a', 'b', 'c', 'd', 'e']) await post(paths.configmaps(), configMap(name, { odd: String('ace'.includes(name)) }, { v: '1' }));
    });

    it("pages with limit/continue and remainingItemCount, consistent with the first page's revision", async () => {
      const first = await list(`${paths.configmaps()}?limit=2`);
      expect(names(first.body)).toEqual(['a', 'b']);
      expect(first.body.metadata.remainingItemCount).toBe(3);
      expect(first.body.metadata.continue).toEqual(expect.any(String));
      const revision = first.body.metadata.resourceVersion;

      // Writes after the first page must not show up in later pages.
      await post(paths.configmaps(), configMap('bb'));
      await post(paths.configmaps(), configMap('z'));
      await request(url(paths.configmap('c')), { method: 'PATCH', body: { data: { v: '2' } }, contentType: MERGE });
      await request(url(paths.configmap('d')), { method: 'DELETE' });

      const second = await list(`${paths.configmaps()}?limit=2&continue=${encodeURIComponent(first.body.metadata.continue)}`);
      expect(second.status).toBe(200);
      expect(names(second.body)).toEqual(['c', 'd']);
      expect(second.body.items[0].data).toEqual({ v: '1' });
      expect(second.body.metadata.resourceVersion).toBe(revision);
      expect(second.body.metadata.remainingItemCount).toBe(1);

      const third = await list(`${paths.configmaps()}?limit=2&continue=${encodeURIComponent(second.body.metadata.continue)}`);
      expect(names(third.body)).toEqual(['e']);
      expect(third.body.metadata.continue).toBeUndefined();
      expect(third.body.metadata.remainingItemCount).toBeUndefined();

      expect(names((await list(paths.configmaps())).body)).toEqual(['a', 'b', 'bb', 'c', 'e', 'z']);
    });

    it('counts only matching objects with a selector and omits remainingItemCount', async () => {
      const first = await list(`${paths.configmaps()}?limit=2&labelSelector=odd%3Dtrue`);
      expect(names(first.body)).toEqual(['a', 'c']);
      expect(first.body.metadata.continue).toEqual(expect.any(String));
      expect(first.body.metadata.remainingItemCount).toBeUndefined();
      const next = await list(`${paths.configmaps()}?limit=2&labelSelector=odd%3Dtrue&continue=${encodeURIComponent(first.body.metadata.continue)}`);
      expect(names(next.body)).toEqual(['e']);
      expect(next.body.metadata.continue).toBeUndefined();
    });

    it('pages across namespaces on the all-namespaces path', async () => {
      await post(paths.configmaps('kube-public'), configMap('a'));
      const seen: string[] = [];
      let token: string | undefined;
      do {
        const page = await list(`/api/v1/configmaps?limit=2${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
        expect(page.status).toBe(200);
        seen.push(...page.body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`));
        token = page.body.metadata.continue;
      } while (token);
      expect(seen).toEqual(['default/a', 'default/b', 'default/c', 'default/d', 'default/e', 'kube-public/a']);
    });

    it('sets no continue when the limit covers everything', async () => {
      const res = await list(`${paths.configmaps()}?limit=500`);
      expect(names(res.body)).toHaveLength(5);
      expect(res.body.metadata.continue).toBeUndefined();
    });

    it('answers 410 Expired for a continue token whose revision was compacted', async () => {
      const first = await list(`${paths.configmaps()}?limit=2`);
      await post(paths.configmaps(), configMap('later'));
      cluster.server.store.compact({ keepRevisions: 0, maxAgeMs: 0 });
      const res = await list(`${paths.configmaps()}?limit=2&continue=${encodeURIComponent(first.body.metadata.continue)}`);
      expect(res.status).toBe(410);
      expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
      expect(res.body.message).toMatch(/^The provided continue parameter is too old to display a consistent list result\./);
    });

    it('answers 400 for a continue token it did not issue', async () => {
      const res = await list(`${paths.configmaps()}?limit=2&continue=garbage`);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('continue key is not valid: "garbage"');
    });
  });

  describe('resourceVersion', () => {
    it('resourceVersionMatch=Exact returns the state at that revision', async () => {
      const created = await post(paths.configmaps(), configMap('x', {}, { v: 'old' }));
      const rv = created.metadata.resourceVersion;
      await request(url(paths.configmap('x')), { method: 'PATCH', body: { data: { v: 'new' } }, contentType: MERGE });
      await post(paths.configmaps(), configMap('y'));
      const past = await list(`${paths.configmaps()}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
      expect(past.status).toBe(200);
      expect(past.body.metadata.resourceVersion).toBe(rv);
      expect(names(past.body)).toEqual(['x']);
      expect(past.body.items[0].data).toEqual({ v: 'old' });
      expect(past.body.items[0].metadata.resourceVersion).toBe(rv);

      await request(url(paths.configmap('x')), { method: 'DELETE' });
      const stillThere = await list(`${paths.configmaps()}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
      expect(names(stillThere.body)).toEqual(['x']);
      const now = await list(paths.configmaps());
      expect(names(now.body)).toEqual(['y']);
    });

    it('serves the current state for resourceVersion=0 and for NotOlderThan', async () => {
      const created = await post(paths.configmaps(), configMap('x'));
      await post(paths.configmaps(), configMap('y'));
      const zero = await list(`${paths.configmaps()}?resourceVersion=0&limit=500`);
      expect(names(zero.body)).toEqual(['x', 'y']);
      const notOlder = await list(`${paths.configmaps()}?resourceVersion=${created.metadata.resourceVersion}&resourceVersionMatch=NotOlderThan`);
      expect(names(notOlder.body)).toEqual(['x', 'y']);
      expect(notOlder.body.metadata.resourceVersion).toBe(String(cluster.server.store.currentRevision));
    });

    it('answers 410 Expired for an Exact revision that was compacted', async () => {
      const created = await post(paths.configmaps(), configMap('x'));
      await post(paths.configmaps(), configMap('y'));
      const compacted = cluster.server.store.compact({ keepRevisions: 0, maxAgeMs: 0 });
      const res = await list(`${paths.configmaps()}?resourceVersion=${created.metadata.resourceVersion}&resourceVersionMatch=Exact`);
      expect(res.status).toBe(410);
      expect(res.body).toMatchObject({ reason: 'Expired', code: 410, message: `too old resource version: ${created.metadata.resourceVersion} (${compacted})` });
    });

    it('answers 504 for a resourceVersion the server has not reached', async () => {
      const current = cluster.server.store.currentRevision;
      const res = await list(`${paths.configmaps()}?resourceVersion=${current + 1000}`);
      expect(res.status).toBe(504);
      expect(res.body).toMatchObject({
        kind: 'Status',
        reason: 'Timeout',
        code: 504,
        message: `Timeout: Too large resource version: ${current + 1000}, current: ${current}`,
        details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
      });
    });

    it('answers 400 for a malformed resourceVersion or a match without one', async () => {
      const bad = await list(`${paths.configmaps()}?resourceVersion=abc`);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('invalid resource version: "abc"');
      const noRv = await list(`${paths.configmaps()}?resourceVersionMatch=Exact`);
      expect(noRv.status).toBe(400);
      expect(noRv.body.message).toBe('resourceVersionMatch is forbidden unless resourceVersion is provided');
    });
  });

  describe('Table', () => {
    beforeEach(async () => {
      await post(paths.deployments(), deployment('web'));
      await post(paths.deployments(), deployment('api', 3));
    });

    it('renders a list as a Table with every column, priority-1 ones included', async () => {
      const res = await list(`${paths.deployments()}?limit=500`, TABLE_ACCEPT);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body.kind).toBe('Table');
      expect(res.body.apiVersion).toBe('meta.k8s.io/v1');
      expect(res.body.metadata.resourceVersion).toBe(String(cluster.server.store.currentRevision));
      expect(res.body.columnDefinitions.map((c: any) => [c.name, c.priority])).toEqual([
        ['Name', 0],
        ['Ready', 0],
        ['Up-to-date', 0],
        ['Available', 0],
        ['Age', 0],
        ['Containers', 1],
        ['Images', 1],
        ['Selector', 1],
      ]);
      expect(res.body.columnDefinitions[0]).toMatchObject({ type: 'string', format: 'name' });
      for (const column of res.body.columnDefinitions) expect(column.description).toEqual(expect.any(String));
      expect(res.body.rows).toHaveLength(2);
      const [api, web] = res.body.rows;
      expect(web.cells).toEqual(['web', '0/2', 0, 0, expect.stringMatching(/^\d+s$/), 'nginx', 'nginx:1.25', 'app=web']);
      expect(api.cells[1]).toBe('0/3');
      expect(web.object).toEqual({
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: expect.objectContaining({
          name: 'web',
          namespace: 'default',
          labels: { app: 'web' },
          uid: expect.any(String),
          resourceVersion: expect.any(String),
        }),
      });
    });

    it('includes the full object with includeObject=Object and none with includeObject=None', async () => {
      const full = await list(`${paths.deployments()}?includeObject=Object`, TABLE_ACCEPT);
      expect(full.body.rows[1].object).toMatchObject({ kind: 'Deployment', apiVersion: 'apps/v1', metadata: { name: 'web' }, spec: { replicas: 2 } });
      const none = await list(`${paths.deployments()}?includeObject=None`, TABLE_ACCEPT);
      expect(none.body.rows).toHaveLength(2);
      for (const row of none.body.rows) expect(row).not.toHaveProperty('object');
    });

    it('renders a single object as a one-row Table', async () => {
      const res = await list(paths.deployment('web'), TABLE_ACCEPT);
      expect(res.body.kind).toBe('Table');
      expect(res.body.rows.map((r: any) => r.cells[0])).toEqual(['web']);
      expect(res.body.metadata.resourceVersion).toEqual(expect.any(String));
    });

    it('pages a Table with continue', async () => {
      const first = await list(`${paths.deployments()}?limit=1`, TABLE_ACCEPT);
      expect(first.body.rows.map((r: any) => r.cells[0])).toEqual(['api']);
      expect(first.body.metadata.continue).toEqual(expect.any(String));
      const next = await list(`${paths.deployments()}?limit=1&continue=${encodeURIComponent(first.body.metadata.continue)}`, TABLE_ACCEPT);
      expect(next.body.rows.map((r: any) => r.cells[0])).toEqual(['web']);
      expect(next.body.metadata.continue).toBeUndefined();
    });

    it("uses each kind's columns (pods, configmaps) and plain JSON without the Table Accept", async () => {
      await post(paths.pods(), pod('p'));
      const pods = await list(paths.pods(), TABLE_ACCEPT);
      expect(pods.body.columnDefinitions.map((c: any) => `${c.name}:${c.priority}`)).toEqual([
        'Name:0',
        'Ready:0',
        'Status:0',
        'Restarts:0',
        'Age:0',
        'IP:1',
        'Node:1',
        'Nominated Node:1',
        'Readiness Gates:1',
      ]);
      expect(pods.body.rows[0].cells.slice(0, 4)).toEqual(['p', '0/1', 'Pending', '0']);
      expect(pods.body.rows[0].cells.slice(5)).toEqual(['<none>', '<none>', '<none>', '<none>']);
      await post(paths.configmaps(), configMap('c', {}, { a: '1', b: '2' }));
      const cms = await list(paths.configmaps(), TABLE_ACCEPT);
      expect(cms.body.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Data', 'Age']);
      expect(cms.body.rows.find((r: any) => r.cells[0] === 'c').cells[1]).toBe(2);
      const plain = await list(paths.deployments(), 'application/json');
      expect(plain.body.kind).toBe('DeploymentList');
    });
  });
});
