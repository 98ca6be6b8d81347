/**
 * serverDefinitions: the built-in kinds as this server serves them. A kind's definition
 * carries its whole behaviour; the one exception is a strategy built from server code that
 * apiserver/api may not import (see KindStrategy), attached here — one line per kind — and
 * likewise validation that needs server code (compiling admission CEL), run after the kind's own.
 */
import { policyCompileErrors, webhookMatchConditionErrors } from './admission/policy/index.js';
import { validatingAdmissionPolicyDefinition } from './api/admissionregistration/admission-policy.js';
import { mutatingWebhookConfigurationDefinition, validatingWebhookConfigurationDefinition } from './api/admissionregistration/webhook-configuration.js';
import { customResourceDefinitionDefinition } from './api/apiextensions/index.js';
import { builtinDefinitions } from './api/builtin.js';
import type { AnyResourceDefinition, FieldError, KindStrategy, KubeObject } from './api/resource-definition.js';
import { crdStrategy } from './apiextensions/crd-strategy.js';

const SERVER_STRATEGIES = new Map<AnyResourceDefinition, KindStrategy>([[customResourceDefinitionDefinition, crdStrategy]]);

type ServerValidation = (object: KubeObject) => FieldError[];

/** Checks of the main resource (not its status) that need server code, after the kind's own. */
const SERVER_VALIDATIONS = new Map<AnyResourceDefinition, ServerValidation>([
  [validatingAdmissionPolicyDefinition, policyCompileErrors as unknown as ServerValidation],
  [validatingWebhookConfigurationDefinition, webhookMatchConditionErrors],
  [mutatingWebhookConfigurationDefinition, webhookMatchConditionErrors],
]);

export function serverDefinitions(): AnyResourceDefinition[] {
  return builtinDefinitions().map((def) => {
    const strategy = SERVER_STRATEGIES.get(def);
    const served = strategy ? { ...def, strategy } : def;
    const extra = SERVER_VALIDATIONS.get(def);
    if (!extra) return served;
    const own = def.validate as ((object: KubeObject, old?: KubeObject, subresource?: string) => FieldError[]) | undefined;
    const validate = (object: KubeObject, old?: KubeObject, subresource?: string) => {
      const errors = own?.(object, old, subresource) ?? [];
      return subresource ? errors : [...errors, ...extra(object)];
    };
    return { ...served, validate } as AnyResourceDefinition;
  });
}
