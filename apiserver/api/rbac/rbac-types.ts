/**
 * The building blocks the four rbac.authorization.k8s.io/v1 kinds share: PolicyRule (what a
 * role allows), AggregationRule (which ClusterRoles an aggregated one collects), Subject (who
 * a binding grants to) and RoleRef (which role it grants), with their defaulting and
 * validation worded as kube-apiserver's (pkg/apis/rbac/validation). Nothing is enforced:
 * these kinds are stored objects until authorization arrives.
 */
import { z } from 'zod';
import { LabelSelectorSchema } from '../meta.js';
import { atomicStruct } from '../patch-meta.js';
import { type FieldError, GoLiteral } from '../resource-definition.js';
import { invalid, isDns1123Subdomain, isValidPathSegmentName, notSupported, required, validateLabelSelector } from '../validation.js';

const RBAC_V1 = 'io.k8s.api.rbac.v1';
/** RBAC_GROUP is the API group of roles and bindings, and of User and Group subjects. */
export const RBAC_GROUP = 'rbac.authorization.k8s.io';
const atomicList = { 'x-kubernetes-list-type': 'atomic' } as const;
const strings = (description: string) => z.array(z.string()).optional().meta(atomicList).describe(description);

export const PolicyRuleSchema = z
  .object({
    verbs: strings("Verbs the rule allows (get, list, create, ...); '*' allows every verb."),
    apiGroups: strings("API groups of the resources; '' is the core group and '*' every group."),
    resources: strings("Resources the rule applies to ('pods', 'deployments/scale'); '*' is every resource."),
    resourceNames: strings('Optional allow-list of object names; empty means every object.'),
    nonResourceURLs: strings("URL paths that are not resources ('/healthz', '/api/*'); only in ClusterRoles, never together with resources."),
  })
  .meta({ id: `${RBAC_V1}.PolicyRule`, description: 'PolicyRule describes the verbs allowed on resources or non-resource URLs.', required: ['verbs'] });

export const AggregationRuleSchema = z
  .object({
    clusterRoleSelectors: z
      .array(LabelSelectorSchema)
      .optional()
      .meta(atomicList)
      .describe("ClusterRoles whose labels match any of these selectors have their rules collected into this role's rules by the controller."),
  })
  .meta({ id: `${RBAC_V1}.AggregationRule`, description: 'AggregationRule describes how to build the rules of a ClusterRole from other ClusterRoles.' });

export const SubjectSchema = z
  .object({
    kind: z.string().optional().describe('Kind of the subject: User, Group or ServiceAccount.'),
    apiGroup: z.string().optional().describe(`API group of the subject: "" for ServiceAccount, "${RBAC_GROUP}" for User and Group (the defaults).`),
    name: z.string().optional().describe('Name of the user, group or service account.'),
    namespace: z.string().optional().describe('Namespace of a ServiceAccount subject (required in ClusterRoleBindings).'),
  })
  .meta({
    id: `${RBAC_V1}.Subject`,
    description: 'Subject is a user, a group or a service account a binding grants a role to.',
    required: ['kind', 'name'],
    ...atomicStruct,
  });

export const RoleRefSchema = z
  .object({
    apiGroup: z.string().optional().describe(`API group of the referenced role (${RBAC_GROUP}).`),
    kind: z.string().optional().describe('Kind of the referenced role: Role or ClusterRole.'),
    name: z.string().optional().describe('Name of the referenced role.'),
  })
  .meta({
    id: `${RBAC_V1}.RoleRef`,
    description: 'RoleRef names the role a binding grants. It cannot be changed.',
    required: ['apiGroup', 'kind', 'name'],
    ...atomicStruct,
  });

export type PolicyRule = z.infer<typeof PolicyRuleSchema>;
export type AggregationRule = z.infer<typeof AggregationRuleSchema>;
export type Subject = z.infer<typeof SubjectSchema>;
export type RoleRef = z.infer<typeof RoleRefSchema>;

/** Binding is what RoleBindings and ClusterRoleBindings have in common. The schemas leave
 * the fields kube-apiserver requires optional (publishing them as required) so that a missing
 * one gets kube-apiserver's message from validation rather than a decoding error. */
export interface Binding {
  subjects?: Subject[] | undefined;
  roleRef?: RoleRef | undefined;
}

/** defaultBinding fills the API groups a binding may leave out (rbac/v1 SetDefaults_*); an
 * absent roleRef is the zero RoleRef, as Go decodes it. */
export function defaultBinding(binding: Binding): void {
  binding.roleRef ??= {};
  if (!binding.roleRef.apiGroup) binding.roleRef.apiGroup = RBAC_GROUP;
  for (const subject of binding.subjects ?? []) {
    if (!subject.apiGroup && (subject.kind === 'User' || subject.kind === 'Group')) subject.apiGroup = RBAC_GROUP;
  }
}

/** validateRules checks each rule; `namespaced` rules (a Role's) cannot name URLs. */
export function validateRules(rules: PolicyRule[] | undefined, namespaced: boolean): FieldError[] {
  return (rules ?? []).flatMap((rule, i) => validateRule(rule, namespaced, `rules[${i}]`));
}

function validateRule(rule: PolicyRule, namespaced: boolean, at: string): FieldError[] {
  const errors: FieldError[] = [];
  if ((rule.verbs ?? []).length === 0) errors.push({ ...required(`${at}.verbs`), detail: 'verbs must contain at least one value' });
  const urls = rule.nonResourceURLs ?? [];
  const apiGroups = rule.apiGroups ?? [];
  const resources = rule.resources ?? [];
  const resourceNames = rule.resourceNames ?? [];
  if (urls.length > 0) {
    if (namespaced) errors.push(invalid(`${at}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (apiGroups.length > 0 || resources.length > 0 || resourceNames.length > 0) {
      errors.push(invalid(`${at}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errors;
  }
  if (apiGroups.length === 0) errors.push({ ...required(`${at}.apiGroups`), detail: 'resource rules must supply at least one api group' });
  if (resources.length === 0) errors.push({ ...required(`${at}.resources`), detail: 'resource rules must supply at least one resource' });
  // Kubernetes reports this one as Required too.
  if (resourceNames.length > 0 && resources.length > 1) {
    errors.push({ ...required(`${at}.resourceNames`), detail: 'resource names cannot apply to multiple resources' });
  }
  return errors;
}

/** validateAggregationRule checks the selectors of a ClusterRole's aggregationRule. */
export function validateAggregationRule(rule: AggregationRule | undefined): FieldError[] {
  return (rule?.clusterRoleSelectors ?? []).flatMap((selector, i) => validateLabelSelector(selector, `aggregationRule.clusterRoleSelectors[${i}]`));
}

/** validateBinding checks a binding's roleRef (kinds it may name) and subjects;
 * `namespaced` is true for RoleBindings, whose ServiceAccount subjects may omit a namespace. */
export function validateBinding(binding: Binding, roleKinds: readonly string[], namespaced: boolean): FieldError[] {
  const roleRef = zeroRoleRef(binding.roleRef);
  const errors: FieldError[] = [];
  if (roleRef.apiGroup !== RBAC_GROUP) errors.push(notSupported('roleRef.apiGroup', roleRef.apiGroup, [RBAC_GROUP]));
  if (!roleKinds.includes(roleRef.kind)) errors.push(notSupported('roleRef.kind', roleRef.kind, roleKinds));
  if (!roleRef.name) errors.push(required('roleRef.name'));
  else errors.push(...isValidPathSegmentName(roleRef.name).map((detail) => invalid('roleRef.name', roleRef.name, detail)));
  (binding.subjects ?? []).forEach((subject, i) => errors.push(...validateSubject(subject, namespaced, `subjects[${i}]`)));
  return errors;
}

function validateSubject(subject: Subject, namespaced: boolean, at: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!subject.name) errors.push(required(`${at}.name`));
  const apiGroup = subject.apiGroup ?? '';
  const name = subject.name ?? '';
  switch (subject.kind ?? '') {
    case 'ServiceAccount':
      if (name) errors.push(...isDns1123Subdomain(name).map((detail) => invalid(`${at}.name`, name, detail)));
      if (apiGroup) errors.push(notSupported(`${at}.apiGroup`, apiGroup, ['']));
      if (!namespaced && !subject.namespace) errors.push(required(`${at}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (!name) errors.push(invalid(`${at}.name`, name, `${subject.kind?.toLowerCase()} name cannot be empty`));
      if (apiGroup !== RBAC_GROUP) errors.push(notSupported(`${at}.apiGroup`, apiGroup, [RBAC_GROUP]));
      break;
    default:
      errors.push(notSupported(`${at}.kind`, subject.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errors;
}

/** validateRoleRefUnchanged is the update rule of both bindings: roleRef is immutable (to grant
 * another role, a binding is deleted and created anew). */
export function validateRoleRefUnchanged(binding: Binding, old: Binding | undefined): FieldError[] {
  if (!old) return [];
  const [now, before] = [zeroRoleRef(binding.roleRef), zeroRoleRef(old.roleRef)];
  if (now.apiGroup === before.apiGroup && now.kind === before.kind && now.name === before.name) return [];
  const literal = new GoLiteral(`rbac.RoleRef{APIGroup:${JSON.stringify(now.apiGroup)}, Kind:${JSON.stringify(now.kind)}, Name:${JSON.stringify(now.name)}}`);
  return [invalid('roleRef', literal, 'cannot change roleRef')];
}

/** zeroRoleRef reads a roleRef with Go's zero values for what is absent. */
export function zeroRoleRef(roleRef: RoleRef | undefined): Required<RoleRef> {
  return { apiGroup: roleRef?.apiGroup ?? '', kind: roleRef?.kind ?? '', name: roleRef?.name ?? '' };
}

/** subjectNames splits subjects for the -o wide columns: users, groups, and service
 * accounts as namespace/name (kubectl's SubjectsStrings). */
export function subjectNames(subjects: readonly Subject[] | undefined): { users: string; groups: string; serviceAccounts: string } {
  const of = (kind: string, show: (s: Subject) => string) =>
    (subjects ?? [])
      .filter((s) => s.kind === kind)
      .map(show)
      .join(', ');
  return {
    users: of('User', (s) => s.name ?? ''),
    groups: of('Group', (s) => s.name ?? ''),
    serviceAccounts: of('ServiceAccount', (s) => `${s.namespace ?? ''}/${s.name ?? ''}`),
  };
}
