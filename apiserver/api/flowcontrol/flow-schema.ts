/**
 * flowcontrol.apiserver.k8s.io/v1 FlowSchema: which requests (by user, group or service
 * account, verb, resource or URL) go to which priority level of API Priority and Fairness.
 * kubesim stores, defaults and validates FlowSchemas as kube-apiserver does but enforces none
 * of them: it has no request queuing (docs/compatibility.md, "API priority and fairness").
 */
import { z } from 'zod';
import { deepEqual } from '../deep-equal.js';
import { ConditionSchema, typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import { type FieldError, GoLiteral, type ResourceDefinition } from '../resource-definition.js';
import { forbidden, invalid, isDns1123Label, isDns1123Subdomain, notSupported, required } from '../validation.js';
import { BOOTSTRAP_FLOW_SCHEMAS } from './bootstrap-configuration.js';

const V1 = 'io.k8s.api.flowcontrol.v1';
const atomicList = { 'x-kubernetes-list-type': 'atomic' } as const;
const strings = (description: string) => z.array(z.string()).optional().describe(description).meta(atomicList);

const SubjectSchema = z
  .object({
    kind: z.string().describe('User, Group or ServiceAccount: which of the other fields names the subject.'),
    user: z
      .object({ name: z.string().describe('The user name, or "*" for every user.') })
      .meta({ id: `${V1}.UserSubject`, description: 'UserSubject holds detailed information for user-kind subject.' })
      .optional()
      .describe('The user, when kind is User.'),
    group: z
      .object({ name: z.string().describe('The group name, or "*" for every group.') })
      .meta({ id: `${V1}.GroupSubject`, description: 'GroupSubject holds detailed information for group-kind subject.' })
      .optional()
      .describe('The group, when kind is Group.'),
    serviceAccount: z
      .object({
        namespace: z.string().describe('The namespace of the service account.'),
        name: z.string().describe('The service account name, or "*" for every one in the namespace.'),
      })
      .meta({ id: `${V1}.ServiceAccountSubject`, description: 'ServiceAccountSubject holds detailed information for service-account-kind subject.' })
      .optional()
      .describe('The service account, when kind is ServiceAccount.'),
  })
  .meta({
    id: `${V1}.Subject`,
    description: 'Subject matches the originator of a request, as identified by the request authentication system.',
    'x-kubernetes-unions': [{ discriminator: 'kind', 'fields-to-discriminateBy': { group: 'Group', serviceAccount: 'ServiceAccount', user: 'User' } }],
  });

const ResourcePolicyRuleSchema = z
  .object({
    verbs: strings('Verbs that match, or ["*"] for all. Required.'),
    apiGroups: strings('API groups that match ("" for core), or ["*"] for all. Required.'),
    resources: strings('Resources (lowercase plural, with "/subresource") that match, or ["*"] for all. Required.'),
    clusterScope: z.boolean().optional().describe('Whether requests that name no namespace match.'),
    namespaces: strings('Namespaces that match, or ["*"] for every namespace.'),
  })
  .meta({
    id: `${V1}.ResourcePolicyRule`,
    description: "ResourcePolicyRule is a predicate that matches some resource requests, testing the request's verb and the target resource.",
  });

const NonResourcePolicyRuleSchema = z
  .object({
    verbs: strings('Verbs that match, or ["*"] for all. Required.'),
    nonResourceURLs: strings('URL paths that match, e.g. "/healthz" or "/apis/*"; ["*"] for all. Required.'),
  })
  .meta({
    id: `${V1}.NonResourcePolicyRule`,
    description: 'NonResourcePolicyRule is a predicate that matches non-resource requests according to their verb and the target non-resource URL.',
  });

const PolicyRulesWithSubjectsSchema = z
  .object({
    subjects: z.array(SubjectSchema).optional().describe('Who the rule applies to. Required.').meta(atomicList),
    resourceRules: z.array(ResourcePolicyRuleSchema).optional().describe('Resource requests that match.').meta(atomicList),
    nonResourceRules: z.array(NonResourcePolicyRuleSchema).optional().describe('Non-resource requests that match.').meta(atomicList),
  })
  .meta({ id: `${V1}.PolicyRulesWithSubjects`, description: 'PolicyRulesWithSubjects prescribes a test that applies to a request to an apiserver.' });

export const FlowSchemaConditionSchema = ConditionSchema.omit({ observedGeneration: true }).meta({
  id: `${V1}.FlowSchemaCondition`,
  description: 'FlowSchemaCondition describes conditions for a FlowSchema.',
});

export const FlowSchemaSchema = z
  .object({
    ...typeMetaFields('flowcontrol.apiserver.k8s.io/v1', 'FlowSchema'),
    spec: z
      .object({
        priorityLevelConfiguration: z
          .object({ name: z.string().describe('The name of the PriorityLevelConfiguration. Required.') })
          .meta({
            id: `${V1}.PriorityLevelConfigurationReference`,
            description: 'PriorityLevelConfigurationReference contains information that points to the "request-priority" being used.',
          })
          .describe('The priority level matching requests are assigned to. Required.'),
        matchingPrecedence: z.int32().optional().describe('Lower values match first; 1 to 10000, default 1000. Only the schema named exempt may use 1.'),
        distinguisherMethod: z
          .object({ type: z.string().describe('ByUser or ByNamespace.') })
          .meta({ id: `${V1}.FlowDistinguisherMethod`, description: 'FlowDistinguisherMethod specifies the method of a flow distinguisher.' })
          .optional()
          .describe('How matching requests are divided into flows; absent puts them all in one flow.'),
        rules: z.array(PolicyRulesWithSubjectsSchema).optional().describe('A request matches the schema when it matches at least one rule.').meta(atomicList),
      })
      .meta({ id: `${V1}.FlowSchemaSpec`, description: "FlowSchemaSpec describes how the FlowSchema's specification looks like." })
      .optional()
      .describe('The desired behaviour of the schema.'),
    status: z
      .object({
        conditions: z
          .array(FlowSchemaConditionSchema)
          .optional()
          .describe('The current state of the schema (Dangling: whether its priority level exists).')
          .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }),
      })
      .meta({ id: `${V1}.FlowSchemaStatus`, description: 'FlowSchemaStatus represents the current state of a FlowSchema.' })
      .optional()
      .describe('The current state of the schema.'),
  })
  .meta({
    id: `${V1}.FlowSchema`,
    description:
      'FlowSchema defines the schema of a group of flows. Note that a flow is made up of a set of inbound API requests with similar attributes and is identified by a pair of strings: the name of the FlowSchema and a "flow distinguisher".',
  });

export type FlowSchema = z.infer<typeof FlowSchemaSchema>;
type Rule = NonNullable<NonNullable<FlowSchema['spec']>['rules']>[number];
type Subject = NonNullable<Rule['subjects']>[number];

const MAX_MATCHING_PRECEDENCE = 10000;
const DEFAULT_MATCHING_PRECEDENCE = 1000;
const DISTINGUISHER_TYPES = ['ByNamespace', 'ByUser'];
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
const SUPPORTED_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const NAMESPACE_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

/** goStrings is a string list as Go's %#v prints it in a message: []string{"a", "b"}. */
const goStrings = (values: string[]) => new GoLiteral(`[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`);

/** validateFlowSchema checks the spec with kube-apiserver's messages; the mandatory schemas
 * (exempt, catch-all) must keep their fixed spec. */
export function validateFlowSchema(fs: FlowSchema): FieldError[] {
  const spec = fs.spec ?? { priorityLevelConfiguration: { name: '' } };
  const errors: FieldError[] = [];
  const precedence = spec.matchingPrecedence ?? 0;
  if (precedence <= 0) errors.push(invalid('spec.matchingPrecedence', precedence, 'must be a positive value'));
  if (precedence > MAX_MATCHING_PRECEDENCE) errors.push(invalid('spec.matchingPrecedence', precedence, `must not be greater than ${MAX_MATCHING_PRECEDENCE}`));
  if (precedence === 1 && fs.metadata.name !== 'exempt')
    errors.push(invalid('spec.matchingPrecedence', precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  const method = spec.distinguisherMethod?.type;
  if (method !== undefined && !DISTINGUISHER_TYPES.includes(method))
    errors.push(
      notSupported('spec.distinguisherMethod.type', new GoLiteral(`flowcontrol.FlowDistinguisherMethod{Type:${JSON.stringify(method)}}`), DISTINGUISHER_TYPES),
    );
  const level = spec.priorityLevelConfiguration?.name ?? '';
  if (!level) errors.push(required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  for (const detail of isDns1123Subdomain(level)) if (level) errors.push(invalid('spec.priorityLevelConfiguration.name', level, detail));
  (spec.rules ?? []).forEach((rule, i) => errors.push(...validateRule(rule, `spec.rules[${i}]`)));
  errors.push(...mandatorySpecErrors(fs.metadata.name ?? '', spec, BOOTSTRAP_FLOW_SCHEMAS, 'flowcontrol.FlowSchemaSpec'));
  return errors;
}

/** mandatorySpecErrors: a mandatory object's spec must equal the one kube-apiserver creates. */
export function mandatorySpecErrors(
  name: string,
  spec: unknown,
  bootstrap: readonly { metadata: { name: string }; spec: unknown }[],
  goType: string,
): FieldError[] {
  if (name !== 'exempt' && name !== 'catch-all') return [];
  const fixed = bootstrap.find((object) => object.metadata.name === name);
  if (!fixed || deepEqual(spec, fixed.spec)) return [];
  return [invalid('spec', new GoLiteral(`${goType}{…}`), `spec of '${name}' must equal the fixed value`)];
}

function validateRule(rule: Rule, at: string): FieldError[] {
  const errors: FieldError[] = [];
  if ((rule.subjects ?? []).length === 0) errors.push(required(`${at}.subjects`, 'subjects must contain at least one value'));
  (rule.subjects ?? []).forEach((subject, i) => errors.push(...validateSubject(subject, `${at}.subjects[${i}]`)));
  if ((rule.resourceRules ?? []).length === 0 && (rule.nonResourceRules ?? []).length === 0)
    errors.push(required(at, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  (rule.resourceRules ?? []).forEach((r, i) => errors.push(...validateResourceRule(r, `${at}.resourceRules[${i}]`)));
  (rule.nonResourceRules ?? []).forEach((r, i) => {
    const where = `${at}.nonResourceRules[${i}]`;
    errors.push(...validateVerbs(r.verbs, `${where}.verbs`));
    const urls = r.nonResourceURLs ?? [];
    if (urls.length === 0) errors.push(required(`${where}.nonResourceURLs`, 'nonResourceURLs must contain at least one value'));
    else if (urls.includes('*')) {
      if (urls.length > 1) errors.push(invalid(`${where}.nonResourceURLs`, goStrings(urls), "if '*' is present, must not specify other non-resource URLs"));
    } else
      urls.forEach((url, j) => {
        const problem = nonResourceUrlProblem(url);
        if (problem) errors.push(invalid(`${where}.nonResourceURLs[${j}]`, url, problem));
      });
  });
  return errors;
}

type ResourceRule = NonNullable<Rule['resourceRules']>[number];

function validateResourceRule(r: ResourceRule, where: string): FieldError[] {
  const errors = validateVerbs(r.verbs, `${where}.verbs`);
  const groups = r.apiGroups ?? [];
  if (groups.length === 0) errors.push(required(`${where}.apiGroups`, 'resource rules must supply at least one api group'));
  else if (groups.length > 1 && groups.includes('*'))
    errors.push(invalid(`${where}.apiGroups`, goStrings(groups), "if '*' is present, must not specify other api groups"));
  const resources = r.resources ?? [];
  if (resources.length === 0) errors.push(required(`${where}.resources`, 'resource rules must supply at least one resource'));
  else if (resources.length > 1 && resources.includes('*'))
    errors.push(invalid(`${where}.resources`, goStrings(resources), "if '*' is present, must not specify other resources"));
  const namespaces = r.namespaces ?? [];
  if (namespaces.length === 0 && !r.clusterScope)
    errors.push(required(`${where}.namespaces`, 'resource rules that are not cluster scoped must supply at least one namespace'));
  else if (namespaces.includes('*')) {
    if (namespaces.length > 1) errors.push(invalid(`${where}.namespaces`, goStrings(namespaces), "if '*' is present, must not specify other namespaces"));
  } else
    namespaces.forEach((namespace, i) => {
      for (const detail of isDns1123Label(namespace)) errors.push(invalid(`${where}.namespaces[${i}]`, namespace, NAMESPACE_INTRO + detail));
    });
  return errors;
}

function validateVerbs(verbs: string[] | undefined, at: string): FieldError[] {
  if (!verbs || verbs.length === 0) return [required(at, 'verbs must contain at least one value')];
  if (verbs.includes('*')) return verbs.length > 1 ? [invalid(at, goStrings(verbs), "if '*' is present, must not specify other verbs")] : [];
  return verbs.every((verb) => SUPPORTED_VERBS.includes(verb)) ? [] : [notSupported(at, goStrings(verbs), SUPPORTED_VERBS)];
}

/** nonResourceUrlProblem: a leading slash, no spaces or double slashes, `*` only as a `/*` suffix. */
function nonResourceUrlProblem(path: string): string | undefined {
  if (path === '') return 'must not be empty';
  if (path === '/') return undefined;
  if (!path.startsWith('/')) return 'must start with slash';
  if (path.includes(' ')) return 'must not contain white-space';
  if (path.includes('//')) return 'must not contain double slash';
  const wildcards = path.split('*').length - 1;
  if (wildcards > 1 || (wildcards === 1 && !path.endsWith('/*'))) return 'wildcard can only do suffix matching';
  return undefined;
}

const ONLY_KIND: Record<string, string> = { user: 'User', group: 'Group', serviceAccount: 'ServiceAccount' };

function validateSubject(subject: Subject, at: string): FieldError[] {
  const errors: FieldError[] = [];
  switch (subject.kind) {
    case 'User':
      if (!subject.user) errors.push(required(`${at}.user`, "user is required when subject kind is 'User'"));
      else if (!subject.user.name) errors.push(required(`${at}.user.name`));
      break;
    case 'Group':
      if (!subject.group) errors.push(required(`${at}.group`, "group is required when subject kind is 'Group'"));
      else if (!subject.group.name) errors.push(required(`${at}.group.name`));
      break;
    case 'ServiceAccount': {
      const sa = subject.serviceAccount;
      if (!sa) {
        errors.push(required(`${at}.serviceAccount`, "serviceAccount is required when subject kind is 'ServiceAccount'"));
        break;
      }
      if (!sa.name) errors.push(required(`${at}.serviceAccount.name`));
      if (!sa.namespace) errors.push(required(`${at}.serviceAccount.namespace`, 'must specify namespace for service account'));
      else for (const detail of isDns1123Label(sa.namespace)) errors.push(invalid(`${at}.serviceAccount.namespace`, sa.namespace, detail));
      break;
    }
    default:
      return [notSupported(`${at}.kind`, subject.kind, SUBJECT_KINDS)];
  }
  for (const [field, kind] of Object.entries(ONLY_KIND))
    if (kind !== subject.kind && subject[field as keyof Subject] !== undefined)
      errors.push(forbidden(`${at}.${field}`, `${field} is forbidden when subject kind is not '${kind}'`));
  return errors;
}

/** danglingCondition is the condition kube-apiserver's APF config controller keeps on each
 * schema (apiserver/flowcontrol/dangling-controller.ts here): True when the referenced priority
 * level does not exist. */
export function danglingCondition(levelName: string, levelExists: boolean, now: string) {
  return levelExists
    ? {
        type: 'Dangling',
        status: 'False' as const,
        lastTransitionTime: now,
        reason: 'Found',
        message: `This FlowSchema references the PriorityLevelConfiguration object named "${levelName}" and it exists`,
      }
    : {
        type: 'Dangling',
        status: 'True' as const,
        lastTransitionTime: now,
        reason: 'NotFound',
        message: `This FlowSchema references the PriorityLevelConfiguration object named "${levelName}" but there is no such object`,
      };
}

/** missingLevelCell is MISSINGPL: the Dangling condition's status, `?` when there is none. */
function missingLevelCell(fs: FlowSchema): string {
  return fs.status?.conditions?.find((c) => c.type === 'Dangling')?.status ?? '?';
}

/** flowSchemaDefinition serves flowcontrol.apiserver.k8s.io/v1 flowschemas (cluster-scoped, +status). */
export const flowSchemaDefinition: ResourceDefinition<FlowSchema> = {
  group: 'flowcontrol.apiserver.k8s.io',
  version: 'v1',
  kind: 'FlowSchema',
  plural: 'flowschemas',
  singular: 'flowschema',
  shortNames: [],
  categories: [],
  namespaced: false,
  schema: FlowSchemaSchema,
  defaults: (fs) => {
    fs.spec ??= { priorityLevelConfiguration: { name: '' } };
    if (!fs.spec.matchingPrecedence) fs.spec.matchingPrecedence = DEFAULT_MATCHING_PRECEDENCE;
  },
  validate: validateFlowSchema,
  tracksGeneration: true,
  subresources: { status: true },
  printColumns: [
    nameColumn,
    column('PriorityLevel', (fs: FlowSchema) => fs.spec?.priorityLevelConfiguration?.name ?? '', { description: 'The priority level of matching requests.' }),
    column('MatchingPrecedence', (fs: FlowSchema) => fs.spec?.matchingPrecedence ?? 0, { type: 'integer', description: 'Lower values match first.' }),
    column('DistinguisherMethod', (fs: FlowSchema) => fs.spec?.distinguisherMethod?.type ?? '<none>', { description: 'How requests are divided into flows.' }),
    ageColumn,
    column('MissingPL', missingLevelCell, { description: 'Whether the referenced priority level is missing.' }),
  ],
  storage: { resource: 'flowschemas.flowcontrol.apiserver.k8s.io' },
};
