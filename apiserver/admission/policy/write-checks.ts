/**
 * Compile checks at write time, as kube-apiserver's admissionregistration validation does:
 * a ValidatingAdmissionPolicy whose variables, match conditions, validations, message
 * expressions or audit annotation values do not compile is refused (422, FieldValueInvalid
 * with "compilation failed: ERROR: <input>:..." or "must evaluate to bool"), and so is a
 * webhook configuration whose matchConditions do not. The kinds' validation (apiserver/api)
 * calls these checks where kube-apiserver reports each error.
 */
import type { PolicyCelChecks, ValidatingAdmissionPolicy } from '../../api/admissionregistration/admission-policy.js';
import type { CelCheck } from '../../api/admissionregistration/rule-validation.js';
import { BOOL, type Compiled, compileExpression, declarations } from './cel-env.js';
import { compilePolicy } from './compile-policy.js';

const detail = (compiled: Compiled | undefined) => compiled?.error;

/** policyCelChecks compiles a policy once and answers for each of its expressions. */
export function policyCelChecks(policy: ValidatingAdmissionPolicy): PolicyCelChecks {
  const compiled = compilePolicy(policy.spec ?? {});
  return {
    matchCondition: (i) => detail(compiled.matchConditions[i]?.compiled),
    variable: (i) => detail(compiled.variables[i]?.compiled),
    validation: (i) => detail(compiled.validations[i]?.compiled),
    messageExpression: (i) => detail(compiled.validations[i]?.messageExpression),
    auditAnnotation: (i) => detail(compiled.auditAnnotations[i]?.compiled),
  };
}

const WEBHOOK_MATCH_CONDITION_ENV = declarations({ hasParams: false, hasAuthorizer: true });

/** webhookMatchConditionCheck compiles a webhook's matchCondition to a bool (object,
 * oldObject, request, namespaceObject and authorizer are available; params is not). */
export const webhookMatchConditionCheck: CelCheck = (_index, expression) => compileExpression(expression, WEBHOOK_MATCH_CONDITION_ENV, BOOL).error;
