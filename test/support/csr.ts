/**
 * Certificate signing requests for tests: real ones made on the spot (newCsrPem), and one
 * fixed request for places that need a value synchronously (SAMPLE_CSR_PEM).
 */
import { loadX509 } from '../../apiserver/api/pki/cluster-ca.js';

/** A valid ECDSA P-256 request for `CN=conformance, O=kubesim` (its key is thrown away). */
export const SAMPLE_CSR_PEM = `-----BEGIN CERTIFICATE REQUEST-----
MIHjMIGKAgEAMCgxFDASBgNVBAMTC2NvbmZvcm1hbmNlMRAwDgYDVQQKEwdrdWJl
c2ltMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE77b19uvxpDSpiyIGZnbP6l2I
yd0CKEJHuaU6Sfe3iMDTI4IO3cDuWDS81/HSUn3F29UsmOXeUQP2EO+8uTHx+aAA
MAoGCCqGSM49BAMCA0gAMEUCIQC53vZGoGzSPPDmfqPd78rZsv7ArqQAm876eEyw
LsYyvwIgYzoxjiw8Enh1fcwm9vvUVYsRgbbUdr3yJl9gXtP7fzw=
-----END CERTIFICATE REQUEST-----
`;

/** base64 is how a request travels in spec.request (a bytes field). */
export const base64 = (text: string) => Buffer.from(text).toString('base64');

/** newCsrPem makes a fresh ECDSA P-256 request for `subject` (`CN=alice, O=dev`), with
 * subject alternative names when given. */
export async function newCsrPem(subject: string, names: { dns?: string[]; ip?: string[] } = {}): Promise<string> {
  const lib = await loadX509();
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const alternativeNames = [
    ...(names.dns ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(names.ip ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  const extensions = alternativeNames.length > 0 ? [new lib.SubjectAlternativeNameExtension(alternativeNames)] : [];
  const csr = await lib.Pkcs10CertificateRequestGenerator.create({ name: subject, keys, signingAlgorithm: algorithm, extensions });
  return csr.toString('pem');
}

/** csrObject is a CertificateSigningRequest asking `signerName` for `pem`. */
export function csrObject(name: string, pem: string, spec: Record<string, unknown> = {}): Record<string, any> {
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request: base64(pem), signerName: 'kubernetes.io/kube-apiserver-client', usages: ['client auth'], ...spec },
  };
}
