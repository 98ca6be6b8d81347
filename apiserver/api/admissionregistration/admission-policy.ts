/**
 * admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy (CEL validations over matched
 * requests) and ValidatingAdmissionPolicyBinding (where and how a policy applies). Stored,
 * defaulted and validated as kube-apiserver does; evaluating them is the next issue.
 */
import { z } from 'zod';
import { ConditionSchema, LabelSelectorSchema, typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { notSupported, required } from '../validation.js';
import { ValidatingAdmissionPolicyBindingMessage, ValidatingAdmissionPolicyMessage } from './admissionregistration-protobuf.js';
import { ADMISSION_V1, RuleWithOperationsSchema, requiredBecause } from './webhook.js';

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

/** validatePolicy: what kube-apiserver requires of a policy's spec. */
export function validatePolicy(policy: ValidatingAdmissionPolicy): FieldError[] {
  const spec = policy.spec ?? {};
  const errors: FieldError[] = [];
  if (!spec.matchConstraints) errors.push(required('spec.matchConstraints'));
  else if (!spec.matchConstraints.resourceRules?.length) errors.push(required('spec.matchConstraints.resourceRules'));
  if (!spec.validations?.length && !spec.auditAnnotations?.length) {
    errors.push(requiredBecause('spec.validations', 'validations or auditAnnotations must contain at least one item'));
  }
  spec.validations?.forEach((validation, i) => {
    if (!validation.expression?.trim()) errors.push(required(`spec.validations[${i}].expression`));
  });
  if (spec.failurePolicy && !['Fail', 'Ignore'].includes(spec.failurePolicy))
    errors.push(notSupported('spec.failurePolicy', spec.failurePolicy, ['Fail', 'Ignore']));
  return errors;
}

/** validateBinding: a binding names its policy and says what a failure does. */
export function validateBinding(binding: ValidatingAdmissionPolicyBinding): FieldError[] {
  const spec = binding.spec ?? {};
  const errors: FieldError[] = [];
  if (!spec.policyName) errors.push(required('spec.policyName'));
  const actions = spec.validationActions ?? [];
  if (actions.length === 0) errors.push(requiredBecause('spec.validationActions', 'at least one validation action is required'));
  actions.forEach((action, i) => {
    if (!VALIDATION_ACTIONS.includes(action)) errors.push(notSupported(`spec.validationActions[${i}]`, action, VALIDATION_ACTIONS));
  });
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
  validate: validatePolicy,
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
