/**
 * admissionregistration.k8s.io/v1 webhooks: the entries of Validating- and
 * MutatingWebhookConfigurations, their schema, v1 defaults and kube-apiserver's validation
 * of the fields users get wrong. Stored only: nothing calls the webhooks yet.
 */
import { z } from 'zod';
import { LabelSelectorSchema } from '../meta.js';
import type { FieldError } from '../resource-definition.js';
import { duplicate, invalid, isDns1035Label, notSupported, validateLabelSelector } from '../validation.js';
import {
  type CelCheck,
  isFullyQualifiedName,
  requiredBecause,
  validateMatchConditions,
  validateRuleWithOperations,
  validateWebhookService,
  validateWebhookUrl,
} from './rule-validation.js';

export const ADMISSION_V1 = 'io.k8s.api.admissionregistration.v1';

const strings = (description: string) => z.array(z.string()).optional().describe(description).meta({ 'x-kubernetes-list-type': 'atomic' });

export const RuleWithOperationsSchema = z
  .object({
    operations: strings('The operations the rule matches: CREATE, UPDATE, DELETE, CONNECT or *.'),
    apiGroups: strings("The API groups of the matched resources; '*' is all groups."),
    apiVersions: strings("The API versions of the matched resources; '*' is all versions."),
    resources: strings("The matched resources, e.g. 'pods' or 'pods/status'; '*' is all resources."),
    scope: z.string().optional().describe('Cluster, Namespaced or * (the default).'),
  })
  .meta({ id: `${ADMISSION_V1}.RuleWithOperations`, description: 'RuleWithOperations is a tuple of Operations and Resources.' });

const ServiceReferenceSchema = z
  .object({
    // Required, but by validateWebhookService, for kube-apiserver's "service name is required".
    namespace: z.string().optional().describe('The namespace of the service.'),
    name: z.string().optional().describe('The name of the service.'),
    path: z.string().optional().describe('The URL path requests are sent to.'),
    port: z.int32().optional().describe('The service port the webhook listens on (default 443).'),
  })
  .meta({ id: `${ADMISSION_V1}.ServiceReference`, description: 'ServiceReference holds a reference to Service.legacy.k8s.io' });

const WebhookClientConfigSchema = z
  .object({
    url: z.string().optional().describe('The https URL of the webhook; exactly one of url or service.'),
    service: ServiceReferenceSchema.optional().describe('The in-cluster service of the webhook; exactly one of url or service.'),
    caBundle: z.string().optional().meta({ format: 'byte' }).describe('PEM CA bundle that validates the webhook server certificate.'),
  })
  .meta({ id: `${ADMISSION_V1}.WebhookClientConfig`, description: 'WebhookClientConfig contains the information to make a TLS connection with the webhook' });

const MatchConditionSchema = z
  .object({
    name: z.string().describe('An identifier of the condition.'),
    expression: z.string().describe('A CEL expression that must evaluate to a bool.'),
  })
  .meta({
    id: `${ADMISSION_V1}.MatchCondition`,
    description: 'MatchCondition represents a condition which must by fulfilled for a request to be sent to a webhook.',
  });

/** webhookFields are the fields shared by validating and mutating webhooks. clientConfig,
 * sideEffects and admissionReviewVersions are required, but by validateWebhook, so that a
 * missing one gets kube-apiserver's message (naming the accepted values, or "exactly one of
 * url or service is required"). */
export const webhookFields = {
  name: z.string().describe('The fully qualified name of the webhook, e.g. imagepolicy.kubernetes.io.'),
  clientConfig: WebhookClientConfigSchema.optional().describe('How to reach the webhook.'),
  rules: z
    .array(RuleWithOperationsSchema)
    .optional()
    .describe('The operations and resources the webhook cares about.')
    .meta({ 'x-kubernetes-list-type': 'atomic' }),
  failurePolicy: z.string().optional().describe('Ignore or Fail (the default): what to do when the webhook cannot be called.'),
  matchPolicy: z.string().optional().describe('Exact or Equivalent (the default): how rules match requests to other versions.'),
  namespaceSelector: LabelSelectorSchema.optional().describe('Only objects in namespaces matching the selector are sent.'),
  objectSelector: LabelSelectorSchema.optional().describe('Only objects whose labels match the selector are sent.'),
  sideEffects: z.string().optional().describe('None or NoneOnDryRun: whether calling the webhook has side effects.'),
  timeoutSeconds: z.int32().optional().describe('How long to wait for the webhook, 1 to 30 seconds (default 10).'),
  admissionReviewVersions: z
    .array(z.string())
    .optional()
    .describe('The AdmissionReview versions the webhook accepts, in order of preference.')
    .meta({ 'x-kubernetes-list-type': 'atomic' }),
  matchConditions: z
    .array(MatchConditionSchema)
    .optional()
    .describe('CEL conditions a request must meet to be sent.')
    .meta({
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-patch-merge-key': 'name',
    }),
};

export type Webhook = z.infer<z.ZodObject<typeof webhookFields>> & { reinvocationPolicy?: string };

/** defaultWebhook fills in what kube-apiserver's v1 defaulting does for every webhook. */
export function defaultWebhook(webhook: Webhook): void {
  webhook.failurePolicy ??= 'Fail';
  webhook.matchPolicy ??= 'Equivalent';
  webhook.namespaceSelector ??= {};
  webhook.objectSelector ??= {};
  webhook.timeoutSeconds ??= 10;
  for (const rule of webhook.rules ?? []) rule.scope ??= '*';
  if (webhook.clientConfig?.service) webhook.clientConfig.service.port ??= 443;
}

const SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const REVIEW_VERSIONS = ['v1', 'v1beta1'];
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];

/**
 * validateWebhooks checks a configuration's webhooks as kube-apiserver's v1 validation does on
 * create, in its order: each webhook's own fields, then its admissionReviewVersions, then
 * whether its name repeats an earlier one. `mutating` adds reinvocationPolicy.
 */
export function validateWebhooks(webhooks: Webhook[] | undefined, mutating: boolean, check?: CelCheck): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (webhooks ?? []).forEach((webhook, i) => {
    const at = `webhooks[${i}]`;
    errors.push(...validateWebhook(webhook, at, mutating, check));
    errors.push(...validateAdmissionReviewVersions(webhook.admissionReviewVersions, `${at}.admissionReviewVersions`));
    if (webhook.name) {
      if (seen.has(webhook.name)) errors.push(duplicate(`${at}.name`, webhook.name));
      seen.add(webhook.name);
    }
  });
  return errors;
}

function validateWebhook(webhook: Webhook, at: string, mutating: boolean, check: CelCheck | undefined): FieldError[] {
  const errors = isFullyQualifiedName(webhook.name, `${at}.name`);
  (webhook.rules ?? []).forEach((rule, i) => errors.push(...validateRuleWithOperations(rule, `${at}.rules[${i}]`)));
  if (webhook.failurePolicy !== undefined && !FAILURE_POLICIES.includes(webhook.failurePolicy))
    errors.push(notSupported(`${at}.failurePolicy`, webhook.failurePolicy, FAILURE_POLICIES));
  if (webhook.matchPolicy !== undefined && !MATCH_POLICIES.includes(webhook.matchPolicy))
    errors.push(notSupported(`${at}.matchPolicy`, webhook.matchPolicy, MATCH_POLICIES));
  if (webhook.sideEffects === undefined) errors.push(requiredBecause(`${at}.sideEffects`, `must specify one of ${SIDE_EFFECTS.join(', ')}`));
  else if (!SIDE_EFFECTS.includes(webhook.sideEffects)) errors.push(notSupported(`${at}.sideEffects`, webhook.sideEffects, SIDE_EFFECTS));
  const timeout = webhook.timeoutSeconds;
  if (timeout !== undefined && (timeout < 1 || timeout > 30))
    errors.push(invalid(`${at}.timeoutSeconds`, timeout, 'the timeout value must be between 1 and 30 seconds'));
  if (webhook.namespaceSelector) errors.push(...validateLabelSelector(webhook.namespaceSelector, `${at}.namespaceSelector`));
  if (webhook.objectSelector) errors.push(...validateLabelSelector(webhook.objectSelector, `${at}.objectSelector`));
  const policy = webhook.reinvocationPolicy;
  if (mutating && policy !== undefined && !REINVOCATION_POLICIES.includes(policy))
    errors.push(notSupported(`${at}.reinvocationPolicy`, policy, REINVOCATION_POLICIES));
  errors.push(...validateClientConfig(webhook.clientConfig, `${at}.clientConfig`));
  errors.push(...validateMatchConditions(webhook.matchConditions, `${at}.matchConditions`, check));
  return errors;
}

/** validateAdmissionReviewVersions: at least one, no repeats, DNS-1035 labels, one of v1/v1beta1. */
function validateAdmissionReviewVersions(versions: string[] | undefined, at: string): FieldError[] {
  if (!versions?.length) return [requiredBecause(at, `must specify one of ${REVIEW_VERSIONS.join(', ')}`)];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((version, i) => {
    if (seen.has(version)) {
      errors.push(invalid(`${at}[${i}]`, version, 'duplicate version'));
      return;
    }
    seen.add(version);
    for (const detail of isDns1035Label(version)) errors.push(invalid(`${at}[${i}]`, version, detail));
  });
  if (!versions.some((version) => REVIEW_VERSIONS.includes(version))) {
    errors.push(invalid(at, versions, `must include at least one of ${REVIEW_VERSIONS.join(', ')}`));
  }
  return errors;
}

/** validateClientConfig: exactly one of url and service (an empty url still counts as set). */
function validateClientConfig(config: Webhook['clientConfig'] | undefined, at: string): FieldError[] {
  const hasUrl = config?.url !== undefined;
  const hasService = config?.service !== undefined;
  if (hasUrl === hasService) return [requiredBecause(at, 'exactly one of url or service is required')];
  if (config?.service) return validateWebhookService(config.service, `${at}.service`);
  return validateWebhookUrl(config?.url ?? '', `${at}.url`);
}
