/**
 * The LimitRanger admission plugin's defaulting, on pod create: each container (then each
 * init container) without a limit or request for a resource gets the `default` /
 * `defaultRequest` of the namespace's Container-type LimitRanges, and the pod is annotated
 * with what was set (`kubernetes.io/limit-ranger`), as kube-apiserver does.
 */
import type { Container } from './container.js';
import type { LimitRange } from './limit-range.js';
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
