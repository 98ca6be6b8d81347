/**
 * controllers/root-ca-publisher — the `kube-root-ca.crt` ConfigMap (the cluster CA
 * certificate) in every active namespace (kube-controller-manager's root-ca-cert-publisher).
 * May import: controllers/runtime/** and apiserver/api/** only. Docs: docs/controllers.md.
 */
export {
  createRootCaReconciler,
  DESCRIPTION_ANNOTATION,
  ROOT_CA_CONFIGMAP,
  ROOT_CA_DESCRIPTION,
  ROOT_CA_PUBLISHER_NAME,
  type RootCaReconcilerDeps,
  registerRootCaPublisher,
} from './root-ca-publisher.js';
