/**
 * The service-account signing key pair, kept beside the cluster CA in the cluster's PKI
 * directory under kubeadm's names (sa.key, sa.pub): kube-apiserver signs tokens with
 * --service-account-signing-key-file and checks them with --service-account-key-file. Created
 * the first time the directory is used, read back on every later start, so tokens issued
 * before a restart stay valid. ECDSA P-256: generated in about a millisecond.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** ServiceAccountKey is the loaded key pair: its files and the private key (PEM, PKCS#8). */
export interface ServiceAccountKey {
  keyFile: string;
  publicKeyFile: string;
  keyPem: string;
}

/** serviceAccountKeyFiles: where a PKI directory keeps the key pair (kubeadm's names). */
export function serviceAccountKeyFiles(pkiDir: string): { keyFile: string; publicKeyFile: string } {
  return { keyFile: join(pkiDir, 'sa.key'), publicKeyFile: join(pkiDir, 'sa.pub') };
}

let processKeyPem: string | undefined;

/** loadOrCreateServiceAccountKey returns the key pair kept in `pkiDir`, creating it the first
 * time. With `shareInProcess` (in-memory clusters, as for the CA) every such cluster of the
 * process signs with the same key. */
export function loadOrCreateServiceAccountKey(pkiDir: string, options: { shareInProcess?: boolean } = {}): ServiceAccountKey {
  const files = serviceAccountKeyFiles(pkiDir);
  if (existsSync(files.keyFile)) return { ...files, keyPem: readFileSync(files.keyFile, 'utf8') };
  const keyPem = options.shareInProcess ? (processKeyPem ??= newKeyPem()) : newKeyPem();
  const publicPem = createPublicKey(createPrivateKey(keyPem)).export({ type: 'spki', format: 'pem' }).toString();
  mkdirSync(pkiDir, { recursive: true, mode: 0o700 });
  writeFileSync(files.keyFile, keyPem, { mode: 0o600 });
  writeFileSync(files.publicKeyFile, publicPem, { mode: 0o644 });
  return { ...files, keyPem };
}

function newKeyPem(): string {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** processServiceAccountKeyPem is the key of servers given none (built without a PKI
 * directory, as tests build them): one per process, made on first use. */
export function processServiceAccountKeyPem(): string {
  processKeyPem ??= newKeyPem();
  return processKeyPem;
}
