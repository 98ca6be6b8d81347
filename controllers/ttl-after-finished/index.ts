/**
 * controllers/ttl-after-finished — deletes finished Jobs once their
 * `spec.ttlSecondsAfterFinished` has passed (foreground: the garbage collector removes their
 * pods). May import: controllers/runtime/** and apiserver/api/** only. Docs: docs/controllers.md.
 */
export {
  createTtlAfterFinishedReconciler,
  expiresAtMs,
  registerTtlAfterFinishedController,
  TTL_AFTER_FINISHED_CONTROLLER_NAME,
  type TtlReconcilerDeps,
} from './ttl-after-finished-controller.js';
