import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { certificateChainProblem } from './certificate-pem.js';
import { loadOrCreateClusterCa, loadX509, signCertificate } from './cluster-ca.js';
import { csrProblem } from './csr.js';

const dir = mkdtempSync(join(tmpdir(), 'kubesim-pki-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** newCsr makes a real ECDSA request for `subject`. */
async function newCsr(subject: string): Promise<string> {
  const lib = await loadX509();
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const csr = await lib.Pkcs10CertificateRequestGenerator.create({ name: subject, keys, signingAlgorithm: algorithm });
  return csr.toString('pem');
}

describe('cluster CA', () => {
  it('is created once, with a private key only its owner reads, and reloaded after', async () => {
    const pki = join(dir, 'pki');
    const ca = await loadOrCreateClusterCa(pki);
    expect(statSync(ca.keyFile).mode & 0o777).toBe(0o600);
    const cert = new X509Certificate(ca.certPem);
    expect(cert.subject).toBe('CN=kubernetes');
    expect(cert.ca).toBe(true);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect((await loadOrCreateClusterCa(pki)).certPem).toBe(ca.certPem);
  });

  it('signs a request: subject from it, issuer the CA, the validity asked for', async () => {
    const ca = await loadOrCreateClusterCa(join(dir, 'sign'));
    const notBefore = new Date('2026-01-01T00:00:00Z');
    const notAfter = new Date('2026-01-01T01:00:00Z');
    const pem = await signCertificate(ca, { csrPem: await newCsr('CN=alice, O=dev'), usages: ['digital signature', 'client auth'], notBefore, notAfter });
    expect(certificateChainProblem(pem)).toBeUndefined();
    const cert = new X509Certificate(pem);
    const caCert = new X509Certificate(ca.certPem);
    expect(cert.checkIssued(caCert)).toBe(true);
    expect(cert.verify(caCert.publicKey)).toBe(true);
    expect(cert.subject.split('\n').sort()).toEqual(['CN=alice', 'O=dev']);
    expect(new Date(cert.validFrom).toISOString()).toBe(notBefore.toISOString());
    expect(new Date(cert.validTo).toISOString()).toBe(notAfter.toISOString());
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
  });
});

describe('csrProblem', () => {
  it('accepts a signed request and words every other input as kube-apiserver does', async () => {
    const pem = await newCsr('CN=bob');
    expect(csrProblem(pem)).toBeUndefined();
    expect(csrProblem('hello')).toBe('PEM block type must be CERTIFICATE REQUEST');
    expect(csrProblem(pem.replaceAll('CERTIFICATE REQUEST', 'CERTIFICATE'))).toBe('PEM block type must be CERTIFICATE REQUEST');
    expect(csrProblem('-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n')).toBe('x509: malformed certificate request');
    const body = pem.split('\n').slice(1, -2).join('');
    const der = Buffer.from(body, 'base64');
    der[der.length - 5]! ^= 0x01;
    const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
    expect(csrProblem(tampered)).toMatch(/x509: (ECDSA verification failure|malformed certificate request)/);
  });

  it('checks certificate chains', () => {
    expect(certificateChainProblem('')).toBeUndefined();
    expect(certificateChainProblem('text')).toBe('must contain at least one CERTIFICATE PEM block');
    expect(certificateChainProblem('-----BEGIN FOO-----\nAAAA\n-----END FOO-----\n')).toBe('only CERTIFICATE PEM blocks are allowed, found "FOO"');
    expect(certificateChainProblem('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')).toBe('x509: malformed certificate');
  });
});
