/**
 * Certificates the cluster CA issues to the cluster's own parties, as kubeadm's `init phase
 * certs` and `kubeconfig` phases do: the API server's serving certificate and the client
 * certificates of kubernetes-admin, the controller manager, the scheduler and each node.
 *
 * Keys are ECDSA P-256 (a key pair and a signature cost a few milliseconds, where RSA 2048
 * would cost tens), made and signed with WebCrypto through @peculiar/x509. Certificates kept
 * in a PKI directory are re-made only when missing, expiring, not from this CA, or naming
 * something else; the check reads them with node:crypto, so a start that reuses them never
 * loads the X.509 library.
 */
import { type webcrypto, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { type ClusterCa, loadX509 } from './cluster-ca.js';
import { decodePemBlocks, encodePem } from './pem.js';

/** A certificate and its private key, both PEM. */
export interface KeyPair {
  certPem: string;
  keyPem: string;
}

/** KeyPairFiles names where a PKI directory keeps one key pair. */
export interface KeyPairFiles {
  certFile: string;
  keyFile: string;
}

/** What a client certificate says: its user (CN) and groups (O). */
export interface ClientIdentity {
  commonName: string;
  organizations?: readonly string[];
}

/** Who a serving certificate is for: DNS names and IP addresses. */
export interface ServingNames {
  dnsNames: readonly string[];
  ips: readonly string[];
}

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { ...EC_P256, hash: 'SHA-256' } as const;
/** kubeadm's lifetime for the certificates it issues: one year. */
const LEAF_LIFETIME_MS = 365 * 24 * 3600_000;
/** A kept certificate closer than this to its end is re-made (kubeadm renews within 180 days
 * when asked; a month keeps a long-lived state folder from ever serving an expired one). */
const RENEW_BEFORE_MS = 30 * 24 * 3600_000;
/** Clocks of a machine and a container may disagree a little: valid from a minute ago. */
const BACKDATE_MS = 60_000;
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';

/** The names kube-apiserver's serving certificate always carries (kubeadm's list). */
export const KUBERNETES_DNS_NAMES: readonly string[] = [
  'localhost',
  'kubernetes',
  'kubernetes.default',
  'kubernetes.default.svc',
  'kubernetes.default.svc.cluster.local',
];

/** The cluster's parties with a kept client certificate, by their kubeadm file stem. */
export const ADMIN_IDENTITY: ClientIdentity = { commonName: 'kubernetes-admin', organizations: ['system:masters'] };
export const CONTROLLER_MANAGER_IDENTITY: ClientIdentity = { commonName: 'system:kube-controller-manager' };
export const SCHEDULER_IDENTITY: ClientIdentity = { commonName: 'system:kube-scheduler' };

/** nodeIdentity is a kubelet's client identity (the Node authorizer reads the name from it). */
export function nodeIdentity(nodeName: string): ClientIdentity {
  return { commonName: `system:node:${nodeName}`, organizations: ['system:nodes'] };
}

/** keyPairFiles: `<stem>.crt` and `<stem>.key` in `pkiDir`. */
export function keyPairFiles(pkiDir: string, stem: string): KeyPairFiles {
  return { certFile: join(pkiDir, `${stem}.crt`), keyFile: join(pkiDir, `${stem}.key`) };
}

/** issueClientCertificate makes a key pair and a client-auth certificate for `identity`. */
export function issueClientCertificate(ca: ClusterCa, identity: ClientIdentity, now = new Date()): Promise<KeyPair> {
  return issue(ca, { identity, usage: CLIENT_AUTH, now });
}

/** issueServingCertificate makes a key pair and a server-auth certificate for `names`. */
export function issueServingCertificate(ca: ClusterCa, names: ServingNames, now = new Date()): Promise<KeyPair> {
  return issue(ca, { identity: { commonName: 'kube-apiserver' }, names, usage: SERVER_AUTH, now });
}

/** servingNames are the API server's names when it listens on `host`. */
export function servingNames(host: string, serviceIp: string): ServingNames {
  const bare = host.replace(/^\[|\]$/g, '');
  const ips = new Set(['127.0.0.1', '::1', serviceIp]);
  const dns = new Set(KUBERNETES_DNS_NAMES);
  if (isIP(bare) !== 0) {
    if (bare !== '0.0.0.0' && bare !== '::') ips.add(bare);
  } else if (bare !== '') dns.add(bare);
  return { dnsNames: [...dns], ips: [...ips] };
}

/**
 * ensureServingCertificate returns the serving key pair kept in `files`, making (and keeping)
 * a new one when there is none, or it expires within a month, was not issued by `ca`, or does
 * not name exactly `names`.
 */
export async function ensureServingCertificate(ca: ClusterCa, files: KeyPairFiles, names: ServingNames): Promise<KeyPair> {
  return ensureKept(
    files,
    ca,
    (cert) => namesExactly(cert, names),
    () => issueServingCertificate(ca, names),
  );
}

/** ensureClientCertificate is ensureServingCertificate for a client identity. */
export async function ensureClientCertificate(ca: ClusterCa, files: KeyPairFiles, identity: ClientIdentity): Promise<KeyPair> {
  return ensureKept(
    files,
    ca,
    (cert) => cert.subject === subjectLines(identity),
    () => issueClientCertificate(ca, identity),
  );
}

async function ensureKept(files: KeyPairFiles, ca: ClusterCa, fits: (cert: X509Certificate) => boolean, make: () => Promise<KeyPair>): Promise<KeyPair> {
  const kept = readKept(files);
  if (kept && isCurrent(kept.certPem, ca) && fits(new X509Certificate(kept.certPem))) return kept;
  const fresh = await make();
  writeFileSync(files.keyFile, fresh.keyPem, { mode: 0o600 });
  writeFileSync(files.certFile, fresh.certPem, { mode: 0o600 });
  return fresh;
}

function readKept(files: KeyPairFiles): KeyPair | undefined {
  if (!existsSync(files.certFile) || !existsSync(files.keyFile)) return undefined;
  return { certPem: readFileSync(files.certFile, 'utf8'), keyPem: readFileSync(files.keyFile, 'utf8') };
}

/** isCurrent: issued by `ca` (its signature checks out) and not ending within a month. */
function isCurrent(certPem: string, ca: ClusterCa): boolean {
  try {
    const cert = new X509Certificate(certPem);
    const caCert = new X509Certificate(ca.certPem);
    return cert.checkIssued(caCert) && cert.verify(caCert.publicKey) && Date.parse(cert.validTo) - Date.now() > RENEW_BEFORE_MS;
  } catch {
    return false;
  }
}

/** namesExactly: the certificate's subject alternative names are `names`, no more, no fewer. */
function namesExactly(cert: X509Certificate, names: ServingNames): boolean {
  const count = cert.subjectAltName ? cert.subjectAltName.split(', ').length : 0;
  if (count !== names.dnsNames.length + names.ips.length) return false;
  return names.dnsNames.every((dns) => cert.checkHost(dns, { subject: 'never' }) === dns) && names.ips.every((ip) => cert.checkIP(ip) !== undefined);
}

/** subjectLines is how node:crypto prints a subject of CN and O's. */
function subjectLines(identity: ClientIdentity): string {
  return [...(identity.organizations ?? []).map((o) => `O=${o}`), `CN=${identity.commonName}`].join('\n');
}

/** The CA's private key, imported once per process for each CA. */
const caSigningKeys = new Map<string, Promise<webcrypto.CryptoKey>>();

function caSigningKey(ca: ClusterCa): Promise<webcrypto.CryptoKey> {
  let key = caSigningKeys.get(ca.keyPem);
  if (!key) {
    const [block] = decodePemBlocks(ca.keyPem);
    if (!block) throw new Error(`the CA key ${ca.keyFile} holds no PEM block`);
    key = crypto.subtle.importKey('pkcs8', block.bytes, EC_P256, false, ['sign']);
    caSigningKeys.set(ca.keyPem, key);
  }
  return key;
}

interface IssueRequest {
  identity: ClientIdentity;
  names?: ServingNames;
  usage: string;
  now: Date;
}

async function issue(ca: ClusterCa, request: IssueRequest): Promise<KeyPair> {
  const lib = await loadX509();
  const [keys, signingKey] = await Promise.all([crypto.subtle.generateKey(EC_P256, true, ['sign', 'verify']), caSigningKey(ca)]);
  const caCert = new lib.X509Certificate(ca.certPem);
  const extensions: InstanceType<typeof lib.Extension>[] = [
    new lib.BasicConstraintsExtension(false, undefined, true),
    new lib.KeyUsagesExtension(lib.KeyUsageFlags.digitalSignature | lib.KeyUsageFlags.keyEncipherment, true),
    new lib.ExtendedKeyUsageExtension([request.usage]),
    await lib.AuthorityKeyIdentifierExtension.create(caCert),
  ];
  if (request.names) {
    const entries = [
      ...request.names.dnsNames.map((value) => ({ type: 'dns' as const, value })),
      ...request.names.ips.map((value) => ({ type: 'ip' as const, value })),
    ];
    extensions.push(new lib.SubjectAlternativeNameExtension(entries));
  }
  // Organizations first, then the common name: the order kubeadm's certificates have.
  const subject = [...(request.identity.organizations ?? []).map((o) => ({ O: [o] })), { CN: [request.identity.commonName] }];
  const certificate = await lib.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: new lib.Name(subject),
    issuer: caCert.subjectName,
    notBefore: new Date(request.now.getTime() - BACKDATE_MS),
    notAfter: new Date(request.now.getTime() + LEAF_LIFETIME_MS),
    publicKey: keys.publicKey,
    signingKey,
    signingAlgorithm: SIGNING,
    extensions,
  });
  const keyPem = encodePem('PRIVATE KEY', new Uint8Array(await crypto.subtle.exportKey('pkcs8', keys.privateKey)));
  return { certPem: `${certificate.toString('pem')}\n`, keyPem };
}

function serialNumber(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0]! &= 0x7f;
  return Buffer.from(bytes).toString('hex');
}
