/**
 * Which webhooks a request is sent to, as kube-apiserver's webhook/predicates: the rules
 * (operations, API groups and versions, resources with subresources, scope), the
 * namespaceSelector against the namespace's labels, the objectSelector against the old and the
 * new object's labels. matchConditions (CEL) come after, in conditions.ts.
 */

import type { RuleWithOperations } from '../../api/admissionregistration/rule-validation.js';
import type { Webhook } from '../../api/admissionregistration/webhook.js';
import { matchesSelector } from '../../api/labels.js';
import type { LabelSelector } from '../../api/meta.js';
import type { Registry } from '../../api/registry.js';
import type { ResourceDefinition } from '../../api/resource-definition.js';
import type { RegistryContext } from '../../registry/context.js';
import { equivalentsOf } from '../equivalents.js';
import type { AdmissionAttributes } from '../plugin.js';

/** matchingVersion is the served version through which the webhook's rules match the request
 * (kube's WebhookInvocation resource and kind): the request's own version when a rule matches
 * it; with matchPolicy Equivalent (the default), else the first other version of the same
 * resource a rule matches (rules in order, then versions in registration order); undefined
 * when none does. */
export function matchingVersion(webhook: Webhook, attributes: AdmissionAttributes, registry: Registry): ResourceDefinition | undefined {
  const rules = webhook.rules ?? [];
  if (rules.some((rule) => matchesRule(rule, attributes, attributes.def))) return attributes.def;
  if (webhook.matchPolicy === 'Exact') return undefined;
  const equivalents = equivalentsOf(registry, attributes.def, attributes.subresource);
  for (const rule of rules) {
    const matched = equivalents.find((def) => matchesRule(rule, attributes, def));
    if (matched) return matched;
  }
  return undefined;
}

function matchesRule(rule: RuleWithOperations, a: AdmissionAttributes, def: ResourceDefinition): boolean {
  return (
    anyOrIncludes(rule.operations, a.operation) &&
    anyOrIncludes(rule.apiGroups, def.group) &&
    anyOrIncludes(rule.apiVersions, def.version) &&
    matchesResource(rule.resources ?? [], def.plural, a.subresource) &&
    matchesScope(rule.scope, a)
  );
}

function anyOrIncludes(values: readonly string[] | undefined, value: string): boolean {
  return (values ?? []).some((v) => v === '*' || v === value);
}

/** `pods` matches the pods themselves, `pods/status` their status, `pods/*` both, `*` every
 * main resource, `*\/status` every status and `*\/*` everything. */
function matchesResource(resources: readonly string[], resource: string, subresource: string): boolean {
  return resources.some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === resource) && (sub === '*' || sub === subresource);
  });
}

/** Namespaced matches namespaced objects; Cluster matches cluster-scoped ones (Namespaces
 * included: they are cluster-scoped). */
function matchesScope(scope: string | undefined, a: AdmissionAttributes): boolean {
  if (scope === 'Namespaced') return a.def.namespaced;
  if (scope === 'Cluster') return !a.def.namespaced;
  return true;
}

/** matchesNamespaceSelector: cluster-scoped objects always match; a Namespace is matched by
 * its own labels (the old ones on delete); a namespaced object by its namespace's labels. */
export function matchesNamespaceSelector(ctx: RegistryContext, webhook: Webhook, a: AdmissionAttributes): boolean {
  const selector = webhook.namespaceSelector as LabelSelector | undefined;
  if (isEverything(selector)) return true;
  if (a.def.group === '' && a.def.plural === 'namespaces') return matchesSelector(selector, labelsOf(a.object ?? a.oldObject));
  if (!a.def.namespaced) return true;
  return matchesSelector(selector, namespaceLabels(ctx, a.namespace));
}

/** matchesObjectSelector: the new object's labels or the old object's match. */
export function matchesObjectSelector(webhook: Webhook, a: AdmissionAttributes): boolean {
  const selector = webhook.objectSelector as LabelSelector | undefined;
  if (isEverything(selector)) return true;
  return matchesSelector(selector, labelsOf(a.object)) || matchesSelector(selector, labelsOf(a.oldObject));
}

function isEverything(selector: LabelSelector | undefined): boolean {
  return (
    !selector ||
    (!selector.matchLabels && !selector.matchExpressions?.length) ||
    (Object.keys(selector.matchLabels ?? {}).length === 0 && !selector.matchExpressions?.length)
  );
}

function labelsOf(object: { metadata?: { labels?: Record<string, string> } } | undefined): Record<string, string> {
  return object?.metadata?.labels ?? {};
}

function namespaceLabels(ctx: RegistryContext, namespace: string): Record<string, string> {
  try {
    return labelsOf(ctx.store.get({ resource: 'namespaces', namespace: '', name: namespace }) as never);
  } catch {
    return {};
  }
}
