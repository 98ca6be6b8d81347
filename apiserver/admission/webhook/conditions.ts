/**
 * matchConditions: CEL expressions over `object`, `oldObject` and `request` (kube's
 * variables; `authorizer` is not offered) that must all be true for the webhook to be called.
 * An expression that fails to evaluate is a call failure: failurePolicy decides.
 */
import type { Webhook } from '../../api/admissionregistration/webhook.js';
import { evaluate } from '../../apiextensions/cel/index.js';
import { WebhookCallError } from './errors.js';

type MatchCondition = { name: string; expression: string };

/** matchesConditions is true when every condition is true (or there are none). Throws
 * WebhookCallError when one cannot be evaluated. */
export function matchesConditions(webhook: Webhook, variables: { object: unknown; oldObject: unknown; request: unknown }): boolean {
  const conditions = (webhook as { matchConditions?: MatchCondition[] }).matchConditions ?? [];
  const errors: string[] = [];
  for (const condition of conditions) {
    try {
      const value = evaluate(condition.expression, variables);
      if (value === false) return false;
      if (value !== true) errors.push(`expression '${condition.name}' resulted in error: no such overload`);
    } catch (err) {
      errors.push(`expression '${condition.name}' resulted in error: ${(err as Error).message}`);
    }
  }
  if (errors.length) throw new WebhookCallError(`forbidden: ${errors.join(', ')}`);
  return true;
}
