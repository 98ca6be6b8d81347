/**
 * What the ServiceAccount admission plugin shows kubectl, on a server that requires accounts
 * with the serviceaccount loop running (as `kubesim up`): the kube-api-access volume and its
 * mount in `get -o yaml` and `describe`, and the refusal of a pod naming a missing account.
 */
import { describe, expect, it } from 'vitest';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { useKubectlCluster } from './fixture.js';

const binaries = findKubectlBinaries();
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const TOKEN_VOLUME_YAML = `  volumes:
  - name: kube-api-access-SUFFIX
    projected:
      defaultMode: 420
      sources:
      - serviceAccountToken:
          expirationSeconds: 3607
          path: token
      - configMap:
          items:
          - key: ca.crt
            path: ca.crt
          name: kube-root-ca.crt
      - downwardAPI:
          items:
          - fieldRef:
              apiVersion: v1
              fieldPath: metadata.namespace
            path: namespace
`;

const TOKEN_MOUNT_YAML = `    volumeMounts:
    - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
      name: kube-api-access-SUFFIX
      readOnly: true
`;

describe.each(binaries)('$label: ServiceAccount admission', (binary) => {
  const k = useKubectlCluster(binary, { controllers: ['serviceaccount'], clusterLoops: ['serviceaccount'] });

  it('get -o yaml and describe show the kube-api-access volume kubectl run’s pod got', async () => {
    await k.ok(['run', 'web', '--image=nginx:1.27']);
    const yaml = (await k.ok(['get', 'pod', 'web', '-o', 'yaml'])).stdout;
    const suffix = /kube-api-access-([a-z0-9]{5})/.exec(yaml)?.[1] ?? 'none';
    expect(yaml).toContain(TOKEN_VOLUME_YAML.replace('SUFFIX', suffix));
    expect(yaml).toContain(TOKEN_MOUNT_YAML.replace('SUFFIX', suffix));
    expect(yaml).toContain('  serviceAccountName: default\n');
    const described = (await k.ok(['describe', 'pod', 'web'])).stdout;
    expect(described).toContain(`    Mounts:\n      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-${suffix} (ro)\n`);
    expect(described).toMatch(
      new RegExp(
        `  kube-api-access-${suffix}:\\n    Type:\\s+Projected \\(a volume that contains injected data from multiple sources\\)\\n    TokenExpirationSeconds:\\s+3607\\n    ConfigMapName:\\s+kube-root-ca.crt\\n`,
      ),
    );
  });

  it('apply again (client-side and server-side) keeps the token volume the plugin added', async () => {
    const manifest = (name: string) =>
      `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  labels: {app: ${name}}\nspec:\n  containers:\n  - name: c\n    image: nginx:1.27\n`;
    const volumesOf = async (name: string) => (await k.json(['pod', name])).spec.volumes.map((v: { name: string }) => v.name);
    await k.apply(manifest('csa'));
    const csaVolumes = await volumesOf('csa');
    expect(csaVolumes).toEqual([expect.stringMatching(/^kube-api-access-/)]);
    expect((await k.apply(manifest('csa'))).stdout).toBe('pod/csa unchanged\n');
    expect(await volumesOf('csa')).toEqual(csaVolumes);
    await k.ok(['apply', '--server-side', '-f', '-'], { stdin: manifest('ssa') });
    const ssaVolumes = await volumesOf('ssa');
    await k.ok(['apply', '--server-side', '-f', '-'], { stdin: manifest('ssa') });
    expect(await volumesOf('ssa')).toEqual(ssaVolumes);
  });

  it('refuses a pod naming a service account that does not exist, with kube’s message', async () => {
    const refused = await k.run(['run', 'ghost', '--image=nginx:1.27', '--overrides={"spec":{"serviceAccountName":"nobody"}}']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'Error from server (Forbidden): pods "ghost" is forbidden: error looking up service account default/nobody: serviceaccount "nobody" not found\n',
    );
  });
});
