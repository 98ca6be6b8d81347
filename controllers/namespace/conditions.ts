/**
 * The conditions a terminating Namespace reports (kube's namespace deleter status conditions,
 * in our own words). Each of the five types is always present while the namespace
 * terminates: False with a reassuring reason when all is well, True with what is wrong.
 * Everything here is pure.
 */
import type { Namespace } from '../../apiserver/api/core/namespace.js';
import type { DeepReadonly } from '../runtime/types.js';

/** NamespaceCondition is one entry of a Namespace's status.conditions. */
export type NamespaceCondition = NonNullable<NonNullable<Namespace['status']>['conditions']>[number];

/** NamespaceConditionType lists the types the namespace controller maintains, in the order
 * it writes them. */
export const NamespaceConditionType = {
  DiscoveryFailure: 'NamespaceDeletionDiscoveryFailure',
  GroupVersionParsingFailure: 'NamespaceDeletionGroupVersionParsingFailure',
  ContentFailure: 'NamespaceDeletionContentFailure',
  ContentRemaining: 'NamespaceContentRemaining',
  FinalizersRemaining: 'NamespaceFinalizersRemaining',
} as const;
export type NamespaceConditionType = (typeof NamespaceConditionType)[keyof typeof NamespaceConditionType];

const CONDITION_ORDER: readonly NamespaceConditionType[] = Object.values(NamespaceConditionType);

/** The False ("all is well") variant of each type. */
const OK: Record<NamespaceConditionType, { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: { reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  NamespaceDeletionGroupVersionParsingFailure: { reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  NamespaceDeletionContentFailure: { reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: { reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
};

/** DeletionReport is what one pass over a namespace's content found. */
export interface DeletionReport {
  /** Why discovery failed, when it did. */
  discoveryError?: string;
  /** One message per kind whose content could not be deleted or listed. */
  contentErrors: string[];
  /** Objects still present, by `plural.group` (core kinds end with a dot: `pods.`). */
  remainingByResource: ReadonlyMap<string, number>;
  /** Objects still present, by each finalizer they carry. */
  remainingByFinalizer: ReadonlyMap<string, number>;
}

/** FailedCondition is the True variant of one type (the others are derived from OK). */
type FailedCondition = { type: NamespaceConditionType; reason: string; message: string };

/**
 * failedConditions lists the True conditions a report calls for (pure). Counts are listed
 * sorted, so the same state always gives the same message (and no needless status write).
 */
export function failedConditions(report: DeletionReport): FailedCondition[] {
  const failed: FailedCondition[] = [];
  if (report.discoveryError !== undefined) {
    failed.push({ type: NamespaceConditionType.DiscoveryFailure, reason: 'DiscoveryFailed', message: `Discovery failed: ${report.discoveryError}` });
  }
  if (report.contentErrors.length > 0) {
    const errors = [...report.contentErrors].sort();
    const message = `Failed to delete all resource types, ${errors.length} remaining: ${errors.join(', ')}`;
    failed.push({ type: NamespaceConditionType.ContentFailure, reason: 'ContentDeletionFailed', message });
  }
  const resources = countsMessage(report.remainingByResource, (key, n) => `${key} has ${n} resource instances`);
  if (resources)
    failed.push({ type: NamespaceConditionType.ContentRemaining, reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${resources}` });
  const finalizers = countsMessage(report.remainingByFinalizer, (key, n) => `${key} in ${n} resource instances`);
  if (finalizers) {
    const message = `Some content in the namespace has finalizers remaining: ${finalizers}`;
    failed.push({ type: NamespaceConditionType.FinalizersRemaining, reason: 'SomeFinalizersRemain', message });
  }
  return failed;
}

function countsMessage(counts: ReadonlyMap<string, number>, format: (key: string, n: number) => string): string {
  return [...counts]
    .filter(([, n]) => n > 0)
    .map(([key, n]) => format(key, n))
    .sort()
    .join(', ');
}

/**
 * mergeConditions returns `existing` updated so every maintained type reads as the report
 * says: True for each failed condition, False (the OK variant) for the rest. A condition
 * keeps its lastTransitionTime unless its status flips; conditions of other types are kept.
 * `changed` is false when nothing differs (then there is nothing to write). Pure; returns
 * fresh objects.
 */
export function mergeConditions(
  existing: ReadonlyArray<DeepReadonly<NamespaceCondition>>,
  failed: readonly FailedCondition[],
  nowRfc3339: string,
): { conditions: NamespaceCondition[]; changed: boolean } {
  const conditions = existing.map((c) => structuredClone(c) as NamespaceCondition);
  let changed = false;
  for (const type of CONDITION_ORDER) {
    const wanted = failed.find((c) => c.type === type);
    const next = { type, status: wanted ? ('True' as const) : ('False' as const), reason: (wanted ?? OK[type]).reason, message: (wanted ?? OK[type]).message };
    const old = conditions.find((c) => c.type === type);
    if (!old) {
      conditions.push({ ...next, lastTransitionTime: nowRfc3339 });
      changed = true;
    } else if (old.status !== next.status || old.reason !== next.reason || old.message !== next.message) {
      if (old.status !== next.status) old.lastTransitionTime = nowRfc3339;
      Object.assign(old, next);
      changed = true;
    }
  }
  return { conditions, changed };
}

/** hasContentLeft: the report says the namespace cannot be finalized yet. */
export function hasContentLeft(report: DeletionReport): boolean {
  return report.discoveryError !== undefined || report.contentErrors.length > 0 || [...report.remainingByResource.values()].some((n) => n > 0);
}
