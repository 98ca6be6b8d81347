/**
 * controllers/csr-signing — issues certificates for approved CertificateSigningRequests of
 * the kubernetes.io/kube-apiserver-client, -client-kubelet and kubelet-serving signers with the cluster CA (kube-controller-manager's
 * csrsigning controller). May import: controllers/runtime/** and apiserver/api/** only.
 * Docs: docs/controllers.md.
 */
export {
  CSR_SIGNING_CONTROLLER_NAME,
  type CsrSigningReconcilerDeps,
  createCsrSigningReconciler,
  registerCsrSigningController,
} from './csr-signing-controller.js';
export {
  awaitsSigning,
  KUBE_APISERVER_CLIENT_SIGNER,
  KUBELET_CLIENT_SIGNER,
  KUBELET_SERVING_SIGNER,
  MAX_CERTIFICATE_TTL_MS,
  signerProblem,
  signingTtlMs,
  validity,
} from './signing-policy.js';
