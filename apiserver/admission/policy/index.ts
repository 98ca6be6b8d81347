/**
 * ValidatingAdmissionPolicy (docs/security.md, "ValidatingAdmissionPolicy"): the admission
 * plugin, the compile checks of admission CEL at write time, and the status type checker.
 */
export { PLUGIN_NAME, validatingAdmissionPolicy } from './plugin.js';
export { policyCompileErrors, webhookMatchConditionErrors } from './write-checks.js';
