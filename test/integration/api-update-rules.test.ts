/**
 * The size and update rules kube-apiserver enforces, through real HTTP: the 1 MiB data limit
 * of ConfigMaps and Secrets, the `immutable` flag, and the fields each kind fixes at creation
 * (Job template and selector, a Service's cluster IPs, a StatefulSet's claim templates, a
 * claim's spec, …), each refused with kube-apiserver's message. Also the name label every
 * Namespace carries.
 */
import { describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { configMap, namespace, paths } from '../support/objects.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const MERGE = 'application/merge-patch+json';
const MIB = 1024 * 1024;

describe('update rules', () => {
  const cluster = useTestCluster({ lifetime: 'file' });
  const url = (path: string) => `${cluster.url}${path}`;
  const create = async (collection: string, body: unknown) => {
    const res = await request(url(collection), { method: 'POST', body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const patch = (path: string, body: unknown) => request(url(path), { method: 'PATCH', body, contentType: MERGE });
  const put = (path: string, body: unknown) => request(url(path), { method: 'PUT', body });

  describe('ConfigMap and Secret data', () => {
    const secrets = '/api/v1/namespaces/default/secrets';

    it('refuses more than 1 MiB of ConfigMap data, counting UTF-8 bytes and decoded binaryData', async () => {
      const atLimit = await request(url(paths.configmaps()), { method: 'POST', body: configMap('at-limit', {}, { a: 'x'.repeat(MIB) }) });
      expect(atLimit.status).toBe(201);
      // 'é' is two bytes: half a mebibyte of them is one byte over together with the extra 'x'.
      const wide = await request(url(paths.configmaps()), {
        method: 'POST',
        body: configMap('wide', {}, { a: 'é'.repeat(MIB / 2), b: 'x' }),
      });
      expect(wide.status).toBe(422);
      expect(wide.body.message).toBe('ConfigMap "wide" is invalid: []: Too long: may not be more than 1048576 bytes');
      expect(wide.body.details.causes).toEqual([{ reason: 'FieldValueTooLong', message: 'Too long: may not be more than 1048576 bytes', field: '[]' }]);
      const binary = { ...configMap('binary', {}, { a: 'x' }), binaryData: { b: Buffer.alloc(MIB).toString('base64') } };
      expect((await request(url(paths.configmaps()), { method: 'POST', body: binary })).status).toBe(422);
    });

    it('refuses more than 1 MiB of decoded Secret data', async () => {
      const secret = (name: string, bytes: number) => ({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name },
        data: { a: Buffer.alloc(bytes).toString('base64') },
      });
      expect((await request(url(secrets), { method: 'POST', body: secret('fits', MIB) })).status).toBe(201);
      const over = await request(url(secrets), { method: 'POST', body: secret('over', MIB + 1) });
      expect(over.status).toBe(422);
      expect(over.body.message).toBe('Secret "over" is invalid: data: Too long: may not be more than 1048576 bytes');
    });

    it('keeps an immutable ConfigMap: neither its data nor the flag may change', async () => {
      await create(paths.configmaps(), { ...configMap('frozen'), binaryData: { b: 'AA==' }, immutable: true });
      const res = await patch(paths.configmap('frozen'), { immutable: false, data: { k: 'new' }, binaryData: { b: 'AQ==' } });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(
        'ConfigMap "frozen" is invalid: [immutable: Forbidden: field is immutable when `immutable` is set, data: Forbidden: field is immutable when `immutable` is set, binaryData: Forbidden: field is immutable when `immutable` is set]',
      );
      expect((await patch(paths.configmap('frozen'), { metadata: { labels: { ok: 'yes' } } })).status).toBe(200);
    });

    it('keeps an immutable Secret and the type of any Secret', async () => {
      await create(secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'frozen' }, stringData: { a: 'b' }, immutable: true });
      const res = await patch(`${secrets}/frozen`, { immutable: null, stringData: { a: 'c' }, type: 'example.com/other' });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(
        'Secret "frozen" is invalid: [type: Invalid value: "example.com/other": field is immutable, immutable: Forbidden: field is immutable when `immutable` is set, data: Forbidden: field is immutable when `immutable` is set]',
      );
    });
  });

  describe('fields fixed at creation', () => {
    const jobs = '/apis/batch/v1/namespaces/default/jobs';
    const job = (name: string, spec: Record<string, unknown> = {}) => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } }, ...spec },
    });

    it('keeps a Job template, selector and completions; parallelism and suspend may change', async () => {
      await create(jobs, job('fixed', { completions: 2 }));
      const template = await patch(`${jobs}/fixed`, { spec: { template: { spec: { containers: [{ name: 'main', image: 'alpine' }] } } } });
      expect(template.status).toBe(422);
      expect(template.body.details.causes.map((c: any) => c.field)).toEqual(['spec.template']);
      expect(template.body.message).toMatch(/^Job.batch "fixed" is invalid: spec.template: Invalid value: .*: field is immutable$/);
      const completions = await patch(`${jobs}/fixed`, { spec: { completions: 3 } });
      expect(completions.body.message).toBe('Job.batch "fixed" is invalid: spec.completions: Invalid value: 3: field is immutable');
      const selector = await patch(`${jobs}/fixed`, { spec: { selector: { matchLabels: { other: 'x' } } } });
      expect(selector.body.details.causes.map((c: any) => c.field)).toContain('spec.selector');
      expect((await patch(`${jobs}/fixed`, { spec: { parallelism: 2, suspend: true } })).status).toBe(200);
    });

    it('lets a suspended Job that never started move its pods, and an Indexed Job scale', async () => {
      await create(jobs, job('waiting', { suspend: true }));
      const moved = await patch(`${jobs}/waiting`, { spec: { template: { spec: { nodeSelector: { zone: 'b' } } } } });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      await create(jobs, job('elastic', { completionMode: 'Indexed', completions: 2, parallelism: 2 }));
      expect((await patch(`${jobs}/elastic`, { spec: { completions: 4, parallelism: 4 } })).status).toBe(200);
      const alone = await patch(`${jobs}/elastic`, { spec: { completions: 5 } });
      expect(alone.body.message).toBe(
        'Job.batch "elastic" is invalid: spec.completions: Invalid value: 5: can only be modified in tandem with spec.parallelism',
      );
    });

    it("keeps a Service's cluster IP", async () => {
      const services = '/api/v1/namespaces/default/services';
      const created = await create(services, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } });
      const ip = created.spec.clusterIP;
      const other = ip === '10.96.0.99' ? '10.96.0.98' : '10.96.0.99';
      const res = await patch(`${services}/web`, { spec: { clusterIP: other } });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(`Service "web" is invalid: spec.clusterIPs[0]: Invalid value: []string{"${other}"}: may not change once set`);
      // Omitting it keeps it (what a PUT of the original manifest does).
      const replaced = await put(`${services}/web`, { ...created, spec: { ports: [{ port: 81 }] } });
      expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
      expect(replaced.body.spec.clusterIPs).toEqual([ip]);
    });

    it("keeps a StatefulSet's selector, serviceName and claim templates", async () => {
      const sets = '/apis/apps/v1/namespaces/default/statefulsets';
      const labels = { app: 'db' };
      await create(sets, {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'db' },
        spec: {
          serviceName: 'db',
          selector: { matchLabels: labels },
          template: { metadata: { labels }, spec: { containers: [{ name: 'db', image: 'postgres' }] } },
        },
      });
      const forbidden =
        "StatefulSet.apps \"db\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";
      expect((await patch(`${sets}/db`, { spec: { serviceName: 'other' } })).body.message).toBe(forbidden);
      const selector = await patch(`${sets}/db`, {
        spec: { selector: { matchLabels: { app: 'db', tier: 'x' } }, template: { metadata: { labels: { app: 'db', tier: 'x' } } } },
      });
      expect(selector.body.message).toBe(forbidden);
      expect((await patch(`${sets}/db`, { spec: { replicas: 3, minReadySeconds: 5, revisionHistoryLimit: 2 } })).status).toBe(200);
    });

    it('keeps a claim spec; a bound claim may grow its storage, not shrink below its capacity', async () => {
      const claims = '/api/v1/namespaces/default/persistentvolumeclaims';
      // A class that allows expansion (PersistentVolumeClaimResize refuses growth otherwise).
      const elastic = {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'elastic' },
        provisioner: 'kubesim.io/simulated',
        allowVolumeExpansion: true,
      };
      await create('/apis/storage.k8s.io/v1/storageclasses', elastic);
      const claim = await create(claims, {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'elastic' },
      });
      const pending = await patch(`${claims}/data`, { spec: { resources: { requests: { storage: '2Gi' } } } });
      expect(pending.status).toBe(422);
      expect(pending.body.message).toMatch(
        /^PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n/,
      );
      // Bound as the binder leaves it: volumeName set once, then status.
      expect((await patch(`${claims}/data`, { spec: { volumeName: 'pv-data' } })).status).toBe(200);
      const bound = { ...claim, status: { phase: 'Bound', capacity: { storage: '1Gi' } } };
      const statusWrite = await put(`${claims}/data/status`, { ...bound, metadata: { name: 'data' } });
      expect(statusWrite.status, JSON.stringify(statusWrite.body)).toBe(200);
      expect((await patch(`${claims}/data`, { spec: { volumeName: 'pv-other' } })).status).toBe(422);
      expect((await patch(`${claims}/data`, { spec: { resources: { requests: { storage: '2Gi' } } } })).status).toBe(200);
      const shrunk = await patch(`${claims}/data`, { spec: { resources: { requests: { storage: '1Gi' } } } });
      expect(shrunk.body.message).toBe(
        'PersistentVolumeClaim "data" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than status.capacity',
      );
      expect((await patch(`${claims}/data`, { spec: { accessModes: ['ReadWriteMany'] } })).status).toBe(422);
    });

    it("keeps an EndpointSlice's address type and a Node's pod CIDRs and provider ID", async () => {
      const slices = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
      await create(slices, { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 's' }, addressType: 'IPv4', endpoints: [] });
      const slice = await patch(`${slices}/s`, { addressType: 'IPv6' });
      expect(slice.body.message).toBe('EndpointSlice.discovery.k8s.io "s" is invalid: addressType: Invalid value: "IPv6": field is immutable');

      await create('/api/v1/nodes', {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'n1' },
        spec: { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] },
      });
      const node = await patch('/api/v1/nodes/n1', { spec: { podCIDR: '10.244.2.0/24', podCIDRs: ['10.244.2.0/24'], providerID: 'kind://a' } });
      expect(node.body.message).toBe('Node "n1" is invalid: spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid');
      expect((await patch('/api/v1/nodes/n1', { spec: { providerID: 'kind://a' } })).status).toBe(200);
      const provider = await patch('/api/v1/nodes/n1', { spec: { providerID: 'kind://b' } });
      expect(provider.body.message).toBe('Node "n1" is invalid: spec.providerID: Forbidden: node updates may not change providerID except from "" to valid');
    });

    it('refuses a CronJob name longer than 52 characters on create', async () => {
      const name = 'c'.repeat(53);
      const res = await request(url('/apis/batch/v1/namespaces/default/cronjobs'), {
        method: 'POST',
        body: { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name }, spec: { schedule: '* * * * *', jobTemplate: job('x') } },
      });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(`CronJob.batch "${name}" is invalid: metadata.name: Invalid value: "${name}": must be no more than 52 characters`);
    });
  });

  describe('namespaces', () => {
    it('label themselves with their name, on create and on every update, generated names too', async () => {
      const created = await create(paths.namespaces(), namespace('team-a', { 'kubernetes.io/metadata.name': 'wrong', owner: 'me' }));
      expect(created.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-a', owner: 'me' });
      const updated = await put(paths.namespace('team-a'), { ...created, metadata: { ...created.metadata, labels: { owner: 'you' } } });
      expect(updated.body.metadata.labels).toEqual({ owner: 'you', 'kubernetes.io/metadata.name': 'team-a' });
      const generated = await create(paths.namespaces(), { apiVersion: 'v1', kind: 'Namespace', metadata: { generateName: 'gen-' } });
      expect(generated.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': generated.metadata.name });
      const selected = await request(url(`${paths.namespaces()}?labelSelector=kubernetes.io/metadata.name%3Dteam-a`));
      expect(selected.body.items.map((ns: any) => ns.metadata.name)).toEqual(['team-a']);
      const defaults = await request(url(paths.namespace('default')));
      expect(defaults.body.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'default' });
    });
  });
});
