/**
 * The certificates and kubeconfigs of a `kubesim up` cluster over HTTPS, as kubeadm writes
 * them: the cluster CA, then client certificates for kubernetes-admin (system:masters: the
 * kubeconfig the user gets), system:kube-controller-manager and system:kube-scheduler, kept in
 * the PKI folder and made only when missing or expiring, so a later `up` pays nothing.
 */
import { join } from 'node:path';
import { loadOrCreateClusterCa } from '../../apiserver/api/pki/cluster-ca.js';
import {
  ADMIN_IDENTITY,
  type ClientIdentity,
  CONTROLLER_MANAGER_IDENTITY,
  ensureClientCertificate,
  type KeyPair,
  keyPairFiles,
  SCHEDULER_IDENTITY,
} from '../../apiserver/api/pki/issue.js';
import { fileStemOf } from '../../apiserver/api/pki/serving.js';
import type { ClientTls } from '../../controllers/runtime/client/http-transport.js';
import { writeKubeconfig } from '../kubeconfig.js';

export interface UpCredentials {
  /** What `up` itself uses to watch the nodes come up. */
  adminTls: ClientTls;
  controllerManagerKubeconfig: string;
  schedulerKubeconfig: string;
  /** Writes the user's kubeconfig (admin) and the components' for the server at `url`. */
  writeKubeconfigs(url: string, adminKubeconfig: string): void;
}

/** prepareCredentials makes (or reads back) the CA and the client certificates in `pkiDir`. */
export async function prepareCredentials(pkiDir: string): Promise<UpCredentials> {
  const ca = await loadOrCreateClusterCa(pkiDir);
  const certificate = (identity: ClientIdentity) => ensureClientCertificate(ca, keyPairFiles(pkiDir, fileStemOf(identity)), identity);
  const [admin, controllerManager, scheduler] = (await Promise.all([ADMIN_IDENTITY, CONTROLLER_MANAGER_IDENTITY, SCHEDULER_IDENTITY].map(certificate))) as [
    KeyPair,
    KeyPair,
    KeyPair,
  ];
  const controllerManagerKubeconfig = join(pkiDir, 'controller-manager.conf');
  const schedulerKubeconfig = join(pkiDir, 'scheduler.conf');
  return {
    adminTls: { ca: ca.certPem, cert: admin.certPem, key: admin.keyPem },
    controllerManagerKubeconfig,
    schedulerKubeconfig,
    writeKubeconfigs(url, adminKubeconfig) {
      writeKubeconfig(adminKubeconfig, url, { caPem: ca.certPem, ...admin });
      writeKubeconfig(controllerManagerKubeconfig, url, { caPem: ca.certPem, ...controllerManager });
      writeKubeconfig(schedulerKubeconfig, url, { caPem: ca.certPem, ...scheduler });
    },
  };
}
