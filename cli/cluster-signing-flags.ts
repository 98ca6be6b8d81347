/**
 * The flags that hand the cluster's keys to a controller process, named as
 * kube-controller-manager names them: the CSR signer signs with the CA key, the root CA
 * publisher publishes the certificate, the token controller signs with the service-account
 * key. `kubesim up` passes the files of its data dir's PKI folder.
 */
import { resolve } from 'node:path';
import type { ClusterCaFiles } from '../apiserver/api/pki/cluster-ca.js';
import { type FlagSpec, UsageError } from './args.js';

export const clusterSigningFlags: Record<string, FlagSpec> = {
  'cluster-signing-cert-file': { type: 'string', description: 'the cluster CA certificate (PEM): signs CSRs, published as kube-root-ca.crt' },
  'cluster-signing-key-file': { type: 'string', description: 'the cluster CA private key (PEM): signs CSRs' },
  'service-account-private-key-file': {
    type: 'string',
    description: "the service-account signing key (PEM, the API server's sa.key): signs the tokens of kubernetes.io/service-account-token Secrets",
  },
};

/** clusterSigningArgs are the flags that give a controller process the CA's files. */
export function clusterSigningArgs(files: ClusterCaFiles): string[] {
  return ['--cluster-signing-cert-file', files.certFile, '--cluster-signing-key-file', files.keyFile];
}

/** serviceAccountKeyFromFlags reads --service-account-private-key-file. */
export function serviceAccountKeyFromFlags(flags: Record<string, unknown>): string | undefined {
  const file = flags['service-account-private-key-file'];
  return file === undefined ? undefined : resolve(String(file));
}

/** clusterCaFromFlags reads the two flags; both or neither. */
export function clusterCaFromFlags(flags: Record<string, unknown>): ClusterCaFiles | undefined {
  const [cert, key] = [flags['cluster-signing-cert-file'], flags['cluster-signing-key-file']];
  if (cert === undefined && key === undefined) return undefined;
  if (cert === undefined || key === undefined) throw new UsageError('--cluster-signing-cert-file and --cluster-signing-key-file go together');
  return { certFile: resolve(String(cert)), keyFile: resolve(String(key)) };
}
