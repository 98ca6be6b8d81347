/**
 * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy (CEL validations over matched
 * requests) and ValidatingAdmissionPolicyBinding (where and how a policy applies). Stored,
 * defaulted and validated as kube-apiserver does; compiled and enforced by
 * apiserver/admission/policy (docs/security.md).
 */
import { z } from 'zod';
import { ConditionSchema, LabelSelectorSchema, typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import {
  duplicate,
  forbidden,
  invalid,
  isDns1035Label,
  isDns1123Subdomain,
  isQualifiedName,
  isValidPathSegmentName,
  notSupported,
  required,
  validateLabelSelector,
} from '../validation.js';
import { ValidatingAdmissionPolicyBindingMessage, ValidatingAdmissionPolicyMessage } from './admissionregistration-protobuf.js';
import { type CelCheck, celErrors, goSlice, requiredBecause, validateMatchConditions, validateNamedRuleWithOperations } from './rule-validation.js';
import { ADMISSION_V1, RuleWithOperationsSchema } from './webhook.js';

const GROUP_VERSION = 'admissionregistration.k8s.io/v1';
const atomic = { 'x-kubernetes-list-type': 'atomic' };

const NamedRuleWithOperationsSchema = RuleWithOperationsSchema.extend({
  resourceNames: z.array(z.string()).optional().describe('The names the rule applies to; empty means all.').meta(atomic),
}).meta({ id: `${ADMISSION_V1}.NamedRuleWithOperations`, description: 'NamedRuleWithOperations is a tuple of Operations and Resources with ResourceNames.' });

const MatchResourcesSchema = z
  .object({
    namespaceSelector: LabelSelectorSchema.optional().describe('Only objects in namespaces matching the selector match.'),
    objectSelector: LabelSelectorSchema.optional().describe('Only objects whose labels match the selector match.'),
    resourceRules: z.array(NamedRuleWithOperationsSchema).optional().describe('The operations and resources that match.').meta(atomic),
    excludeResourceRules: z.array(NamedRuleWithOperationsSchema).optional().describe('The operations and resources that never match.').meta(atomic),
    matchPolicy: z.string().optional().describe('Exact or Equivalent (the default).'),
  })
  .meta({
    id: `${ADMISSION_V1}.MatchResources`,
    description: 'MatchResources decides whether to run the admission control policy on an object based on whether it meets the match criteria.',
  });

const nameExpression = <T extends z.ZodRawShape>(id: string, description: string, fields: T) =>
  z.object(fields).meta({ id: `${ADMISSION_V1}.${id}`, description });

const ValidationSchema = nameExpression('Validation', 'Validation specifies the CEL expression which is used to apply the validation.', {
  expression: z.string().describe('The CEL expression a request must satisfy.'),
  message: z.string().optional().describe('The message returned when the validation fails.'),
  reason: z.string().optional().describe('The HTTP reason returned when the validation fails (Unauthorized, Forbidden, Invalid, RequestEntityTooLarge).'),
  messageExpression: z.string().optional().describe('A CEL expression producing the failure message.'),
});

export const ValidatingAdmissionPolicySchema = z
  .object({
    ...typeMetaFields(GROUP_VERSION, 'ValidatingAdmissionPolicy'),
    spec: z
      .object({
        paramKind: z
          .object({
            apiVersion: z.string().optional().describe('The API group version of the params.'),
            kind: z.string().optional().describe('The kind of the params.'),
          })
          .meta({ id: `${ADMISSION_V1}.ParamKind`, description: 'ParamKind is a tuple of Group Kind and Version.' })
          .optional()
          .describe('The kind of the resources used to parameterize the policy.'),
        matchConstraints: MatchResourcesSchema.optional().describe('The resources the policy validates. Required.'),
        validations: z.array(ValidationSchema).optional().describe('The CEL expressions a request must satisfy.').meta(atomic),
        failurePolicy: z.string().optional().describe('Ignore or Fail (the default): what to do when the policy cannot be evaluated.'),
        auditAnnotations: z
          .array(
            nameExpression('AuditAnnotation', 'AuditAnnotation describes how to produce an audit annotation for an API request.', {
              key: z.string().describe('The audit annotation key.'),
              valueExpression: z.string().describe('A CEL expression producing the annotation value.'),
            }),
          )
          .optional()
          .describe('Audit annotations added to the request audit event.')
          .meta(atomic),
        matchConditions: z
          .array(
            nameExpression('MatchCondition', 'MatchCondition represents a condition which must by fulfilled for a request to be sent to a webhook.', {
              name: z.string().describe('An identifier of the condition.'),
              expression: z.string().describe('A CEL expression that must evaluate to a bool.'),
            }),
          )
          .optional()
          .describe('CEL conditions a request must meet to be validated.')
          .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }),
        variables: z
          .array(
            nameExpression('Variable', 'Variable is the definition of a variable that is used for composition.', {
              name: z.string().describe('The variable name.'),
              expression: z.string().describe('The CEL expression of the variable.'),
            }),
          )
          .optional()
          .describe('Named CEL values the other expressions can use.')
          .meta(atomic),
      })
      .meta({
        id: `${ADMISSION_V1}.ValidatingAdmissionPolicySpec`,
        description: 'ValidatingAdmissionPolicySpec is the specification of the desired behavior of the AdmissionPolicy.',
      })
      .optional()
      .describe('The desired behavior of the policy.'),
    status: z
      .object({
        observedGeneration: z.number().int().optional().describe('The generation the controller observed.'),
        typeChecking: z
          .object({
            expressionWarnings: z
              .array(z.object({ fieldRef: z.string(), warning: z.string() }))
              .optional()
              .describe('Type checking warnings per expression.')
              .meta(atomic),
          })
          .optional()
          .describe('The results of type checking each expression.'),
        conditions: z
          .array(ConditionSchema)
          .optional()
          .describe('The latest observations of the policy state.')
          .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }),
      })
      .meta({
        id: `${ADMISSION_V1}.ValidatingAdmissionPolicyStatus`,
        description: 'ValidatingAdmissionPolicyStatus represents the status of an admission validation policy.',
      })
      .optional()
      .describe('The status of the policy, populated by the system.'),
  })
  .meta({
    id: `${ADMISSION_V1}.ValidatingAdmissionPolicy`,
    description: 'ValidatingAdmissionPolicy describes the definition of an admission validation policy that accepts or rejects an object without changing it.',
  });

export type ValidatingAdmissionPolicy = z.infer<typeof ValidatingAdmissionPolicySchema>;

const VALIDATION_ACTIONS = ['Audit', 'Deny', 'Warn'];

export const ValidatingAdmissionPolicyBindingSchema = z
  .object({
    ...typeMetaFields(GROUP_VERSION, 'ValidatingAdmissionPolicyBinding'),
    spec: z
      .object({
        policyName: z.string().optional().describe('The name of the ValidatingAdmissionPolicy the binding applies. Required.'),
        paramRef: z
          .object({
            name: z.string().optional().describe('The name of the params object.'),
            namespace: z.string().optional().describe('The namespace of the params objects.'),
            selector: LabelSelectorSchema.optional().describe('Selects the params objects by label.'),
            parameterNotFoundAction: z.string().optional().describe('Allow or Deny when no params object is found.'),
          })
          .meta({
            id: `${ADMISSION_V1}.ParamRef`,
            description: 'ParamRef describes how to locate the params to be used as input to expressions of rules applied by a policy binding.',
          })
          .optional()
          .describe('The params the policy is evaluated with.'),
        matchResources: MatchResourcesSchema.optional().describe('Further limits the resources the policy applies to.'),
        validationActions: z
          .array(z.string())
          .optional()
          .describe('Deny, Warn and/or Audit: what a failed validation does.')
          .meta({ 'x-kubernetes-list-type': 'set' }),
      })
      .meta({
        id: `${ADMISSION_V1}.ValidatingAdmissionPolicyBindingSpec`,
        description: 'ValidatingAdmissionPolicyBindingSpec is the specification of the ValidatingAdmissionPolicyBinding.',
      })
      .optional()
      .describe('The desired behavior of the binding.'),
  })
  .meta({
    id: `${ADMISSION_V1}.ValidatingAdmissionPolicyBinding`,
    description: 'ValidatingAdmissionPolicyBinding binds the ValidatingAdmissionPolicy with paramerized resources.',
  });

export type ValidatingAdmissionPolicyBinding = z.infer<typeof ValidatingAdmissionPolicyBindingSchema>;

type MatchResources = z.infer<typeof MatchResourcesSchema>;

function defaultMatchResources(match: MatchResources | undefined): void {
  if (!match) return;
  match.matchPolicy ??= 'Equivalent';
  match.namespaceSelector ??= {};
  match.objectSelector ??= {};
  for (const rule of [...(match.resourceRules ?? []), ...(match.excludeResourceRules ?? [])]) rule.scope ??= '*';
}

/** PolicyCelChecks compile a policy's expressions, each where kube-apiserver reports it. The
 * CEL engine is server code apiserver/api may not import: apiserver/admission/policy/write-checks.ts
 * provides them (attached in server-definitions.ts); without them expressions are only
 * checked for presence. */
export interface PolicyCelChecks {
  matchCondition: CelCheck;
  variable: CelCheck;
  validation: CelCheck;
  messageExpression: CelCheck;
  auditAnnotation: CelCheck;
}

/** validatePolicy: kube-apiserver's validation of a policy's spec, in its order. */
export function validatePolicy(policy: ValidatingAdmissionPolicy, checks?: PolicyCelChecks): FieldError[] {
  const spec = policy.spec ?? {};
  const errors: FieldError[] = [];
  if (spec.failurePolicy !== undefined && !FAILURE_POLICIES.includes(spec.failurePolicy))
    errors.push(notSupported('spec.failurePolicy', spec.failurePolicy, FAILURE_POLICIES));
  if (spec.paramKind) errors.push(...validateParamKind(spec.paramKind, 'spec.paramKind'));
  if (!spec.matchConstraints) errors.push(required('spec.matchConstraints'));
  else {
    errors.push(...validateMatchResources(spec.matchConstraints, 'spec.matchConstraints'));
    // At least one resource rule gives the expressions their types.
    if (!spec.matchConstraints.resourceRules?.length) errors.push(required('spec.matchConstraints.resourceRules'));
  }
  errors.push(...validateMatchConditions(spec.matchConditions, 'spec.matchConditions', checks?.matchCondition));
  spec.variables?.forEach((variable, i) => errors.push(...validateVariable(variable, i, `spec.variables[${i}]`, checks)));
  if (!spec.validations?.length && !spec.auditAnnotations?.length) {
    const detail = 'validations or auditAnnotations must contain at least one item';
    return [...errors, requiredBecause('spec.validations', detail), requiredBecause('spec.auditAnnotations', detail)];
  }
  spec.validations?.forEach((validation, i) => errors.push(...validateValidation(validation, i, `spec.validations[${i}]`, checks)));
  errors.push(...validateAuditAnnotations(spec.auditAnnotations, policy.metadata?.name, 'spec.auditAnnotations', checks?.auditAnnotation));
  return errors;
}

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const VALIDATION_REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge'];
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_VALUE_EXPRESSION_BYTES = 5 * 1024;
const CEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const CEL_RESERVED = new Set(
  'true false null in as break const continue else for function if import let loop package namespace return var void while'.split(' '),
);
const hasLineBreak = (text: string) => /[\n\r]/.test(text);

type PolicySpec = NonNullable<ValidatingAdmissionPolicy['spec']>;

/** validateParamKind: apiVersion is group/version with a DNS group and a DNS-1035 version;
 * kind is a DNS-1035 label once lowercased. */
function validateParamKind(paramKind: NonNullable<PolicySpec['paramKind']>, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const apiVersion = paramKind.apiVersion ?? '';
  const slashes = apiVersion.split('/').length - 1;
  if (!apiVersion) errors.push(required(`${at}.apiVersion`));
  else if (slashes > 1) errors.push(invalid(`${at}.apiVersion`, apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
  else {
    const [group, version] = slashes === 1 ? apiVersion.split('/') : ['', apiVersion];
    const groupErrors = group ? isDns1123Subdomain(group) : [];
    if (groupErrors.length > 0) errors.push(invalid(`${at}.apiVersion`, group, groupErrors.join(',')));
    if (!version) errors.push(invalid(`${at}.apiVersion`, apiVersion, 'version must be specified'));
    else {
      const versionErrors = isDns1035Label(version);
      if (versionErrors.length > 0) errors.push(invalid(`${at}.apiVersion`, version, versionErrors.join(',')));
    }
  }
  const kind = paramKind.kind ?? '';
  const kindErrors = kind ? isDns1035Label(kind.toLowerCase()) : [];
  if (!kind) errors.push(required(`${at}.kind`));
  else if (kindErrors.length > 0) errors.push(invalid(`${at}.kind`, kind, `may have mixed case, but should otherwise match: ${kindErrors.join(',')}`));
  return errors;
}

/** validateMatchResources: the defaulted policy and selectors, then every rule. */
function validateMatchResources(match: MatchResources, at: string): FieldError[] {
  const errors: FieldError[] = [];
  if (match.matchPolicy === undefined) errors.push(required(`${at}.matchPolicy`));
  else if (!MATCH_POLICIES.includes(match.matchPolicy)) errors.push(notSupported(`${at}.matchPolicy`, match.matchPolicy, MATCH_POLICIES));
  if (!match.namespaceSelector) errors.push(required(`${at}.namespaceSelector`));
  else errors.push(...validateLabelSelector(match.namespaceSelector, `${at}.namespaceSelector`));
  if (!match.objectSelector) errors.push(required(`${at}.objectSelector`));
  else errors.push(...validateLabelSelector(match.objectSelector, `${at}.objectSelector`));
  match.resourceRules?.forEach((rule, i) => errors.push(...validateNamedRuleWithOperations(rule, `${at}.resourceRules[${i}]`)));
  match.excludeResourceRules?.forEach((rule, i) => errors.push(...validateNamedRuleWithOperations(rule, `${at}.excludeResourceRules[${i}]`)));
  return errors;
}

function validateVariable(variable: { name?: string; expression?: string }, index: number, at: string, checks: PolicyCelChecks | undefined): FieldError[] {
  const errors: FieldError[] = [];
  const name = variable.name ?? '';
  if (!name.trim()) errors.push(requiredBecause(`${at}.name`, 'name is not specified'));
  else if (!CEL_IDENTIFIER.test(name) || CEL_RESERVED.has(name)) errors.push(invalid(`${at}.name`, name, 'name is not a valid CEL identifier'));
  const expression = variable.expression ?? '';
  if (!expression.trim()) errors.push(requiredBecause(`${at}.expression`, 'expression is not specified'));
  else errors.push(...celErrors(checks?.variable, index, `${at}.expression`, expression, expression));
  return errors;
}

function validateValidation(
  validation: NonNullable<PolicySpec['validations']>[number],
  index: number,
  at: string,
  checks: PolicyCelChecks | undefined,
): FieldError[] {
  const errors: FieldError[] = [];
  const expression = validation.expression ?? '';
  if (!expression.trim()) errors.push(requiredBecause(`${at}.expression`, 'expression is not specified'));
  else errors.push(...celErrors(checks?.validation, index, `${at}.expression`, expression, expression));
  const messageExpression = validation.messageExpression ?? '';
  if (messageExpression && !messageExpression.trim()) errors.push(invalid(`${at}.messageExpression`, messageExpression, 'must be non-empty if specified'));
  // Compiled untrimmed, so that columns in the compiler's message are right.
  else if (messageExpression) errors.push(...celErrors(checks?.messageExpression, index, `${at}.messageExpression`, messageExpression, messageExpression));
  const message = validation.message ?? '';
  if (message && !message.trim()) errors.push(invalid(`${at}.message`, message, 'message must be non-empty if specified'));
  else if (hasLineBreak(message.trim())) errors.push(invalid(`${at}.message`, message, 'message must not contain line breaks'));
  if (validation.reason !== undefined && !VALIDATION_REASONS.includes(validation.reason))
    errors.push(notSupported(`${at}.reason`, validation.reason, VALIDATION_REASONS));
  return errors;
}

function validateAuditAnnotations(annotations: PolicySpec['auditAnnotations'], policyName: string | undefined, at: string, check?: CelCheck): FieldError[] {
  if (!annotations) return [];
  const errors: FieldError[] = [];
  if (annotations.length > MAX_AUDIT_ANNOTATIONS) {
    errors.push(invalid(at, annotations, `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`));
  }
  const keys = new Set<string>();
  annotations.forEach((annotation, i) => {
    const key = annotation.key ?? '';
    // The key becomes `<policy name>/<key>`, which must be a qualified name.
    if (policyName) for (const detail of isQualifiedName(`${policyName}/${key}`)) errors.push(invalid(`${at}[${i}].key`, `${policyName}/${key}`, detail));
    else errors.push(invalid(`${at}[${i}].key`, key, 'requires metadata.name be non-empty'));
    const value = annotation.valueExpression?.trim() ?? '';
    if (!value) errors.push(requiredBecause(`${at}[${i}].valueExpression`, 'valueExpression is not specified'));
    else if (Buffer.byteLength(value) > MAX_VALUE_EXPRESSION_BYTES) {
      errors.push(requiredBecause(`${at}[${i}].valueExpression`, `must not exceed ${MAX_VALUE_EXPRESSION_BYTES} bytes in length`));
    } else errors.push(...celErrors(check, i, `${at}[${i}].valueExpression`, value, annotation.valueExpression ?? ''));
    if (keys.has(key)) errors.push(duplicate(`${at}[${i}].key`, key));
    keys.add(key);
  });
  return errors;
}

const PARAMETER_NOT_FOUND_ACTIONS = ['Deny', 'Allow'];

/** validateBinding: kube-apiserver's validation of a binding's spec, in its order. */
export function validateBinding(binding: ValidatingAdmissionPolicyBinding): FieldError[] {
  const spec = binding.spec ?? {};
  const errors: FieldError[] = [];
  if (!spec.policyName) errors.push(required('spec.policyName'));
  else for (const detail of isDns1123Subdomain(spec.policyName)) errors.push(invalid('spec.policyName', spec.policyName, detail));
  if (spec.paramRef) errors.push(...validateParamRef(spec.paramRef, 'spec.paramRef'));
  // kube-apiserver reports these under the misspelled path `spec.matchResouces`.
  if (spec.matchResources) errors.push(...validateMatchResources(spec.matchResources, 'spec.matchResouces'));
  errors.push(...validateValidationActions(spec.validationActions ?? [], 'spec.validationActions'));
  return errors;
}

function validateParamRef(ref: NonNullable<NonNullable<ValidatingAdmissionPolicyBinding['spec']>['paramRef']>, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const exclusive = 'name and selector are mutually exclusive';
  if (ref.name) {
    for (const detail of isValidPathSegmentName(ref.name)) errors.push(invalid(`${at}.name`, ref.name, detail));
    if (ref.selector) errors.push(forbidden(`${at}.name`, exclusive));
  }
  if (ref.selector) {
    errors.push(...validateLabelSelector(ref.selector, `${at}.selector`));
    if (ref.name) errors.push(forbidden(`${at}.selector`, exclusive));
  }
  if (!ref.name && !ref.selector) errors.push(requiredBecause(at, 'one of name or selector must be specified'));
  const action = ref.parameterNotFoundAction;
  if (!action) errors.push(required(`${at}.parameterNotFoundAction`));
  else if (!PARAMETER_NOT_FOUND_ACTIONS.includes(action)) errors.push(notSupported(`${at}.parameterNotFoundAction`, action, PARAMETER_NOT_FOUND_ACTIONS));
  return errors;
}

function validateValidationActions(actions: string[], at: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  actions.forEach((action, i) => {
    if (!VALIDATION_ACTIONS.includes(action)) errors.push(notSupported(`${at}[${i}]`, action, VALIDATION_ACTIONS));
    if (seen.has(action)) errors.push(duplicate(`${at}[${i}]`, action));
    seen.add(action);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    errors.push(
      invalid(
        at,
        goSlice('admissionregistration.ValidationAction', actions),
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ),
    );
  }
  if (seen.size === 0) errors.push(requiredBecause(at, 'at least one validation action is required'));
  return errors;
}

/** paramKindCell prints `apiVersion/Kind`, as kubectl shows a policy's PARAMKIND. */
function paramKindCell(policy: ValidatingAdmissionPolicy): string {
  const kind = policy.spec?.paramKind;
  return kind ? `${kind.apiVersion ?? ''}/${kind.kind ?? ''}` : '<unset>';
}

/** paramRefCell prints `namespace/name` (a star for a missing namespace), or `<unset>`. */
function paramRefCell(binding: ValidatingAdmissionPolicyBinding): string {
  const ref = binding.spec?.paramRef;
  if (!ref) return '<unset>';
  return `${ref.namespace || '*'}/${ref.name || '*'}`;
}

const common = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  shortNames: [],
  categories: ['api-extensions'],
  namespaced: false,
  tracksGeneration: true,
} as const;

export const validatingAdmissionPolicyDefinition: ResourceDefinition<ValidatingAdmissionPolicy> = {
  ...common,
  kind: 'ValidatingAdmissionPolicy',
  plural: 'validatingadmissionpolicies',
  singular: 'validatingadmissionpolicy',
  shortNames: [],
  categories: ['api-extensions'],
  schema: ValidatingAdmissionPolicySchema,
  defaults: (policy) => {
    if (!policy.spec) return;
    policy.spec.failurePolicy ??= 'Fail';
    defaultMatchResources(policy.spec.matchConstraints);
  },
  validate: (policy) => validatePolicy(policy),
  subresources: { status: true },
  printColumns: [
    nameColumn,
    column('Validations', (policy: ValidatingAdmissionPolicy) => policy.spec?.validations?.length ?? 0, {
      type: 'integer',
      description: 'The number of validations.',
    }),
    column('ParamKind', paramKindCell, { description: 'The kind of the params.' }),
    ageColumn,
  ],
  storage: { resource: 'validatingadmissionpolicies.admissionregistration.k8s.io' },
  protobuf: ValidatingAdmissionPolicyMessage,
};

export const validatingAdmissionPolicyBindingDefinition: ResourceDefinition<ValidatingAdmissionPolicyBinding> = {
  ...common,
  kind: 'ValidatingAdmissionPolicyBinding',
  plural: 'validatingadmissionpolicybindings',
  singular: 'validatingadmissionpolicybinding',
  shortNames: [],
  categories: ['api-extensions'],
  schema: ValidatingAdmissionPolicyBindingSchema,
  defaults: (binding) => defaultMatchResources(binding.spec?.matchResources),
  validate: validateBinding,
  subresources: {},
  printColumns: [
    nameColumn,
    column('PolicyName', (binding: ValidatingAdmissionPolicyBinding) => binding.spec?.policyName ?? '', { description: 'The bound policy.' }),
    column('ParamRef', paramRefCell, { description: 'The params of the binding.' }),
    ageColumn,
  ],
  storage: { resource: 'validatingadmissionpolicybindings.admissionregistration.k8s.io' },
  protobuf: ValidatingAdmissionPolicyBindingMessage,
};
