/**
 * serverDefinitions: the built-in kinds as this server serves them. A kind's definition
 * carries its whole behaviour; the one exception is a strategy built from server code that
 * apiserver/api may not import (see KindStrategy), attached here — one line per kind — and
 * likewise the compiling of admission CEL expressions in the admissionregistration kinds' validation.
 */
import { policyCelChecks, webhookMatchConditionCheck } from './admission/policy/index.js';
import { type ValidatingAdmissionPolicy, validatePolicy, validatingAdmissionPolicyDefinition } from './api/admissionregistration/admission-policy.js';
import { validateWebhooks, type Webhook } from './api/admissionregistration/webhook.js';
import { mutatingWebhookConfigurationDefinition, validatingWebhookConfigurationDefinition } from './api/admissionregistration/webhook-configuration.js';
import { customResourceDefinitionDefinition } from './api/apiextensions/index.js';
import { builtinDefinitions } from './api/builtin.js';
import type { AnyResourceDefinition, FieldError, KindStrategy, KubeObject } from './api/resource-definition.js';
import { crdStrategy } from './apiextensions/crd-strategy.js';

const SERVER_STRATEGIES = new Map<AnyResourceDefinition, KindStrategy>([[customResourceDefinitionDefinition, crdStrategy]]);

type Validate = (object: KubeObject, old?: KubeObject, subresource?: string) => FieldError[];
const webhooksOf = (object: KubeObject) => (object as { webhooks?: Webhook[] }).webhooks;

/** Validation with the CEL compiler (server code) for the kinds that hold admission expressions. */
const SERVER_VALIDATIONS = new Map<AnyResourceDefinition, Validate>([
  [
    validatingAdmissionPolicyDefinition,
    (object, _old, subresource) => {
      const policy = object as unknown as ValidatingAdmissionPolicy;
      return validatePolicy(policy, subresource ? undefined : policyCelChecks(policy));
    },
  ],
  [validatingWebhookConfigurationDefinition, (object) => validateWebhooks(webhooksOf(object), false, webhookMatchConditionCheck)],
  [mutatingWebhookConfigurationDefinition, (object) => validateWebhooks(webhooksOf(object), true, webhookMatchConditionCheck)],
]);

export function serverDefinitions(): AnyResourceDefinition[] {
  return builtinDefinitions().map((def) => {
    const strategy = SERVER_STRATEGIES.get(def);
    const validate = SERVER_VALIDATIONS.get(def);
    if (!strategy && !validate) return def;
    return { ...def, ...(strategy ? { strategy } : {}), ...(validate ? { validate } : {}) } as AnyResourceDefinition;
  });
}
