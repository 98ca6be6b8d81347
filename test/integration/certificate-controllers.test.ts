/**
 * The loops around the cluster CA as a real controller-manager process (`kubesim controller
 * csrsigning,root-ca-cert-publisher,serviceaccount` with the CA files kube-controller-manager
 * takes as flags) against a running API server: approved kube-apiserver-client and kubelet
 * requests are signed by the CA with the requested duration and names, unfit ones fail with
 * the signer's reason,
 * and every namespace keeps its kube-root-ca.crt ConfigMap and default ServiceAccount.
 */
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configMapDefinition } from '../../apiserver/api/core/config-map.js';
import { namespaceDefinition } from '../../apiserver/api/core/namespace.js';
import { serviceAccountDefinition } from '../../apiserver/api/core/service-account.js';
import { csrObject, newCsrPem } from '../support/csr.js';
import { eventually } from '../support/eventually.js';
import { request } from '../support/http.js';
import { spawnKubesim, stopAllKubesim } from '../support/processes.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

describe('CA loops in a controller-manager process', () => {
  const cluster = useTestCluster({ lifetime: 'file' });

  beforeAll(() => {
    const { certFile, keyFile } = cluster.server.clusterCa;
    spawnKubesim([
      'controller',
      'csrsigning,root-ca-cert-publisher,serviceaccount',
      '--kubeconfig',
      cluster.kubeconfigPath,
      '--cluster-signing-cert-file',
      certFile,
      '--cluster-signing-key-file',
      keyFile,
      '--log-level',
      'warn',
    ]);
  });
  afterAll(async () => {
    await stopAllKubesim();
  });

  const submitAndApprove = async (name: string, pem: string, spec: Record<string, unknown> = {}) => {
    const created = await request(`${cluster.url}${CSRS}`, { method: 'POST', body: csrObject(name, pem, spec) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const approval = { ...created.body, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'approved' }] } };
    const approved = await request(`${cluster.url}${CSRS}/${name}/approval`, { method: 'PUT', body: approval });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  };
  const csr = async (name: string) => (await request(`${cluster.url}${CSRS}/${name}`)).body;

  it('signs an approved client request with the cluster CA, for the subject and duration asked', async () => {
    await submitAndApprove('alice', await newCsrPem('CN=alice, O=dev'), {
      usages: ['digital signature', 'key encipherment', 'client auth'],
      expirationSeconds: 3600,
    });
    const issued = await eventually(async () => {
      const certificate = (await csr('alice')).status?.certificate;
      expect(certificate).toBeDefined();
      return new X509Certificate(Buffer.from(certificate, 'base64'));
    });
    const ca = new X509Certificate(cluster.server.clusterCa.certPem);
    expect(issued.checkIssued(ca)).toBe(true);
    expect(issued.verify(ca.publicKey)).toBe(true);
    expect(issued.issuer).toBe('CN=kubernetes');
    expect(issued.subject.split('\n').sort()).toEqual(['CN=alice', 'O=dev']);
    expect(issued.ca).toBe(false);
    expect(issued.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    // Short certificates are backdated 5 minutes and still last the full hour from now.
    expect(Date.parse(issued.validTo) - Date.parse(issued.validFrom)).toBe((3600 + 300) * 1000);
    expect((await csr('alice')).status.conditions.map((c: any) => c.type)).toEqual(['Approved']);
  });

  it('signs a kubelet serving request with its DNS name and IP, and fails one that is not a node', async () => {
    const pem = await newCsrPem('CN=system:node:n1, O=system:nodes', { dns: ['n1.example.com'], ip: ['10.0.0.5'] });
    await submitAndApprove('kubelet-serving', pem, { signerName: 'kubernetes.io/kubelet-serving', usages: ['digital signature', 'server auth'] });
    const issued = await eventually(async () => new X509Certificate(Buffer.from((await csr('kubelet-serving')).status.certificate, 'base64')));
    expect(issued.subjectAltName).toBe('DNS:n1.example.com, IP Address:10.0.0.5');
    expect(issued.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    await submitAndApprove('not-a-node', await newCsrPem('CN=alice'), {
      signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
      usages: ['digital signature', 'client auth'],
    });
    await eventually(async () =>
      expect((await csr('not-a-node')).status?.conditions?.find((c: any) => c.type === 'Failed')?.message).toBe('subject organization is not system:nodes'),
    );
  });

  it('fails a request whose usages do not fit the signer, saying why', async () => {
    await submitAndApprove('server-usages', await newCsrPem('CN=web'), { usages: ['server auth'] });
    const failed = await eventually(async () => {
      const conditions = (await csr('server-usages')).status?.conditions ?? [];
      const found = conditions.find((c: any) => c.type === 'Failed');
      expect(found).toBeDefined();
      return found;
    });
    expect(failed).toMatchObject({ status: 'True', reason: 'SignerValidationFailure', message: 'invalid usage for client certificate: server auth' });
    expect((await csr('server-usages')).status.certificate).toBeUndefined();
  });

  it('leaves pending requests and other signers alone', async () => {
    await request(`${cluster.url}${CSRS}`, { method: 'POST', body: csrObject('pending', await newCsrPem('CN=later')) });
    await submitAndApprove('custom', await newCsrPem('CN=custom'), { signerName: 'example.com/custom' });
    // Once a later request has been signed, the loop has seen both earlier ones.
    await submitAndApprove('marker', await newCsrPem('CN=marker'));
    await eventually(async () => expect((await csr('marker')).status?.certificate).toBeDefined());
    expect((await csr('pending')).status?.certificate).toBeUndefined();
    expect((await csr('custom')).status?.certificate).toBeUndefined();
  });

  it('publishes kube-root-ca.crt in every namespace, and restores it when deleted or edited', async () => {
    const configMaps = cluster.client.resource(configMapDefinition);
    await cluster.client.resource(namespaceDefinition).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    for (const namespace of ['default', 'kube-system', 'kube-public', 'team-a']) {
      const published = await eventually(() => configMaps.get(namespace, 'kube-root-ca.crt'));
      expect(published.data).toEqual({ 'ca.crt': cluster.server.clusterCa.certPem });
      expect(published.metadata.annotations).toEqual({ 'kubernetes.io/description': DESCRIPTION });
    }
    const before = await configMaps.get('team-a', 'kube-root-ca.crt');
    await configMaps.delete('team-a', 'kube-root-ca.crt');
    await eventually(async () => expect((await configMaps.get('team-a', 'kube-root-ca.crt')).metadata.uid).not.toBe(before.metadata.uid));
    const current = await configMaps.get('team-a', 'kube-root-ca.crt');
    await configMaps.update({ ...current, data: { 'ca.crt': 'tampered' } });
    await eventually(async () => expect((await configMaps.get('team-a', 'kube-root-ca.crt')).data).toEqual({ 'ca.crt': cluster.server.clusterCa.certPem }));
  });

  it('keeps a default ServiceAccount in every namespace', async () => {
    const accounts = cluster.client.resource(serviceAccountDefinition);
    await cluster.client.resource(namespaceDefinition).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } });
    for (const namespace of ['default', 'kube-system', 'kube-node-lease', 'team-b']) await eventually(() => accounts.get(namespace, 'default'));
    const before = await accounts.get('team-b', 'default');
    await accounts.delete('team-b', 'default');
    await eventually(async () => expect((await accounts.get('team-b', 'default')).metadata.uid).not.toBe(before.metadata.uid));
  });
});
