/**
 * Which requests a policy's matchConstraints (or a binding's matchResources) select, as
 * k8s.io/apiserver's generic policy matcher: the namespace selector (namespaced requests, and
 * Namespaces themselves by their own labels), the object selector (new or old object), the
 * exclude rules, then the resource rules with resourceNames — exactly, or with matchPolicy
 * Equivalent through another served version of the same resource.
 */
import type { ValidatingAdmissionPolicy } from '../../api/admissionregistration/admission-policy.js';
import { type LabelSelectorQuery, labelSelectorFromStructured } from '../../api/labels.js';
import type { LabelSelector } from '../../api/meta.js';
import type { Registry } from '../../api/registry.js';
import type { KubeObject, ResourceDefinition } from '../../api/resource-definition.js';
import { equivalentsOf } from '../equivalents.js';
import type { AdmissionAttributes } from '../plugin.js';

export type MatchResources = NonNullable<NonNullable<ValidatingAdmissionPolicy['spec']>['matchConstraints']>;
type NamedRule = NonNullable<MatchResources['resourceRules']>[number];

/** Matched says which served version a request matched through (its own, or an equivalent). */
export interface Matched {
  def: ResourceDefinition;
}

/** MatchContext gives the matcher the namespace's labels (read once per request, on demand). */
export interface MatchContext {
  registry: Registry;
  namespaceLabels(): Record<string, string> | undefined;
}

const selectors = new WeakMap<LabelSelector, LabelSelectorQuery>();

/** selectorOf parses a structured selector once (policies are validated, so it parses). */
function selectorOf(selector: LabelSelector | undefined): LabelSelectorQuery | undefined {
  if (!selector) return undefined;
  let query = selectors.get(selector);
  if (!query) {
    query = labelSelectorFromStructured(selector);
    selectors.set(selector, query);
  }
  return query;
}

const labelsOf = (object: KubeObject | undefined) => object?.metadata?.labels as Record<string, string> | undefined;

function namespaceMatches(match: MatchResources, attributes: AdmissionAttributes, ctx: MatchContext): boolean {
  const isNamespace = attributes.def.group === '' && attributes.def.plural === 'namespaces';
  if (!attributes.namespace && !isNamespace) return true; // cluster-scoped kinds are never excluded
  const selector = selectorOf(match.namespaceSelector);
  if (!selector || selector.isEverything()) return true;
  const labels = isNamespace ? labelsOf(attributes.object ?? attributes.oldObject) : ctx.namespaceLabels();
  return selector.matches(labels);
}

function objectMatches(match: MatchResources, attributes: AdmissionAttributes): boolean {
  const selector = selectorOf(match.objectSelector);
  if (!selector || selector.isEverything()) return true;
  const matches = (object: KubeObject | undefined) => object !== undefined && selector.matches(labelsOf(object));
  return matches(attributes.object) || matches(attributes.oldObject);
}

const wildcardOr = (values: readonly string[] | undefined, value: string) => (values ?? []).some((v) => v === '*' || v === value);

/** ruleMatches is admission's rules.Matcher for one resource version. */
function ruleMatches(rule: NamedRule, attributes: AdmissionAttributes, def: ResourceDefinition): boolean {
  if (!wildcardOr(rule.operations, attributes.operation)) return false;
  if (!wildcardOr(rule.apiGroups, def.group) || !wildcardOr(rule.apiVersions, def.version)) return false;
  const resourceMatches = (rule.resources ?? []).some((entry) => {
    const [resource, subresource = ''] = entry.split('/', 2) as [string, string?];
    return (resource === '*' || resource === def.plural) && (subresource === '*' || subresource === attributes.subresource);
  });
  return resourceMatches && scopeMatches(rule.scope, attributes, def);
}

function scopeMatches(scope: string | undefined, attributes: AdmissionAttributes, def: ResourceDefinition): boolean {
  const isNamespace = def.group === '' && def.plural === 'namespaces';
  if (scope === 'Namespaced') return !isNamespace && attributes.namespace !== '';
  if (scope === 'Cluster') return isNamespace || attributes.namespace === '';
  return true;
}

function namedRuleMatches(rule: NamedRule, attributes: AdmissionAttributes): boolean {
  if (!ruleMatches(rule, attributes, attributes.def)) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(attributes.name);
}

/** rulesMatch finds the version a request matches through; undefined when none. As in
 * kube-apiserver, resourceNames are not consulted for equivalent versions. */
function rulesMatch(rules: readonly NamedRule[], matchPolicy: string | undefined, attributes: AdmissionAttributes, registry: Registry): Matched | undefined {
  if (rules.some((rule) => namedRuleMatches(rule, attributes))) return { def: attributes.def };
  if (matchPolicy === 'Exact') return undefined;
  const equivalents = equivalentsOf(registry, attributes.def, attributes.subresource);
  for (const rule of rules) {
    const equivalent = equivalents.find((def) => ruleMatches(rule, attributes, def));
    if (equivalent) return { def: equivalent };
  }
  return undefined;
}

/** matchResources reports whether `match` selects the request, and through which version. */
export function matchResources(match: MatchResources, attributes: AdmissionAttributes, ctx: MatchContext): Matched | undefined {
  if (!namespaceMatches(match, attributes, ctx) || !objectMatches(match, attributes)) return undefined;
  if (rulesMatch(match.excludeResourceRules ?? [], match.matchPolicy, attributes, ctx.registry)) return undefined;
  if (!match.resourceRules?.length) return { def: attributes.def };
  return rulesMatch(match.resourceRules, match.matchPolicy, attributes, ctx.registry);
}
