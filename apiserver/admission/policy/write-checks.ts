/**
 * Compile checks at write time, as kube-apiserver's admissionregistration validation does:
 * a ValidatingAdmissionPolicy whose variables, match conditions, validations, message
 * expressions or audit annotation values do not compile is rejected (422, FieldValueInvalid
 * with "compilation failed: ERROR: <input>:..." or "must evaluate to bool"), and so is a
 * webhook configuration whose matchConditions do not. Empty expressions are left to the kinds'
 * own validation (their Required errors). These errors follow the kind's own ones.
 */
import type { ValidatingAdmissionPolicy } from '../../api/admissionregistration/admission-policy.js';
import type { FieldError, KubeObject } from '../../api/resource-definition.js';
import { invalid } from '../../api/validation.js';
import { BOOL, type Compiled, compileExpression, declarations } from './cel-env.js';
import { compilePolicy } from './compile-policy.js';

const problem = (field: string, value: string, compiled: Compiled): FieldError[] =>
  compiled.error === undefined ? [] : [invalid(field, value, compiled.error)];

/** policyCompileErrors lists the expressions of a policy that do not compile. */
export function policyCompileErrors(policy: ValidatingAdmissionPolicy): FieldError[] {
  const spec = policy.spec ?? {};
  const compiled = compilePolicy(spec);
  const errors: FieldError[] = [];
  compiled.matchConditions.forEach((c, i) => {
    if (c.expression.trim()) errors.push(...problem(`spec.matchConditions[${i}].expression`, c.expression.trim(), c.compiled));
  });
  compiled.variables.forEach((v, i) => {
    const expression = spec.variables?.[i]?.expression ?? '';
    if (expression.trim()) errors.push(...problem(`spec.variables[${i}].expression`, expression, v.compiled));
  });
  compiled.validations.forEach((v, i) => {
    if (v.expression.trim()) errors.push(...problem(`spec.validations[${i}].expression`, v.expression, v.compiled));
    const messageExpression = spec.validations?.[i]?.messageExpression ?? '';
    if (v.messageExpression) errors.push(...problem(`spec.validations[${i}].messageExpression`, messageExpression, v.messageExpression));
  });
  compiled.auditAnnotations.forEach((a, i) => {
    const value = a.valueExpression.trim();
    if (value && Buffer.byteLength(value) <= MAX_VALUE_EXPRESSION_BYTES)
      errors.push(...problem(`spec.auditAnnotations[${i}].valueExpression`, a.valueExpression, a.compiled));
  });
  return errors;
}

/** Longer valueExpressions are rejected by the kind's validation before compiling. */
const MAX_VALUE_EXPRESSION_BYTES = 5 * 1024;

interface WebhookLike {
  matchConditions?: Array<{ name?: string; expression?: string }>;
}

const WEBHOOK_MATCH_CONDITION_ENV = declarations({ hasParams: false, hasAuthorizer: true });

/** webhookMatchConditionErrors lists the webhooks' matchConditions that do not compile to a
 * bool (object, oldObject, request, namespaceObject and authorizer are available; params is not). */
export function webhookMatchConditionErrors(configuration: KubeObject): FieldError[] {
  const webhooks = ((configuration as { webhooks?: WebhookLike[] }).webhooks ?? []) as WebhookLike[];
  const errors: FieldError[] = [];
  webhooks.forEach((webhook, i) => {
    (webhook.matchConditions ?? []).forEach((condition, j) => {
      const expression = (condition.expression ?? '').trim();
      if (!expression) return;
      const compiled = compileExpression(expression, WEBHOOK_MATCH_CONDITION_ENV, BOOL);
      errors.push(...problem(`webhooks[${i}].matchConditions[${j}].expression`, expression, compiled));
    });
  });
  return errors;
}
