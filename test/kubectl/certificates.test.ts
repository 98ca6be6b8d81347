/**
 * CertificateSigningRequests through kubectl 1.31–1.33: `create -f`, `get csr` with the
 * columns a real cluster prints, `certificate approve` (the signer then issues a certificate
 * from the cluster CA) and `certificate deny`.
 */
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ADMIN_USER } from '../../apiserver/api/machinery/admin-user.js';
import { base64, newCsrPem } from '../support/csr.js';
import { eventually } from '../support/eventually.js';
import { findKubectlBinaries, requireKubectl } from '../support/kubectl.js';
import { tableRows, useKubectlCluster } from './fixture.js';

const binaries = findKubectlBinaries();
// No kubectl is a failure, not a skip: the kubectl-facing behaviour is part of the product.
if (binaries.length === 0) it('finds a kubectl binary', () => requireKubectl());

const csrYaml = (name: string, pem: string, expirationSeconds = 86400) => `apiVersion: certificates.k8s.io/v1
kind: CertificateSigningRequest
metadata:
  name: ${name}
spec:
  request: ${base64(pem)}
  signerName: kubernetes.io/kube-apiserver-client
  expirationSeconds: ${expirationSeconds}
  usages:
  - client auth
`;

describe.each(binaries)('$label: certificates', (binary) => {
  const k = useKubectlCluster(binary, { controllers: ['csrsigning'] });

  it('api-resources lists csr as a 1.33 cluster does, and explain describes it', async () => {
    const rows = tableRows((await k.ok(['api-resources', '--api-group=certificates.k8s.io'])).stdout);
    expect(rows.slice(1)).toEqual([['certificatesigningrequests', 'csr', 'certificates.k8s.io/v1', 'false', 'CertificateSigningRequest']]);
    const explained = (await k.ok(['explain', 'csr.spec.expirationSeconds'])).stdout;
    expect(explained).toContain('KIND:       CertificateSigningRequest');
    expect(explained).toContain('FIELD: expirationSeconds <integer>');
  });

  it('get csr shows a pending request with its signer, requestor and duration', async () => {
    await k.apply(csrYaml('pending-one', await newCsrPem('CN=pending')));
    const rows = tableRows((await k.ok(['get', 'csr', 'pending-one'])).stdout);
    expect(rows[0]).toEqual(['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION']);
    expect(rows[1]).toEqual(['pending-one', expect.any(String), 'kubernetes.io/kube-apiserver-client', ADMIN_USER.username, '24h', 'Pending']);
  });

  it('certificate approve: the signer issues a certificate from the cluster CA', async () => {
    await k.apply(csrYaml('alice', await newCsrPem('CN=alice, O=dev'), 7200));
    expect((await k.ok(['certificate', 'approve', 'alice'])).stdout).toBe('certificatesigningrequest.certificates.k8s.io/alice approved\n');
    await eventually(async () => expect(tableRows((await k.ok(['get', 'csr', 'alice'])).stdout)[1]?.[5]).toBe('Approved,Issued'), { timeoutMs: 20_000 });
    const pem = (await k.ok(['get', 'csr', 'alice', '-o', 'jsonpath={.status.certificate}'])).stdout;
    const issued = new X509Certificate(Buffer.from(pem, 'base64'));
    const ca = new X509Certificate(k.cluster().server.clusterCa.certPem);
    expect(issued.checkIssued(ca)).toBe(true);
    expect(issued.verify(ca.publicKey)).toBe(true);
    expect(issued.subject.split('\n').sort()).toEqual(['CN=alice', 'O=dev']);
    expect(Date.parse(issued.validTo) - Date.parse(issued.validFrom)).toBe((7200 + 300) * 1000);
    const described = (await k.ok(['describe', 'csr', 'alice'])).stdout;
    for (const line of [
      /^Requesting User:\s+kubernetes-admin$/m,
      /^Signer:\s+kubernetes.io\/kube-apiserver-client$/m,
      /^Status:\s+Approved,Issued$/m,
      /^\s+Common Name:\s+alice$/m,
    ]) {
      expect(described).toMatch(line);
    }
    const approved = await k.json(['csr', 'alice']);
    expect(approved.status.conditions).toEqual([
      {
        type: 'Approved',
        status: 'True',
        reason: 'KubectlApprove',
        message: 'This CSR was approved by kubectl certificate approve.',
        lastUpdateTime: expect.any(String),
        lastTransitionTime: expect.any(String),
      },
    ]);
  });

  it('certificate deny: Denied, never issued, and kubectl then refuses to approve it', async () => {
    await k.apply(csrYaml('mallory', await newCsrPem('CN=mallory')));
    expect((await k.ok(['certificate', 'deny', 'mallory'])).stdout).toBe('certificatesigningrequest.certificates.k8s.io/mallory denied\n');
    expect(tableRows((await k.ok(['get', 'csr', 'mallory'])).stdout)[1]?.[5]).toBe('Denied');
    const refused = await k.run(['certificate', 'approve', 'mallory']);
    expect(refused.stderr).toBe('error: certificate signing request "mallory" is already Denied\n');
    expect(tableRows((await k.ok(['get', 'csr', 'mallory'])).stdout)[1]?.[5]).toBe('Denied');
  });
});
