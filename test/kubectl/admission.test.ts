/**
 * What the admission chain shows kubectl: PodSecurity's refusal and its `Warning:` lines (for
 * pods, for a Deployment's template, for `kubectl label ns` tightening the enforce level),
 * LimitRanger's defaults, and ResourceQuota's refusal with the usage the resourcequota loop
 * reports (kubectl describe quota).
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { useKubectlCluster } from './fixture.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const namespaceYaml = (name: string, labels: Record<string, string>) =>
  `apiVersion: v1
kind: Namespace
metadata:
  name: ${name}
  labels:
${Object.entries(labels)
  .map(([key, value]) => `    ${key}: "${value}"`)
  .join('\n')}
`;

const privilegedPod = (namespace: string) => `apiVersion: v1
kind: Pod
metadata:
  name: root
  namespace: ${namespace}
spec:
  containers:
  - name: c
    image: nginx:1.27
    securityContext:
      privileged: true
`;

const RESTRICTED_VIOLATIONS =
  'privileged (container "c" must not set securityContext.privileged=true), ' +
  'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

describe.each(binaries)('$label: admission', (binary) => {
  const k = useKubectlCluster(binary, { controllers: ['resourcequota'] });

  it('PodSecurity enforce=restricted refuses a privileged pod with kube’s message', async () => {
    await k.apply(namespaceYaml('locked', { 'pod-security.kubernetes.io/enforce': 'restricted' }));
    const refused = await k.run(['apply', '-f', '-'], { stdin: privilegedPod('locked') });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `Error from server (Forbidden): error when creating "STDIN": pods "root" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_VIOLATIONS}\n`,
    );
  });

  it('PodSecurity warn=restricted makes kubectl print the warning and admits the pod', async () => {
    await k.apply(namespaceYaml('watched', { 'pod-security.kubernetes.io/warn': 'restricted' }));
    const admitted = await k.ok(['apply', '-f', '-'], { stdin: privilegedPod('watched') });
    expect(admitted.stderr).toBe(`Warning: would violate PodSecurity "restricted:latest": ${RESTRICTED_VIOLATIONS}\n`);
    expect(admitted.stdout).toBe('pod/root created\n');
  });

  it('PodSecurity warns about a Deployment’s template in an enforcing namespace and kubectl creates it', async () => {
    await k.apply(namespaceYaml('shielded', { 'pod-security.kubernetes.io/enforce': 'restricted' }));
    const applied = await k.ok(['apply', '-f', '-'], {
      stdin: `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shielded}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: c
        image: nginx:1.27
        securityContext: {privileged: true}
`,
    });
    expect(applied.stderr).toBe(`Warning: would violate PodSecurity "restricted:latest": ${RESTRICTED_VIOLATIONS}\n`);
    expect(applied.stdout).toBe('deployment.apps/web created\n');
  });

  it('kubectl label ns warns about the existing pods the new enforce level would refuse', async () => {
    await k.ok(['create', 'namespace', 'tightened']);
    await k.ok(['run', 'web', '--image=nginx:1.27', '-n', 'tightened']);
    const labelled = await k.ok(['label', 'ns', 'tightened', 'pod-security.kubernetes.io/enforce=restricted']);
    expect(labelled.stderr).toBe(
      'Warning: existing pods in namespace "tightened" violate the new PodSecurity enforce level "restricted:latest"\n' +
        'Warning: web: allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile\n',
    );
    expect(labelled.stdout).toBe('namespace/tightened labeled\n');
  });

  it('a LimitRange defaults the requests of a pod that states none', async () => {
    await k.ok(['create', 'namespace', 'ranged']);
    await k.apply(`apiVersion: v1
kind: LimitRange
metadata:
  name: defaults
  namespace: ranged
spec:
  limits:
  - type: Container
    defaultRequest: {cpu: 200m, memory: 64Mi}
    default: {cpu: "1", memory: 128Mi}
`);
    await k.ok(['run', 'web', '--image=nginx:1.27', '-n', 'ranged']);
    const pod = await k.json(['pod', 'web', '-n', 'ranged']);
    expect(pod.spec.containers[0].resources).toEqual({ requests: { cpu: '200m', memory: '64Mi' }, limits: { cpu: '1', memory: '128Mi' } });
  });

  it('a ResourceQuota refuses the pod past it, and describe shows its usage', async () => {
    await k.ok(['create', 'namespace', 'small']);
    await k.ok(['create', 'quota', 'pods', '--hard=pods=1', '-n', 'small']);
    // The resourcequota loop fills in status.hard before the quota admits anything.
    await eventually(async () => expect((await k.json(['quota', 'pods', '-n', 'small'])).status?.hard).toEqual({ pods: '1' }));
    await k.ok(['run', 'first', '--image=nginx:1.27', '-n', 'small']);
    const refused = await k.run(['run', 'second', '--image=nginx:1.27', '-n', 'small']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'Error from server (Forbidden): pods "second" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=1, limited: pods=1\n',
    );
    const described = await k.ok(['describe', 'quota', 'pods', '-n', 'small']);
    expect(described.stdout).toMatch(/pods\s+1\s+1\n/);
  });
});
