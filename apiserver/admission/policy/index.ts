/**
 * ValidatingAdmissionPolicy (docs/security.md, "ValidatingAdmissionPolicy"): the admission
 * plugin, the compile checks of admission CEL at write time, and the status type checker.
 */
export { createValidatingAdmissionPolicy, PLUGIN_NAME, type PolicyPluginOptions, validatingAdmissionPolicy } from './plugin.js';
export { policyCelChecks, webhookMatchConditionCheck } from './write-checks.js';
