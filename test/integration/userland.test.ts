/**
 * The simulated userland against a real API server: a container's environment (env, valueFrom,
 * envFrom, $(VAR), service links) and volumes (ConfigMap, Secret, downward API, projected with a
 * TokenRequest token, emptyDir, read-only mounts, updates after the sync delay) come from the
 * objects the server holds, read over HTTP as the kubelet's client reads them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserlandFactory } from '../../kubelet-sim/userland/index.js';
import { request } from '../support/http.js';
import { startTestCluster, type TestCluster } from '../support/test-cluster.js';
import { httpReader, run, sh, userlandFor } from '../support/userland.js';

let cluster: TestCluster;
const b64 = (text: string) => Buffer.from(text).toString('base64');

async function create(path: string, body: unknown): Promise<any> {
  const response = await request(`${cluster.url}${path}`, { method: 'POST', body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const ns = '/api/v1/namespaces/default';

beforeAll(async () => {
  cluster = await startTestCluster();
  await create(`${ns}/configmaps`, { metadata: { name: 'app-config' }, data: { MODE: 'debug', 'app.properties': 'a=1\nb=2\n' } });
  await create(`${ns}/secrets`, { metadata: { name: 'db' }, data: { password: b64('s3cret'), user: b64('admin') } });
  await create(`${ns}/serviceaccounts`, { metadata: { name: 'default' } });
  await create(`${ns}/services`, {
    metadata: { name: 'web-svc' },
    spec: {
      selector: { app: 'web' },
      ports: [
        { name: 'http', port: 80 },
        { name: 'https-alt', port: 443 },
      ],
    },
  });
  await create(`${ns}/services`, { metadata: { name: 'db-headless' }, spec: { clusterIP: 'None', selector: { app: 'db' }, ports: [{ port: 5432 }] } });
});
afterAll(() => cluster?.stop());

/** podFromServer creates the pod and returns it as the server stored it (uid, defaults). */
async function podFromServer(name: string, spec: Record<string, unknown>): Promise<any> {
  const pod = await create(`${ns}/pods`, { metadata: { name, labels: { app: 'web', tier: 'front' } }, spec: { nodeName: 'node-1', ...spec } });
  return { ...pod, status: { ...pod.status, phase: 'Running', podIP: '10.244.0.9', podIPs: [{ ip: '10.244.0.9' }] } };
}

const envLines = (stdout: string) =>
  Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

describe('userland environment from the API server', () => {
  it('sets env, valueFrom, envFrom with prefix, $(VAR) and HOSTNAME as the kubelet does', async () => {
    const pod = await podFromServer('env-pod', {
      containers: [
        {
          name: 'main',
          image: 'busybox',
          resources: { limits: { cpu: '500m', memory: '64Mi' }, requests: { cpu: '250m', memory: '32Mi' } },
          envFrom: [{ configMapRef: { name: 'app-config' }, prefix: 'CFG_' }, { secretRef: { name: 'db' } }],
          env: [
            { name: 'GREETING', value: 'hello' },
            { name: 'COMPOSED', value: '$(GREETING)-world $$(GREETING) $(UNDEFINED) $(CFG_MODE)' },
            { name: 'FROM_CM', valueFrom: { configMapKeyRef: { name: 'app-config', key: 'MODE' } } },
            { name: 'FROM_SECRET', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
            { name: 'MISSING_OK', valueFrom: { configMapKeyRef: { name: 'nope', key: 'x', optional: true } } },
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'POD_NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
            { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
            { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
            { name: 'TIER', valueFrom: { fieldRef: { fieldPath: "metadata.labels['tier']" } } },
            { name: 'CPU_MILLIS', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '1m' } } },
            { name: 'CPU_CORES', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
            { name: 'MEM_MI', valueFrom: { resourceFieldRef: { resource: 'requests.memory', divisor: '1Mi' } } },
            { name: 'SVC_REF', value: 'http://$(WEB_SVC_SERVICE_HOST):$(WEB_SVC_SERVICE_PORT)' },
          ],
        },
      ],
    });
    const { userland } = userlandFor(pod, httpReader(cluster.url));
    const env = envLines((await run(userland, ['env'])).stdout);
    const web = (await request(`${cluster.url}${ns}/services/web-svc`)).body.spec.clusterIP;
    expect(env).toMatchObject({
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      HOSTNAME: 'env-pod',
      HOME: '/root',
      CFG_MODE: 'debug',
      'CFG_app.properties': 'a=1',
      password: 's3cret',
      user: 'admin',
      GREETING: 'hello',
      COMPOSED: 'hello-world $(GREETING) $(UNDEFINED) debug',
      FROM_CM: 'debug',
      FROM_SECRET: 's3cret',
      POD_NAME: 'env-pod',
      POD_NS: 'default',
      POD_IP: '10.244.0.9',
      NODE: 'node-1',
      TIER: 'front',
      CPU_MILLIS: '500',
      CPU_CORES: '1',
      MEM_MI: '32',
      SVC_REF: `http://${web}:80`,
      WEB_SVC_SERVICE_HOST: web,
      WEB_SVC_SERVICE_PORT: '80',
      WEB_SVC_SERVICE_PORT_HTTP: '80',
      WEB_SVC_SERVICE_PORT_HTTPS_ALT: '443',
      WEB_SVC_PORT: `tcp://${web}:80`,
      WEB_SVC_PORT_443_TCP: `tcp://${web}:443`,
      WEB_SVC_PORT_443_TCP_PROTO: 'tcp',
      WEB_SVC_PORT_443_TCP_PORT: '443',
      WEB_SVC_PORT_443_TCP_ADDR: web,
    });
    expect(env).not.toHaveProperty('MISSING_OK');
    expect(Object.keys(env).some((name) => name.startsWith('DB_HEADLESS'))).toBe(false);
    expect((await run(userland, ['printenv', 'CFG_app.properties'])).stdout).toBe('a=1\nb=2\n\n');
  });

  it('leaves out the namespace Services with enableServiceLinks false, keeping the kubernetes Service', async () => {
    const pod = await podFromServer('no-links', { enableServiceLinks: false, containers: [{ name: 'main', image: 'busybox' }] });
    const env = envLines((await run(userlandFor(pod, httpReader(cluster.url)).userland, ['env'])).stdout);
    expect(Object.keys(env).some((name) => name.startsWith('WEB_SVC_'))).toBe(false);
    const kubernetes = await request(`${cluster.url}${ns}/services/kubernetes`);
    if (kubernetes.status === 200) expect(env['KUBERNETES_SERVICE_HOST']).toBe(kubernetes.body.spec.clusterIP);
    else expect(env).not.toHaveProperty('KUBERNETES_SERVICE_HOST');
  });
});

describe('userland volumes from the API server', () => {
  const volumes = [
    { name: 'config', configMap: { name: 'app-config' } },
    { name: 'items', configMap: { name: 'app-config', items: [{ key: 'MODE', path: 'nested/mode.txt', mode: 0o600 }] } },
    { name: 'secret', secret: { secretName: 'db', defaultMode: 0o400 } },
    { name: 'optional', configMap: { name: 'absent', optional: true } },
    {
      name: 'podinfo',
      downwardAPI: {
        items: [
          { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
          { path: 'name', fieldRef: { fieldPath: 'metadata.name' } },
        ],
      },
    },
    {
      name: 'kube-api-access',
      projected: {
        sources: [
          { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }] } },
        ],
      },
    },
    { name: 'shared', emptyDir: {} },
  ];

  it('mounts ConfigMap, Secret, downward API and projected files with their modes, read-only', async () => {
    const pod = await podFromServer('vol-pod', {
      volumes,
      containers: [
        {
          name: 'main',
          image: 'busybox',
          volumeMounts: [
            { name: 'config', mountPath: '/etc/config' },
            { name: 'items', mountPath: '/etc/items' },
            { name: 'secret', mountPath: '/etc/secret' },
            { name: 'optional', mountPath: '/etc/optional' },
            { name: 'podinfo', mountPath: '/etc/podinfo' },
            { name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
            { name: 'config', mountPath: '/app/app.properties', subPath: 'app.properties' },
          ],
        },
      ],
    });
    const { userland } = userlandFor(pod, httpReader(cluster.url));
    expect(
      (await sh(userland, 'ls /etc/config; cat /etc/config/MODE; echo; cat /etc/items/nested/mode.txt; echo; cat /etc/secret/password /app/app.properties'))
        .stdout,
    ).toBe('MODE\napp.properties\ndebug\ndebug\ns3creta=1\nb=2\n');
    expect((await sh(userland, 'ls -l /etc/secret /etc/items/nested')).stdout).toMatch(
      /-r-------- .* password\n-r-------- .* user\n[\s\S]*-rw------- .* mode.txt\n/,
    );
    expect((await sh(userland, 'ls -a /etc/optional; cat /etc/podinfo/labels; echo; cat /etc/podinfo/name')).stdout).toBe(
      '.\n..\napp="web"\ntier="front"\nvol-pod',
    );
    const token = (await run(userland, ['cat', '/var/run/secrets/kubernetes.io/serviceaccount/token'])).stdout;
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    expect(claims.sub).toBe('system:serviceaccount:default:default');
    expect((await run(userland, ['cat', '/var/run/secrets/kubernetes.io/serviceaccount/namespace'])).stdout).toBe('default');
    expect(await sh(userland, 'echo x > /etc/config/new')).toMatchObject({ status: 2, stderr: "sh: can't create /etc/config/new: Read-only file system\n" });
    expect(await sh(userland, 'rm /etc/secret/user')).toMatchObject({ status: 1, stderr: "rm: can't remove '/etc/secret/user': Read-only file system\n" });
  });

  it('shows a ConfigMap update after the sync delay, except through a subPath mount', async () => {
    await create(`${ns}/configmaps`, { metadata: { name: 'live' }, data: { v: 'one' } });
    const pod = await podFromServer('live-pod', {
      volumes: [{ name: 'live', configMap: { name: 'live' } }],
      containers: [
        {
          name: 'main',
          image: 'busybox',
          volumeMounts: [
            { name: 'live', mountPath: '/live' },
            { name: 'live', mountPath: '/pinned', subPath: 'v' },
          ],
        },
      ],
    });
    const { userland, clock } = userlandFor(pod, httpReader(cluster.url));
    expect((await sh(userland, 'cat /live/v /pinned')).stdout).toBe('oneone');
    const updated = await request(`${cluster.url}${ns}/configmaps/live`, {
      method: 'PATCH',
      body: { data: { v: 'two' } },
      contentType: 'application/merge-patch+json',
    });
    expect(updated.status).toBe(200);
    clock.advance(30_000);
    expect((await sh(userland, 'cat /live/v')).stdout).toBe('one');
    clock.advance(30_000);
    expect((await sh(userland, 'cat /live/v /pinned')).stdout).toBe('twoone');
  });

  it('keeps the files when a sync cannot read the ConfigMap or a listed key, and empties an optional volume', async () => {
    await create(`${ns}/configmaps`, { metadata: { name: 'doomed' }, data: { v: 'kept' } });
    await create(`${ns}/configmaps`, { metadata: { name: 'doomed-optional' }, data: { v: 'dropped' } });
    await create(`${ns}/configmaps`, { metadata: { name: 'trimmed' }, data: { v: 'listed', w: 'other' } });
    const pod = await podFromServer('doomed-pod', {
      volumes: [
        { name: 'required', configMap: { name: 'doomed' } },
        { name: 'optional', configMap: { name: 'doomed-optional', optional: true } },
        { name: 'picked', configMap: { name: 'trimmed', items: [{ key: 'v', path: 'v.txt' }] } },
      ],
      containers: [
        {
          name: 'main',
          image: 'busybox',
          volumeMounts: [
            { name: 'required', mountPath: '/required' },
            { name: 'optional', mountPath: '/optional' },
            { name: 'picked', mountPath: '/picked' },
          ],
        },
      ],
    });
    const { userland, clock } = userlandFor(pod, httpReader(cluster.url));
    expect((await sh(userland, 'cat /required/v /optional/v /picked/v.txt')).stdout).toBe('keptdroppedlisted');
    expect((await request(`${cluster.url}${ns}/configmaps/doomed`, { method: 'DELETE' })).status).toBe(200);
    expect((await request(`${cluster.url}${ns}/configmaps/doomed-optional`, { method: 'DELETE' })).status).toBe(200);
    const trimmed = await request(`${cluster.url}${ns}/configmaps/trimmed`, {
      method: 'PATCH',
      body: { data: { v: null, w: 'changed' } },
      contentType: 'application/merge-patch+json',
    });
    expect(trimmed.status).toBe(200);
    clock.advance(60_000);
    // The kubelet's SetUp fails (`configmap "doomed" not found`, `configmap references
    // non-existent config key: v`) and leaves the volume as it was; an optional one is emptied.
    expect((await sh(userland, 'cat /required/v /picked/v.txt; ls -A /optional')).stdout).toBe('keptlisted');
  });

  it('shares an emptyDir between the containers of a pod, read-only where mounted so', async () => {
    const pod = await podFromServer('two-containers', {
      volumes: [{ name: 'shared', emptyDir: {} }],
      containers: [
        { name: 'writer', image: 'busybox', volumeMounts: [{ name: 'shared', mountPath: '/data' }] },
        { name: 'reader', image: 'nginx', volumeMounts: [{ name: 'shared', mountPath: '/usr/share/nginx/html', readOnly: true }] },
      ],
    });
    const factory = createUserlandFactory();
    const writer = userlandFor(pod, httpReader(cluster.url), 'writer', factory).userland;
    const reader = userlandFor(pod, httpReader(cluster.url), 'reader', factory).userland;
    expect((await sh(writer, 'echo "<h1>from writer</h1>" > /data/index.html && ls /data')).stdout).toBe('index.html\n');
    expect((await run(reader, ['cat', '/usr/share/nginx/html/index.html'])).stdout).toBe('<h1>from writer</h1>\n');
    expect(await sh(reader, 'echo x > /usr/share/nginx/html/index.html')).toMatchObject({
      status: 2,
      stderr: 'sh: 1: cannot create /usr/share/nginx/html/index.html: Read-only file system\n',
    });
    // A new pod (another uid) gets a new, empty emptyDir.
    const replaced = { ...pod, metadata: { ...pod.metadata, uid: 'another-uid' } };
    expect((await run(userlandFor(replaced, httpReader(cluster.url), 'writer', factory).userland, ['ls', '/data'])).stdout).toBe('');
  });
});
