/**
 * certificates.k8s.io/v1 CertificateSigningRequests as kube-apiserver serves them: the
 * requestor filled in by the server, validation with its messages, a spec that never changes,
 * Approved/Denied only through /approval (exclusive, never removed), status.certificate only
 * through /status (PEM, set once), condition times stamped, the spec.signerName field selector.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN_USER } from '../../apiserver/api/machinery/admin-user.js';
import { startApiServer } from '../../apiserver/start-api-server.js';
import { base64, csrObject, SAMPLE_CSR_PEM } from '../support/csr.js';
import { request } from '../support/http.js';
import { useTestCluster } from '../support/use-test-cluster.js';

const PATH = '/apis/certificates.k8s.io/v1/certificatesigningrequests';

describe('CertificateSigningRequest API', () => {
  const cluster = useTestCluster({ lifetime: 'file' });
  const url = (name = '', subresource = '') => `${cluster.url}${PATH}${name ? `/${name}` : ''}${subresource ? `/${subresource}` : ''}`;
  const create = async (object: Record<string, any>) => {
    const created = await request(url(), { method: 'POST', body: object });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  };
  const put = (object: Record<string, any>, subresource = '') => request(url(object['metadata'].name, subresource), { method: 'PUT', body: object });
  const causes = (body: any) => body.details.causes.map((c: any) => `${c.field}: ${c.message}`);
  const condition = (type: string) => ({ type, status: 'True', reason: 'Test', message: `${type} by test` });

  it('records the requestor from the request, not from the body, and starts without status', async () => {
    const spec = { username: 'mallory', groups: ['system:masters'], uid: '42', extra: { a: ['b'] } };
    const created = await create({ ...csrObject('requestor', SAMPLE_CSR_PEM, spec), status: { conditions: [condition('Approved')] } });
    expect(created.spec).toMatchObject({ username: ADMIN_USER.username, groups: [...ADMIN_USER.groups] });
    expect(created.spec.uid).toBeUndefined();
    expect(created.spec.extra).toBeUndefined();
    expect(created.status ?? {}).toEqual({});
  });

  it('validates the request, signer, usages and duration with kube-apiserver’s messages', async () => {
    const bad = csrObject('invalid', 'not a pem', { signerName: 'example', usages: ['client auth', 'flying', 'client auth'], expirationSeconds: 60 });
    const answer = await request(url(), { method: 'POST', body: bad });
    expect(answer.status).toBe(422);
    expect(causes(answer.body)).toEqual([
      'spec.request: Invalid value: "bm90IGEgcGVt": PEM block type must be CERTIFICATE REQUEST',
      expect.stringMatching(/^spec\.usages\[1\]: Unsupported value: "flying": supported values: "any", "cert sign", /),
      'spec.usages[2]: Duplicate value: "client auth"',
      'spec.signerName: Invalid value: "example": must be a fully qualified domain and path of the form \'example.com/signer-name\'',
      'spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 600 seconds (10 minutes)',
    ]);
    const missing = await request(url(), { method: 'POST', body: csrObject('missing', SAMPLE_CSR_PEM, { signerName: '', usages: [] }) });
    expect(causes(missing.body)).toEqual(['spec.usages: Required value', 'spec.signerName: Required value']);
    const domain = await request(url(), { method: 'POST', body: csrObject('domain', SAMPLE_CSR_PEM, { signerName: 'example/signer' }) });
    expect(causes(domain.body)).toEqual(['spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots']);
  });

  it('keeps the spec on update, and Approved only through /approval', async () => {
    const created = await create(csrObject('immutable', SAMPLE_CSR_PEM));
    const changed = { ...created, spec: { ...created.spec, signerName: 'example.com/other' }, status: { conditions: [condition('Approved')] } };
    const updated = await put(changed);
    expect(updated.status).toBe(200);
    expect(updated.body.spec.signerName).toBe('kubernetes.io/kube-apiserver-client');
    expect(updated.body.status ?? {}).toEqual({});
    const throughStatus = await put({ ...updated.body, status: { conditions: [condition('Approved')] } }, 'status');
    expect(throughStatus.status).toBe(200);
    expect(throughStatus.body.status?.conditions ?? []).toEqual([]);
  });

  it('/approval adds Approved with its times; Denied beside it and removing it are refused', async () => {
    const created = await create(csrObject('approval', SAMPLE_CSR_PEM));
    const approved = await put({ ...created, status: { conditions: [condition('Approved')] } }, 'approval');
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const [stamped] = approved.body.status.conditions;
    expect(stamped).toMatchObject({ type: 'Approved', status: 'True', reason: 'Test' });
    expect(stamped.lastUpdateTime).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(stamped.lastTransitionTime).toBe(stamped.lastUpdateTime);
    const both = await put({ ...approved.body, status: { conditions: [stamped, condition('Denied')] } }, 'approval');
    expect(both.status).toBe(422);
    expect(causes(both.body)).toEqual(['status.conditions[1].type: Invalid value: "Denied": Approved and Denied conditions are mutually exclusive']);
    const removed = await put({ ...approved.body, status: { conditions: [] } }, 'approval');
    expect(causes(removed.body)).toEqual(['status.conditions: Forbidden: updates may not remove a condition of type "Approved"']);
    const view = await request(url('approval', 'approval'));
    expect(view.body.status.conditions).toEqual([stamped]);
  });

  it('status.certificate: PEM only, through /status only, once', async () => {
    const created = await create(csrObject('certificate', SAMPLE_CSR_PEM));
    const garbage = await put({ ...created, status: { certificate: base64('junk') } }, 'status');
    expect(causes(garbage.body)).toEqual(['status.certificate: Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block']);
    const ca = base64(cluster.server.clusterCa.certPem);
    const issued = await put({ ...created, status: { certificate: ca } }, 'status');
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.body.status.certificate).toBe(ca);
    const again = await put(
      { ...issued.body, status: { certificate: base64(`${cluster.server.clusterCa.certPem}${cluster.server.clusterCa.certPem}`) } },
      'status',
    );
    expect(causes(again.body)).toEqual(['status.certificate: Forbidden: updates may not modify existing certificate content']);
    const viaApproval = await put({ ...issued.body, status: { conditions: [], certificate: '' } }, 'approval');
    expect(viaApproval.body.status.certificate).toBe(ca);
  });

  it('lists by spec.signerName and prints kubectl’s columns', async () => {
    await create(csrObject('custom-signer', SAMPLE_CSR_PEM, { signerName: 'example.com/custom', expirationSeconds: 3600 }));
    const selected = await request(`${url()}?fieldSelector=${encodeURIComponent('spec.signerName=example.com/custom')}`);
    expect(selected.body.items.map((i: any) => i.metadata.name)).toEqual(['custom-signer']);
    const table = await request(url('custom-signer'), { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.body.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']);
    expect(table.body.rows[0].cells).toEqual(['custom-signer', expect.any(String), 'example.com/custom', ADMIN_USER.username, '60m', 'Pending']);
  });
});

describe('the cluster CA of an API server', () => {
  it('is created in <data-dir>/pki on first start (key 0600) and the same after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kubesim-ca-test-'));
    try {
      const first = await startApiServer({ port: 0, dataDir, metricsIntervalMs: 0 });
      const ca = first.clusterCa;
      await first.close();
      expect(ca.keyFile).toBe(join(dataDir, 'pki', 'ca.key'));
      expect(statSync(ca.keyFile).mode & 0o777).toBe(0o600);
      const second = await startApiServer({ port: 0, dataDir, metricsIntervalMs: 0 });
      expect(second.clusterCa.certPem).toBe(ca.certPem);
      expect(second.clusterCa.keyPem).toBe(ca.keyPem);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('lives in a temporary folder for an in-memory store, removed on close', async () => {
    const server = await startApiServer({ port: 0, metricsIntervalMs: 0 });
    const { certFile } = server.clusterCa;
    expect(existsSync(certFile)).toBe(true);
    await server.close();
    expect(existsSync(certFile)).toBe(false);
  });
});
