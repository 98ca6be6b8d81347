/**
 * The admission chain over real HTTP: LimitRanger defaults, ResourceQuota's refusal and the
 * usage it charges, Priority, RuntimeClass, PodSecurity (enforce, warn on pods and on workload templates,
 * the warning a namespace label change gives), NamespaceLifecycle's immortal namespaces, and
 * an asynchronous plugin of a test's own that sees every write and whose warnings reach the
 * client — with concurrent unconditional patches all landing (GuaranteedUpdate retries).
 */

import { describe, expect, it } from 'vitest';
import type { AdmissionPlugin } from '../../apiserver/admission/plugin.js';
import { builtInAdmissionPlugins } from '../../apiserver/admission/plugins/index.js';
import { alwaysAllow } from '../../apiserver/authz/authorizer.js';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const container = (extra: Record<string, unknown> = {}) => ({ name: 'c', image: 'nginx:1.27', ...extra });
const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [container()], ...spec },
});
const namespace = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });

/** A restricted-compliant container. */
const hardened = container({
  securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
});

describe('the admission chain', () => {
  const seen: string[] = [];
  /** An asynchronous plugin, as a webhook is: it answers after a timer. */
  const slowWitness: AdmissionPlugin = {
    name: 'SlowWitness',
    handles: (_operation, def) => def.storage.resource === 'configmaps',
    async admit(_ctx, attributes, result) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(`${attributes.operation} ${attributes.subresource} ${attributes.name}`);
      if (attributes.object) attributes.object.metadata.labels = { ...attributes.object.metadata.labels, witnessed: 'yes' };
      result.warnings.push(`witnessed ${attributes.operation}`);
    },
  };
  const plugins = builtInAdmissionPlugins({ authorizer: alwaysAllow });
  plugins.splice(plugins.length - 1, 0, slowWitness);
  const cluster = useTestCluster({ lifetime: 'file', admissionPlugins: plugins });
  const api = (path: string) => `${cluster.url}/api/v1${path}`;
  const post = (path: string, body: unknown) => request(api(path), { method: 'POST', body });

  it('LimitRanger defaults a pod’s requests and limits', async () => {
    expect((await post('/namespaces', namespace('limits'))).status).toBe(201);
    const range = {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'l' },
      spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '100m' } }] },
    };
    expect((await post('/namespaces/limits/limitranges', range)).status).toBe(201);
    const created = await post('/namespaces/limits/pods', pod('p'));
    expect(created.status).toBe(201);
    expect(created.body.spec.containers[0].resources).toEqual({ limits: { cpu: '500m' }, requests: { cpu: '100m' } });
    expect(created.body.metadata.annotations['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: cpu request for container c; cpu limit for container c',
    );
  });

  it('ResourceQuota refuses the pod past the quota with kube’s message and charges what it admits', async () => {
    expect((await post('/namespaces', namespace('quota'))).status).toBe(201);
    const quota = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: '1' } } };
    expect((await post('/namespaces/quota/resourcequotas', quota)).status).toBe(201);
    // No resourcequota loop here: the status is what the controller would write.
    const status = { ...quota, status: { hard: { pods: '1' }, used: { pods: '0' } } };
    expect((await request(api('/namespaces/quota/resourcequotas/q/status'), { method: 'PUT', body: status })).status).toBe(200);
    expect((await post('/namespaces/quota/pods', pod('a'))).status).toBe(201);
    const refused = await post('/namespaces/quota/pods', pod('b'));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('pods "b" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1');
    expect((await request(api('/namespaces/quota/resourcequotas/q'))).body.status.used).toEqual({ pods: '1' });
  });

  it('Priority resolves priorityClassName, the global default, and refuses an unknown class', async () => {
    const critical = await post('/namespaces/default/pods', pod('critical', { priorityClassName: 'system-node-critical' }));
    expect(critical.body.spec).toMatchObject({ priority: 2_000_001_000, preemptionPolicy: 'PreemptLowerPriority' });
    const missing = await post('/namespaces/default/pods', pod('lost', { priorityClassName: 'nope' }));
    expect(missing.status).toBe(403);
    expect(missing.body.message).toBe('pods "lost" is forbidden: no PriorityClass with name nope was found');
    const stated = await post('/namespaces/default/pods', pod('stated', { priorityClassName: 'system-node-critical', priority: 5 }));
    expect(stated.body.message).toBe(
      'pods "stated" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 2000001000 from the given PriorityClass name',
    );
    const low = {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'low' },
      value: 7,
      globalDefault: true,
      preemptionPolicy: 'Never',
    };
    expect((await request(`${cluster.url}/apis/scheduling.k8s.io/v1/priorityclasses`, { method: 'POST', body: low })).status).toBe(201);
    const defaulted = await post('/namespaces/default/pods', pod('plain'));
    expect(defaulted.body.spec).toMatchObject({ priorityClassName: 'low', priority: 7, preemptionPolicy: 'Never' });
    await request(`${cluster.url}/apis/scheduling.k8s.io/v1/priorityclasses/low`, { method: 'DELETE' });
    expect((await post('/namespaces/default/pods', pod('zero'))).body.spec).toMatchObject({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
  });

  it('RuntimeClass adds the class’s overhead and scheduling, and refuses a missing class', async () => {
    const rc = {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'gvisor' },
      handler: 'runsc',
      overhead: { podFixed: { cpu: '250m' } },
      scheduling: { nodeSelector: { sandbox: 'yes' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
    };
    expect((await request(`${cluster.url}/apis/node.k8s.io/v1/runtimeclasses`, { method: 'POST', body: rc })).status).toBe(201);
    const created = await post('/namespaces/default/pods', pod('sandboxed', { runtimeClassName: 'gvisor' }));
    expect(created.body.spec).toMatchObject({ overhead: { cpu: '250m' }, nodeSelector: { sandbox: 'yes' } });
    expect(created.body.spec.tolerations).toContainEqual({ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' });
    const conflicting = await post('/namespaces/default/pods', pod('odd', { runtimeClassName: 'gvisor', nodeSelector: { sandbox: 'no' } }));
    expect(conflicting.body.message).toBe(
      'pods "odd" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = yes; pod.spec.nodeSelector[sandbox] = no',
    );
    const missing = await post('/namespaces/default/pods', pod('nowhere', { runtimeClassName: 'kata' }));
    expect(missing.status).toBe(403);
    expect(missing.body.message).toBe('pods "nowhere" is forbidden: pod rejected: RuntimeClass "kata" not found');
  });

  it('DefaultTolerationSeconds gives pods the not-ready and unreachable tolerations', async () => {
    const created = await post('/namespaces/default/pods', pod('tolerant'));
    expect(created.body.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
  });

  it('PodSecurity enforce refuses a privileged pod with kube’s message', async () => {
    expect((await post('/namespaces', namespace('locked', { 'pod-security.kubernetes.io/enforce': 'restricted' }))).status).toBe(201);
    const refused = await post('/namespaces/locked/pods', pod('x', { containers: [container({ securityContext: { privileged: true } })] }));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'pods "x" is forbidden: violates PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true), ' +
        'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
        'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
        'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
    expect((await post('/namespaces/locked/pods', pod('ok', { containers: [hardened] }))).status).toBe(201);
  });

  it('PodSecurity warn answers with Warning headers, for pods and for Deployments’ templates', async () => {
    const labels = { 'pod-security.kubernetes.io/warn': 'baseline', 'pod-security.kubernetes.io/warn-version': 'v1.33' };
    expect((await post('/namespaces', namespace('warned', labels))).status).toBe(201);
    const created = await post('/namespaces/warned/pods', pod('host', { hostNetwork: true }));
    expect(created.status).toBe(201);
    expect(created.headers.get('warning')).toBe('299 - "would violate PodSecurity \\"baseline:v1.33\\": host namespaces (hostNetwork=true)"');
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [container({ securityContext: { privileged: true } })] } },
      },
    };
    const workload = await request(`${cluster.url}/apis/apps/v1/namespaces/warned/deployments`, { method: 'POST', body: deployment });
    expect(workload.status).toBe(201);
    expect(workload.headers.get('warning')).toContain(
      'would violate PodSecurity \\"baseline:v1.33\\": privileged (container \\"c\\" must not set securityContext.privileged=true)',
    );
  });

  it('a namespace whose enforce level changes warns about the pods already there', async () => {
    expect((await post('/namespaces', namespace('tighten'))).status).toBe(201);
    for (const name of ['a', 'b']) expect((await post('/namespaces/tighten/pods', pod(name, { hostPID: true }))).status).toBe(201);
    const patched = await request(api('/namespaces/tighten'), {
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } },
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.get('warning')).toBe(
      '299 - "existing pods in namespace \\"tighten\\" violate the new PodSecurity enforce level \\"baseline:latest\\"", 299 - "a (and 1 other pod): host namespaces"',
    );
  });

  it('NamespaceLifecycle keeps the immortal namespaces', async () => {
    const refused = await request(api('/namespaces/kube-public'), { method: 'DELETE' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('namespaces "kube-public" is forbidden: this namespace may not be deleted');
  });

  it('runs an asynchronous plugin on every write, with its warnings, and retries unconditional updates it raced', async () => {
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: {} };
    const created = await post('/namespaces/default/configmaps', configMap);
    expect(created.status).toBe(201);
    expect(created.body.metadata.labels).toEqual({ witnessed: 'yes' });
    expect(created.headers.get('warning')).toBe('299 - "witnessed CREATE"');
    // Ten patches race through the slow plugin; each re-runs on the object the others wrote.
    const patches = Array.from({ length: 10 }, (_, i) =>
      request(api('/namespaces/default/configmaps/cm'), { method: 'PATCH', contentType: 'application/merge-patch+json', body: { data: { [`k${i}`]: 'v' } } }),
    );
    for (const answer of await Promise.all(patches)) expect(answer.status).toBe(200);
    expect(Object.keys((await request(api('/namespaces/default/configmaps/cm'))).body.data)).toHaveLength(10);
    const deleted = await request(api('/namespaces/default/configmaps/cm'), { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.headers.get('warning')).toBe('299 - "witnessed DELETE"');
    expect(seen).toContain('CREATE  cm');
    expect(seen).toContain('DELETE  cm');
  });
});
