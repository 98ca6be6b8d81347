/**
 * The LimitRanger admission plugin's defaulting, on pod create: each container (then each
 * init container) without a limit or request for a resource gets the `default` /
 * `defaultRequest` of the namespace's Container-type LimitRanges, and the pod is annotated
 * with what was set (`kubernetes.io/limit-ranger`), as kube-apiserver does; then the pod is
 * checked against the ranges' min, max and maxLimitRequestRatio (limitRangeViolations).
 */
import type { Quantity } from '../quantity.js';
import { tryParseQuantity } from '../quantity.js';
import type { Container } from './container.js';
import type { LimitRange, LimitRangeItem } from './limit-range.js';
import { podResourceTotals, type QuantityTotals } from './pod-resources.js';
import type { PodSpec } from './pod-spec.js';

/** LIMIT_RANGER_ANNOTATION records which defaults the plugin set. */
export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

interface Defaults {
  limits: Record<string, string>;
  requests: Record<string, string>;
}

/** containerDefaults merges the Container items of `ranges`: the first range naming a
 * resource wins, as the plugin applies them one after the other. */
function containerDefaults(ranges: readonly LimitRange[]): Defaults {
  const defaults: Defaults = { limits: {}, requests: {} };
  for (const item of ranges.flatMap((range) => range.spec?.limits ?? [])) {
    if (item.type !== 'Container') continue;
    defaults.limits = { ...item.default, ...defaults.limits };
    defaults.requests = { ...item.defaultRequest, ...defaults.requests };
  }
  return defaults;
}

/** fill sets the missing entries of one side of a container's resources; returns their names. */
function fill(container: Container, side: keyof Defaults, values: Record<string, string>): string[] {
  const missing = Object.keys(values).filter((name) => container.resources?.[side]?.[name] === undefined);
  if (missing.length === 0) return [];
  container.resources ??= {};
  container.resources[side] = { ...container.resources[side], ...Object.fromEntries(missing.map((name) => [name, values[name]!])) };
  return missing.sort();
}

/**
 * applyLimitRangeDefaults fills the pod's container resources from `ranges` (the LimitRanges
 * of its namespace) and returns the annotation value describing it, or undefined when nothing
 * was set. Mutates `spec`.
 */
export function applyLimitRangeDefaults(spec: PodSpec, ranges: readonly LimitRange[]): string | undefined {
  const defaults = containerDefaults(ranges);
  const notes: string[] = [];
  const merge = (container: Container, what: string) => {
    const requests = fill(container, 'requests', defaults.requests);
    const limits = fill(container, 'limits', defaults.limits);
    if (requests.length > 0) notes.push(`${requests.join(', ')} request for ${what} ${container.name}`);
    if (limits.length > 0) notes.push(`${limits.join(', ')} limit for ${what} ${container.name}`);
  };
  for (const container of spec.containers ?? []) merge(container, 'container');
  for (const container of spec.initContainers ?? []) merge(container, 'init container');
  return notes.length > 0 ? `LimitRanger plugin set: ${notes.join('; ')}` : undefined;
}

type ResourceList = Readonly<Record<string, string>> | undefined;

/** minViolation, maxViolation and ratioViolation are the plugin's three checks of one
 * resource, worded as kube-apiserver's (the double space included). */
function minViolation(kind: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const request = quantityIn(requests, name);
  const limit = quantityIn(limits, name);
  if (request === undefined) return `minimum ${name} usage per ${kind} is ${enforced}.  No request is specified`;
  if (request.cmp(enforced) < 0) return `minimum ${name} usage per ${kind} is ${enforced}, but request is ${request}`;
  if (limit !== undefined && limit.cmp(enforced) < 0) return `minimum ${name} usage per ${kind} is ${enforced}, but limit is ${limit}`;
  return undefined;
}

function maxViolation(kind: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const request = quantityIn(requests, name);
  const limit = quantityIn(limits, name);
  if (limit === undefined) return `maximum ${name} usage per ${kind} is ${enforced}.  No limit is specified`;
  if (limit.cmp(enforced) > 0) return `maximum ${name} usage per ${kind} is ${enforced}, but limit is ${limit}`;
  if (request !== undefined && request.cmp(enforced) > 0) return `maximum ${name} usage per ${kind} is ${enforced}, but request is ${request}`;
  return undefined;
}

function ratioViolation(kind: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const request = quantityIn(requests, name);
  const limit = quantityIn(limits, name);
  const prefix = `${name} max limit to request ratio per ${kind} is ${enforced}`;
  if (request === undefined || request.isZero()) return `${prefix}, but no request is specified or request is 0`;
  if (limit === undefined || limit.isZero()) return `${prefix}, but no limit is specified or limit is 0`;
  const ratio = limit.milliValue() / request.milliValue();
  return ratio * 1000 > enforced.milliValue() ? `${prefix}, but provided ratio is ${ratio.toFixed(6)}` : undefined;
}

function quantityIn(list: ResourceList, name: string): Quantity | undefined {
  const text = list?.[name];
  return text === undefined ? undefined : tryParseQuantity(text);
}

const CHECKS = [
  ['min', minViolation],
  ['max', maxViolation],
  ['maxLimitRequestRatio', ratioViolation],
] as const;

/** itemViolations checks one LimitRange item against one requests/limits pair. */
function itemViolations(item: LimitRangeItem, kind: string, requests: ResourceList, limits: ResourceList): string[] {
  return CHECKS.flatMap(([field, check]) =>
    Object.entries(item[field] ?? {})
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .flatMap(([name, text]) => {
        const enforced = tryParseQuantity(text);
        return enforced === undefined ? [] : (check(kind, name, enforced, requests, limits) ?? []);
      }),
  );
}

const plain = (totals: QuantityTotals) => Object.fromEntries([...totals].map(([name, quantity]) => [name, quantity.toString()]));

/**
 * limitRangeViolations is the plugin's validation of a new pod: every container and init
 * container against the Container items' min, max and maxLimitRequestRatio, and the pod's
 * total requests and limits against the Pod items'. Returns the messages, in order.
 */
export function limitRangeViolations(spec: PodSpec, ranges: readonly LimitRange[]): string[] {
  const violations: string[] = [];
  for (const item of ranges.flatMap((range) => range.spec?.limits ?? [])) {
    if (item.type === 'Container') {
      for (const container of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
        violations.push(...itemViolations(item, 'Container', container.resources?.requests, container.resources?.limits));
      }
    }
    if (item.type === 'Pod') {
      violations.push(...itemViolations(item, 'Pod', plain(podResourceTotals(spec, 'requests')), plain(podResourceTotals(spec, 'limits'))));
    }
  }
  return [...new Set(violations)];
}
