/**
 * The CSR signer (kube-controller-manager's csrsigning controller for the
 * kubernetes.io/kube-apiserver-client, kube-apiserver-client-kubelet and kubelet-serving
 * signers): an approved request of one of them gets a certificate issued by the cluster CA,
 * for the request's subject, key and alternative names, with the requested usages and duration
 * (capped at one year), written to status.certificate. A request that does not fit its signer
 * (usages, a kubelet's subject) gets a Failed condition saying why instead.
 *
 * The CA's key is read from the file given to the process (--cluster-signing-key-file), never
 * from the API. Validity is wall-clock time: TLS stacks check certificates against the real
 * time, whatever speed the cluster clock runs at.
 */
import { X509Certificate } from 'node:crypto';
import { type CertificateSigningRequest, certificateSigningRequestDefinition } from '../../apiserver/api/certificates/index.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import { type ClusterCa, readClusterCa, requestedIdentity, signCertificate } from '../../apiserver/api/pki/cluster-ca.js';
import { newControllerManagedBy } from '../runtime/builder.js';
import type { Controller } from '../runtime/controller.js';
import type { Manager } from '../runtime/manager.js';
import type { Clock, Lister, Reconciler, ResourceClient } from '../runtime/types.js';
import { awaitsSigning, isOurSigner, signerProblem, signingTtlMs, validity } from './signing-policy.js';

/** CSR_SIGNING_CONTROLLER_NAME names the controller in logs and counters. */
export const CSR_SIGNING_CONTROLLER_NAME = 'csrsigning';

export interface CsrSigningReconcilerDeps {
  csrLister: Lister<CertificateSigningRequest>;
  csrs: Pick<ResourceClient<CertificateSigningRequest>, 'updateStatus'>;
  ca: () => ClusterCa;
  /** The cluster clock, for condition times. */
  clock: Clock;
  /** Wall-clock milliseconds, for the certificate's validity. */
  wallNow: () => number;
}

/** createCsrSigningReconciler returns the Reconciler that signs one request (keyed by name). */
export function createCsrSigningReconciler(deps: CsrSigningReconcilerDeps): Reconciler {
  return {
    reconcile: async ({ name }) => {
      const csr = deps.csrLister.get('', name);
      if (!csr || !isOurSigner(csr.spec.signerName) || !awaitsSigning(csr)) return {};
      const next = structuredClone(csr) as CertificateSigningRequest;
      const csrPem = Buffer.from(next.spec.request, 'base64').toString('utf8');
      const problem = signerProblem(next.spec.signerName, next.spec.usages ?? [], await requestedIdentity(csrPem));
      if (problem) {
        const failed = { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: problem, lastUpdateTime: rfc3339(deps.clock.now()) };
        next.status = { ...next.status, conditions: [...(next.status?.conditions ?? []), failed] };
      } else {
        next.status = { ...next.status, certificate: Buffer.from(await issue(deps, next, csrPem)).toString('base64') };
      }
      await deps.csrs.updateStatus(next);
      return {};
    },
  };
}

async function issue(deps: CsrSigningReconcilerDeps, csr: CertificateSigningRequest, csrPem: string): Promise<string> {
  const ca = deps.ca();
  const caNotAfter = Date.parse(new X509Certificate(ca.certPem).validTo);
  const { notBefore, notAfter } = validity(deps.wallNow(), signingTtlMs(csr.spec.expirationSeconds), caNotAfter);
  return signCertificate(ca, { csrPem, usages: csr.spec.usages ?? [], notBefore, notAfter });
}

/** registerCsrSigningController adds the signer to `manager`, when the process was given the
 * CA's files; without them it has nothing to sign with and says so. */
export function registerCsrSigningController(manager: Manager, { workers = 1 }: { workers?: number } = {}): Controller | undefined {
  const files = manager.clusterCa;
  if (!files) {
    manager.logger.warn({}, 'no cluster CA given (--cluster-signing-cert-file, --cluster-signing-key-file): CSRs are not signed');
    return undefined;
  }
  const csrLister = manager.informer(certificateSigningRequestDefinition).lister;
  return newControllerManagedBy(manager)
    .named(CSR_SIGNING_CONTROLLER_NAME)
    .for(certificateSigningRequestDefinition, { predicates: { delete: () => false } })
    .workers(workers)
    .complete(() =>
      createCsrSigningReconciler({
        csrLister,
        csrs: manager.client.resource(certificateSigningRequestDefinition),
        // Read on every signing, so a CA replaced on disk is used at once.
        ca: () => readClusterCa(files),
        clock: manager.clock,
        wallNow: () => Date.now(),
      }),
    );
}
