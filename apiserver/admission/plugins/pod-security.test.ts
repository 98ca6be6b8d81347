/**
 * The PodSecurity plugin on a real server's store: the audit annotations kube records
 * (enforce-policy, audit-violations, exempt, error), exemptions by user, namespace and runtime
 * class, which pod updates are evaluated again, and workloads warned but never refused.
 * (Refusals and warnings over HTTP and kubectl: test/integration/pod-security.test.ts,
 * test/kubectl/admission.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/resource-definition.js';
import type { UserInfo } from '../../authz/user.js';
import { type RunningApiServer, startApiServer } from '../../start-api-server.js';
import type { AdmissionAttributes, AdmissionResult } from '../plugin.js';
import { createPodSecurity } from './pod-security.js';

const P = 'pod-security.kubernetes.io/';
let server: RunningApiServer;

const namespaces: Record<string, Record<string, string>> = {
  open: {},
  locked: { [`${P}enforce`]: 'restricted', [`${P}audit`]: 'baseline', [`${P}audit-version`]: 'v1.30' },
  watched: { [`${P}warn`]: 'baseline', [`${P}audit`]: 'restricted' },
  free: { [`${P}enforce`]: 'restricted' },
};

beforeAll(async () => {
  server = await startApiServer({ port: 0 });
  for (const [name, labels] of Object.entries(namespaces)) {
    server.store.create({ resource: 'namespaces', namespace: '', name }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
  }
  // A label kube would refuse today, stored before (as by an older server).
  server.store.create(
    { resource: 'namespaces', namespace: '', name: 'old' },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'old', labels: { [`${P}enforce`]: 'strict' } } },
  );
});
afterAll(() => server.close());

const plugin = createPodSecurity({ exemptions: { usernames: ['ci-bot'], namespaces: ['free'], runtimeClasses: ['kata'] } });
const admin: UserInfo = { username: 'kubernetes-admin', groups: ['system:masters'] };

const hostPod = (extra: Record<string, unknown> = {}) =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: { hostNetwork: true, containers: [{ name: 'c', image: 'nginx:1' }], ...extra },
  }) as unknown as KubeObject;

function attributes(namespace: string, object: KubeObject, extra: Partial<AdmissionAttributes> = {}, plural = 'pods', group = ''): AdmissionAttributes {
  const def = server.context.registry.find(group, 'v1', plural)!;
  return { operation: 'CREATE', def, subresource: '', namespace, name: object.metadata.name ?? '', object, user: admin, dryRun: false, ...extra };
}

/** run validates and returns what the plugin answered: its refusal, warnings and audit annotations. */
function run(a: AdmissionAttributes) {
  const result: AdmissionResult = { warnings: [], auditAnnotations: {} };
  let refusal: string | undefined;
  try {
    plugin.validate!(server.context, a, result);
  } catch (err) {
    refusal = (err as Error).message;
  }
  return { refusal, ...result };
}

describe('PodSecurity', () => {
  it('records the enforced policy, and audit violations at the audit policy’s own version', () => {
    const answer = run(attributes('locked', hostPod()));
    expect(answer.refusal).toMatch(
      /^pods "p" is forbidden: violates PodSecurity "restricted:latest": host namespaces \(hostNetwork=true\), allowPrivilegeEscalation/,
    );
    expect(answer.auditAnnotations).toEqual({
      [`${P}enforce-policy`]: 'restricted:latest',
      [`${P}audit-violations`]: 'would violate PodSecurity "baseline:v1.30": host namespaces (hostNetwork=true)',
    });
    expect(answer.warnings).toEqual([]);
  });

  it('a namespace without labels is privileged: nothing checked', () => {
    expect(run(attributes('open', hostPod()))).toEqual({ refusal: undefined, warnings: [], auditAnnotations: { [`${P}enforce-policy`]: 'privileged:latest' } });
  });

  it('exempts users, namespaces and runtime classes, and says which', () => {
    expect(run(attributes('locked', hostPod(), { user: { username: 'ci-bot', groups: [] } })).auditAnnotations).toEqual({ [`${P}exempt`]: 'user' });
    expect(run(attributes('free', hostPod())).auditAnnotations).toEqual({ [`${P}exempt`]: 'namespace' });
    expect(run(attributes('locked', hostPod({ runtimeClassName: 'kata' })))).toEqual({
      refusal: undefined,
      warnings: [],
      auditAnnotations: { [`${P}exempt`]: 'runtimeClass' },
    });
    expect(run(attributes('locked', hostPod({ runtimeClassName: 'runc' }))).refusal).toContain('violates PodSecurity');
  });

  it('a label stored bad is enforced as restricted, with the parse error recorded', () => {
    const answer = run(attributes('old', hostPod()));
    expect(answer.refusal).toContain('violates PodSecurity "restricted:latest"');
    expect(answer.auditAnnotations[`${P}error`]).toBe(
      `Failed to parse policy: metadata.labels[${P}enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted`,
    );
  });

  it('re-evaluates a pod update only when an image or the containers change', () => {
    const old = hostPod();
    const relabelled = { ...hostPod(), metadata: { name: 'p', labels: { a: 'b' } } } as unknown as KubeObject;
    expect(run(attributes('locked', relabelled, { operation: 'UPDATE', oldObject: old })).refusal).toBeUndefined();
    const newImage = hostPod({ containers: [{ name: 'c', image: 'nginx:2' }] });
    expect(run(attributes('locked', newImage, { operation: 'UPDATE', oldObject: old })).refusal).toContain('violates PodSecurity');
    const debugged = hostPod({ ephemeralContainers: [{ name: 'debug', image: 'busybox' }] });
    expect(run(attributes('locked', debugged, { operation: 'UPDATE', oldObject: old, subresource: 'ephemeralcontainers' })).refusal).toContain(
      'containers "c", "debug" must set securityContext.allowPrivilegeEscalation=false',
    );
  });

  it('warns and audits a workload’s template but never refuses it', () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { template: { metadata: { annotations: { [`container.apparmor.security.beta.kubernetes.io/c`]: 'unconfined' } }, spec: hostPod().spec } },
    } as unknown as KubeObject;
    const answer = run(attributes('locked', deployment, {}, 'deployments', 'apps'));
    expect(answer.refusal).toBeUndefined();
    expect(answer.warnings).toEqual([
      expect.stringMatching(/^would violate PodSecurity "restricted:latest": forbidden AppArmor profile \(annotation must not set/),
    ]);
    expect(answer.auditAnnotations[`${P}audit-violations`]).toBe(
      'would violate PodSecurity "baseline:v1.30": forbidden AppArmor profile (annotation must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/c="unconfined""), host namespaces (hostNetwork=true)',
    );
    expect(answer.auditAnnotations[`${P}enforce-policy`]).toBeUndefined();
  });

  it('looks at pods and their ephemeralcontainers and resize subresources, not at status or binding', () => {
    const pods = server.context.registry.find('', 'v1', 'pods')!;
    expect(['', 'ephemeralcontainers', 'resize', 'status', 'binding'].map((sub) => plugin.handles!('UPDATE', pods, sub))).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(plugin.handles!('DELETE', pods, '')).toBe(false);
    const deployments = server.context.registry.find('apps', 'v1', 'deployments')!;
    expect(['', 'scale', 'status'].map((sub) => plugin.handles!('UPDATE', deployments, sub))).toEqual([true, false, false]);
  });
});
