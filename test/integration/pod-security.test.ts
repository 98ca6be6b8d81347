/**
 * PodSecurity over real HTTP, as kube-apiserver answers: a namespace pinned to an older
 * policy version, workloads warned in an enforcing namespace but created, bad label values
 * refused, an exempt namespace (from the server's PodSecurityConfiguration) that says its
 * labels will be ignored, the grouped warnings of a namespace whose enforce level tightens, and
 * a Deployment admitted with a warning whose ReplicaSet then fails to create its pods.
 * (Each check's wording: apiserver/admission/plugins/pod-security-checks.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const P = 'pod-security.kubernetes.io/';
const restrictedContainer = (securityContext: Record<string, unknown> = {}) => ({
  name: 'c',
  image: 'nginx:1.27',
  securityContext: {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    runAsNonRoot: true,
    seccompProfile: { type: 'RuntimeDefault' },
    ...securityContext,
  },
});
const pod = (name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, ...metadata },
  spec,
});
const namespace = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
/** The Warning headers of a response, as kubectl prints them (one per line). */
const warningsOf = (response: { headers: Headers }) =>
  [...(response.headers.get('warning') ?? '').matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));

describe('PodSecurity over HTTP', () => {
  const cluster = useTestCluster({ lifetime: 'file', podSecurity: { exemptions: { namespaces: ['exempt'] } } });
  const api = (path: string) => `${cluster.url}/api/v1${path}`;
  const post = (path: string, body: unknown) => request(api(path), { method: 'POST', body });
  const label = (name: string, labels: Record<string, string | null>) =>
    request(api(`/namespaces/${name}`), { method: 'PATCH', contentType: 'application/merge-patch+json', body: { metadata: { labels } } });

  it('a namespace pinned to v1.22 admits what v1.22 allowed and latest refuses', async () => {
    expect((await post('/namespaces', namespace('pinned', { [`${P}enforce`]: 'restricted', [`${P}enforce-version`]: 'v1.22' }))).status).toBe(201);
    expect((await post('/namespaces', namespace('current', { [`${P}enforce`]: 'restricted' }))).status).toBe(201);
    const root = pod('root', { containers: [restrictedContainer({ runAsUser: 0 })] });
    const admitted = await post('/namespaces/pinned/pods', root);
    expect(admitted.status).toBe(201);
    expect(admitted.headers.get('warning')).toBeNull();
    const refused = await post('/namespaces/current/pods', root);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      reason: 'Forbidden',
      message: 'pods "root" is forbidden: violates PodSecurity "restricted:latest": runAsUser=0 (container "c" must not set runAsUser=0)',
    });
    // kube's StatusDetails leave out the empty core group.
    expect(refused.body.details).toEqual({ name: 'root', kind: 'pods' });
  });

  it('a pod with a generated name is refused by that name, drawn before validating admission as in kube', async () => {
    const refused = await post('/namespaces/current/pods', pod('', { hostIPC: true, containers: [restrictedContainer()] }, { generateName: 'web-' }));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/^pods "web-[a-z0-9]{5}" is forbidden: violates PodSecurity "restricted:latest": host namespaces \(hostIPC=true\)$/);
  });

  it('warns about a Deployment’s template in an enforcing namespace, and creates it', async () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [restrictedContainer({ procMount: 'Unmasked', seccompProfile: undefined })] } },
      },
    };
    const created = await request(`${cluster.url}/apis/apps/v1/namespaces/current/deployments`, { method: 'POST', body: deployment });
    expect(created.status).toBe(201);
    expect(warningsOf(created)).toEqual([
      'would violate PodSecurity "restricted:latest": procMount (container "c" must not set securityContext.procMount to "Unmasked"), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    ]);
  });

  it('refuses bad label values on a namespace', async () => {
    const refused = await post('/namespaces', namespace('typo', { [`${P}enforce`]: 'strict', [`${P}warn-version`]: '1.30' }));
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(
      `Namespace "typo" is invalid: [metadata.labels[${P}enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, ` +
        `metadata.labels[${P}warn-version]: Invalid value: "1.30": must be "latest" or "v1.x"]`,
    );
  });

  it('an exempt namespace says its labels will be ignored, and admits what they forbid', async () => {
    const created = await post('/namespaces', namespace('exempt', { [`${P}enforce`]: 'baseline', [`${P}warn`]: 'restricted', [`${P}warn-version`]: 'v1.30' }));
    expect(created.status).toBe(201);
    expect(warningsOf(created)).toEqual([
      'namespace "exempt" is exempt from Pod Security, and the policy (enforce=baseline:latest, warn=restricted:v1.30) will be ignored',
    ]);
    const privileged = await post(
      '/namespaces/exempt/pods',
      pod('p', { containers: [{ name: 'c', image: 'nginx:1.27', securityContext: { privileged: true } }] }),
    );
    expect(privileged.status).toBe(201);
    expect(privileged.headers.get('warning')).toBeNull();
  });

  it('a tightened enforce level lists the pods that break it, grouped by reasons and sorted; loosening it says nothing', async () => {
    expect((await post('/namespaces', namespace('busy'))).status).toBe(201);
    const plain = { name: 'c', image: 'nginx:1.27' };
    for (const name of ['b', 'a', 'c']) expect((await post('/namespaces/busy/pods', pod(name, { hostPID: true, containers: [plain] }))).status).toBe(201);
    expect((await post('/namespaces/busy/pods', pod('z', { containers: [{ ...plain, securityContext: { privileged: true } }] }))).status).toBe(201);
    expect((await post('/namespaces/busy/pods', pod('fine', { containers: [plain] }))).status).toBe(201);
    const tightened = await label('busy', { [`${P}enforce`]: 'baseline' });
    expect(tightened.status).toBe(200);
    expect(warningsOf(tightened)).toEqual([
      'existing pods in namespace "busy" violate the new PodSecurity enforce level "baseline:latest"',
      'a (and 2 other pods): host namespaces',
      'z: privileged',
    ]);
    const loosened = await label('busy', { [`${P}enforce`]: 'privileged' });
    expect(loosened.status).toBe(200);
    expect(loosened.headers.get('warning')).toBeNull();
  });
});

describe('PodSecurity and the workload loops', () => {
  const cluster = useTestCluster({ lifetime: 'file', controllers: ['deployment', 'replicaset'] });

  it('a Deployment is admitted with a warning; its ReplicaSet’s pods are refused, as FailedCreate events say', async () => {
    const created = await request(`${cluster.url}/api/v1/namespaces`, { method: 'POST', body: namespace('guarded', { [`${P}enforce`]: 'baseline' }) });
    expect(created.status).toBe(201);
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'agent' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'agent' } },
        template: { metadata: { labels: { app: 'agent' } }, spec: { hostNetwork: true, containers: [{ name: 'c', image: 'nginx:1.27' }] } },
      },
    };
    const admitted = await request(`${cluster.url}/apis/apps/v1/namespaces/guarded/deployments`, { method: 'POST', body: deployment });
    expect(admitted.status).toBe(201);
    expect(warningsOf(admitted)).toEqual(['would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true)']);
    await eventually(async () => {
      const events = (await request(`${cluster.url}/api/v1/namespaces/guarded/events`)).body.items as Array<{ reason: string; message: string }>;
      const failed = events.find((event) => event.reason === 'FailedCreate');
      expect(failed?.message).toMatch(
        /^Error creating: pods "agent-[a-z0-9]+-[a-z0-9]{5}" is forbidden: violates PodSecurity "baseline:latest": host namespaces \(hostNetwork=true\)$/,
      );
    });
    expect((await request(`${cluster.url}/api/v1/namespaces/guarded/pods`)).body.items).toEqual([]);
  });
});
