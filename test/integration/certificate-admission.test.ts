/**
 * The CertificateSigningRequest admission plugins on an RBAC server over real HTTP:
 * CertificateApproval (approve on the signer, by name or domain wildcard), CertificateSigning
 * (sign on the signer to set a certificate or a condition through /status) and
 * CertificateSubjectRestriction (no system:masters from the kube-apiserver-client signer),
 * with kube's messages. Users come from a static token file (test/support/rbac-server.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrObject, newCsrPem } from '../support/csr.js';
import { type RbacServer, startRbacServer } from '../support/rbac-server.js';

let cluster: RbacServer;
const RBAC = 'rbac.authorization.k8s.io';
const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';

beforeAll(async () => {
  cluster = await startRbacServer();
});
afterAll(() => cluster.close());

/** grant gives `user` these cluster-wide rules. */
async function grant(name: string, user: string, rules: object[]): Promise<void> {
  await cluster.as('admin', `/apis/${RBAC}/v1/clusterroles`, {
    method: 'POST',
    body: { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, rules },
  });
  const binding = {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name },
    subjects: [{ apiGroup: RBAC, kind: 'User', name: user }],
  };
  expect((await cluster.as('admin', `/apis/${RBAC}/v1/clusterrolebindings`, { method: 'POST', body: binding })).status).toBe(201);
}

const condition = (type: string) => ({ type, status: 'True', reason: 'Test', message: `${type} by test` });

async function createCsr(name: string, subject = `CN=${name}`, signerName = 'example.com/widgets'): Promise<any> {
  const created = await cluster.as('admin', CSRS, { method: 'POST', body: csrObject(name, await newCsrPem(subject), { signerName, usages: ['client auth'] }) });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

describe('CertificateApproval', () => {
  it('needs approve on the signer, by its name or its domain’s wildcard', async () => {
    await grant('csr-updater', 'bob', [{ apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/approval'], verbs: ['update'] }]);
    const csr = await createCsr('approve-me');
    const approve = () =>
      cluster.as('bob', `${CSRS}/approve-me/approval`, { method: 'PUT', body: { ...csr, status: { conditions: [condition('Approved')] } } });
    const refused = await approve();
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'certificatesigningrequests.certificates.k8s.io "approve-me" is forbidden: user not permitted to approve requests with signerName "example.com/widgets"',
    );
    await grant('widget-approver', 'bob', [
      { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['example.com/*'], verbs: ['approve'] },
    ]);
    expect((await approve()).status).toBe(200);
  });
});

describe('CertificateSigning', () => {
  it('needs sign on the signer to set the certificate or a condition through /status', async () => {
    await grant('csr-status-writer', 'alice', [{ apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/status'], verbs: ['update'] }]);
    const csr = await createCsr('sign-me');
    const fail = () => cluster.as('alice', `${CSRS}/sign-me/status`, { method: 'PUT', body: { ...csr, status: { conditions: [condition('Failed')] } } });
    const refused = await fail();
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'certificatesigningrequests.certificates.k8s.io "sign-me" is forbidden: user not permitted to sign requests with signerName "example.com/widgets"',
    );
    await grant('widget-signer', 'alice', [
      { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['example.com/widgets'], verbs: ['sign'] },
    ]);
    expect((await fail()).status).toBe(200);
  });
});

describe('CertificateSubjectRestriction', () => {
  it('refuses a kube-apiserver-client request for system:masters, even from an administrator', async () => {
    const pem = await newCsrPem('CN=root, O=system:masters');
    const refused = await cluster.as('admin', CSRS, { method: 'POST', body: csrObject('masters', pem) });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'certificatesigningrequests.certificates.k8s.io "masters" is forbidden: use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed',
    );
    const otherGroup = await cluster.as('admin', CSRS, { method: 'POST', body: csrObject('devs', await newCsrPem('CN=dev, O=devs')) });
    expect(otherGroup.status).toBe(201);
  });
});
