/**
 * The cluster CA: an ECDSA P-256 self-signed certificate authority (CN `kubernetes`, as
 * kubeadm names it), created the first time a cluster's PKI directory is used and read back
 * on every later start. The key file is the owner's alone (0600); the API server publishes
 * only the certificate (the `kube-root-ca.crt` ConfigMaps), and the CSR signer reads the key
 * from the file, as kube-controller-manager reads --cluster-signing-key-file.
 *
 * The X.509 library (@peculiar/x509 over WebCrypto) is loaded on first use only, so
 * processes that never create or sign a certificate do not pay for it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodePemBlocks, encodePem } from './pem.js';

/** ClusterCaFiles names the CA's two files. */
export interface ClusterCaFiles {
  certFile: string;
  keyFile: string;
}

/** ClusterCa is a loaded CA: its certificate (PEM) and its private key. */
export interface ClusterCa extends ClusterCaFiles {
  certPem: string;
  keyPem: string;
}

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { ...EC_P256, hash: 'SHA-256' } as const;
/** kubeadm's CA lifetime: ten years. */
const CA_LIFETIME_MS = 10 * 365 * 24 * 3600_000;

/** clusterCaFiles: where a PKI directory keeps the CA (kubeadm's names). */
export function clusterCaFiles(pkiDir: string): ClusterCaFiles {
  return { certFile: join(pkiDir, 'ca.crt'), keyFile: join(pkiDir, 'ca.key') };
}

type X509 = typeof import('@peculiar/x509');
let x509: Promise<X509> | undefined;

/** loadX509 loads the X.509 library once (it needs reflect-metadata first). */
export function loadX509(): Promise<X509> {
  x509 ??= (async () => {
    await import('reflect-metadata');
    const lib = await import('@peculiar/x509');
    lib.cryptoProvider.set(globalThis.crypto);
    return lib;
  })();
  return x509;
}

/** readClusterCa reads a CA written by loadOrCreateClusterCa. Throws when a file is missing. */
export function readClusterCa(files: ClusterCaFiles): ClusterCa {
  return { ...files, certPem: readFileSync(files.certFile, 'utf8'), keyPem: readFileSync(files.keyFile, 'utf8') };
}

/** loadOrCreateClusterCa returns the CA kept in `pkiDir`, creating it (and the directory,
 * 0700) the first time. With `shareInProcess` (clusters without a data dir, which live as
 * long as the process: startCluster() in a test file), every such cluster of the process gets
 * the same CA, created once: a new CA costs a key pair and, the first time, loading the
 * X.509 library, which would otherwise be paid by every test's cluster. */
export async function loadOrCreateClusterCa(pkiDir: string, options: { now?: Date; shareInProcess?: boolean } = {}): Promise<ClusterCa> {
  const files = clusterCaFiles(pkiDir);
  if (existsSync(files.certFile) && existsSync(files.keyFile)) return readClusterCa(files);
  const now = options.now ?? new Date();
  const { certPem, keyPem } = options.shareInProcess ? await (processCa ??= createCaPem(now)) : await createCaPem(now);
  mkdirSync(pkiDir, { recursive: true, mode: 0o700 });
  writeFileSync(files.keyFile, keyPem, { mode: 0o600 });
  writeFileSync(files.certFile, certPem, { mode: 0o600 });
  return { ...files, certPem, keyPem };
}

let processCa: Promise<{ certPem: string; keyPem: string }> | undefined;

async function createCaPem(now: Date): Promise<{ certPem: string; keyPem: string }> {
  const lib = await loadX509();
  const keys = await crypto.subtle.generateKey(EC_P256, true, ['sign', 'verify']);
  const certificate = await lib.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: 'CN=kubernetes',
    notBefore: now,
    notAfter: new Date(now.getTime() + CA_LIFETIME_MS),
    keys,
    signingAlgorithm: SIGNING,
    extensions: [
      new lib.BasicConstraintsExtension(true, undefined, true),
      new lib.KeyUsagesExtension(lib.KeyUsageFlags.keyCertSign | lib.KeyUsageFlags.digitalSignature | lib.KeyUsageFlags.keyEncipherment, true),
      await lib.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const keyPem = encodePem('PRIVATE KEY', new Uint8Array(await crypto.subtle.exportKey('pkcs8', keys.privateKey)));
  return { certPem: `${certificate.toString('pem')}\n`, keyPem };
}

/** serialNumber: 128 random bits, positive, as hex. */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0]! &= 0x7f;
  return bytes.toString('hex');
}

/** The key usages and extended key usages of certificates.k8s.io, by their API names. */
const KEY_USAGES: Record<string, keyof X509['KeyUsageFlags'] | undefined> = {
  'digital signature': 'digitalSignature',
  'content commitment': 'nonRepudiation',
  'key encipherment': 'keyEncipherment',
  'key agreement': 'keyAgreement',
  'data encipherment': 'dataEncipherment',
  'cert sign': 'keyCertSign',
  'crl sign': 'cRLSign',
  'encipher only': 'encipherOnly',
  'decipher only': 'decipherOnly',
  signing: 'digitalSignature',
};
const EXTENDED_KEY_USAGES: Record<string, string> = {
  any: '2.5.29.37.0',
  'server auth': '1.3.6.1.5.5.7.3.1',
  'client auth': '1.3.6.1.5.5.7.3.2',
  'code signing': '1.3.6.1.5.5.7.3.3',
  'email protection': '1.3.6.1.5.5.7.3.4',
  's/mime': '1.3.6.1.5.5.7.3.4',
  'ipsec end system': '1.3.6.1.5.5.7.3.5',
  'ipsec tunnel': '1.3.6.1.5.5.7.3.6',
  'ipsec user': '1.3.6.1.5.5.7.3.7',
  timestamping: '1.3.6.1.5.5.7.3.8',
  'ocsp signing': '1.3.6.1.5.5.7.3.9',
  'microsoft sgc': '1.3.6.1.4.1.311.10.3.3',
  'netscape sgc': '2.16.840.1.113730.4.1',
};

const SUBJECT_ALTERNATIVE_NAME = '2.5.29.17';

/** SigningRequest is what the CA signs: a PEM request, the usages to grant, the validity. */
export interface SigningRequest {
  csrPem: string;
  usages: readonly string[];
  notBefore: Date;
  notAfter: Date;
}

/** signCertificate issues a certificate for the request's subject, public key and subject
 * alternative names, with the given usages, signed by `ca`. Returns it as PEM. */
export async function signCertificate(ca: ClusterCa, request: SigningRequest): Promise<string> {
  const lib = await loadX509();
  const csr = new lib.Pkcs10CertificateRequest(request.csrPem);
  const caCert = new lib.X509Certificate(ca.certPem);
  const [keyBlock] = decodePemBlocks(ca.keyPem);
  if (!keyBlock) throw new Error('the CA key file holds no PEM block');
  const caKey = await crypto.subtle.importKey('pkcs8', keyBlock.bytes, EC_P256, false, ['sign']);
  const flags = request.usages.reduce((sum, usage) => {
    const flag = KEY_USAGES[usage];
    return flag ? sum | lib.KeyUsageFlags[flag] : sum;
  }, 0);
  const extended = request.usages.flatMap((usage) => (EXTENDED_KEY_USAGES[usage] ? [EXTENDED_KEY_USAGES[usage]] : []));
  const extensions: InstanceType<X509['Extension']>[] = [
    new lib.BasicConstraintsExtension(false, undefined, true),
    ...(flags ? [new lib.KeyUsagesExtension(flags, true)] : []),
    ...(extended.length ? [new lib.ExtendedKeyUsageExtension(extended)] : []),
    await lib.AuthorityKeyIdentifierExtension.create(caCert),
  ];
  const names = csr.getExtension(SUBJECT_ALTERNATIVE_NAME);
  if (names) extensions.push(names);
  const certificate = await lib.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: csr.subjectName,
    issuer: caCert.subjectName,
    notBefore: request.notBefore,
    notAfter: request.notAfter,
    publicKey: csr.publicKey,
    signingKey: caKey,
    signingAlgorithm: SIGNING,
    extensions,
  });
  return `${certificate.toString('pem')}\n`;
}

/** RequestedIdentity is what signers check of a request besides its usages. */
export interface RequestedIdentity {
  commonName: string;
  organizations: string[];
  /** How many subject alternative names of each kind the request asks for. */
  alternativeNames: { dns: number; ip: number; email: number; uri: number };
}

/** requestedIdentity reads the subject and subject alternative names of a PEM request. */
export async function requestedIdentity(csrPem: string): Promise<RequestedIdentity> {
  const lib = await loadX509();
  const csr = new lib.Pkcs10CertificateRequest(csrPem);
  const extension = csr.getExtension(SUBJECT_ALTERNATIVE_NAME);
  const names = extension ? new lib.SubjectAlternativeNameExtension(extension.rawData).names.items : [];
  const count = (type: string) => names.filter((name) => name.type === type).length;
  return {
    commonName: csr.subjectName.getField('CN')[0] ?? '',
    organizations: csr.subjectName.getField('O'),
    alternativeNames: { dns: count('dns'), ip: count('ip'), email: count('email'), uri: count('url') },
  };
}
