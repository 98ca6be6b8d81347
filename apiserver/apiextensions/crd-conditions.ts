/**
 * The conditions of a CustomResourceDefinition's status (apihelpers in
 * apiextensions-apiserver): NamesAccepted, Established and Terminating.
 */
import type { CustomResourceDefinition, CustomResourceDefinitionCondition } from '../api/apiextensions/index.js';

export type CrdConditionType = 'NamesAccepted' | 'Established' | 'Terminating';

/** CrdCondition is a condition without its transition time (set by setCondition). */
export type CrdCondition = Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'> & { type: CrdConditionType };

/** findCondition returns the condition of `type`, if the CRD has one. */
export function findCondition(crd: CustomResourceDefinition, type: CrdConditionType): CustomResourceDefinitionCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

/** isConditionTrue says whether the condition of `type` is present with status True. */
export function isConditionTrue(crd: CustomResourceDefinition, type: CrdConditionType): boolean {
  return findCondition(crd, type)?.status === 'True';
}

/** setCondition adds or replaces a condition; lastTransitionTime moves only when the status
 * changes (or was never set), as SetCRDCondition does. Mutates `crd`. */
export function setCondition(crd: CustomResourceDefinition, condition: CrdCondition, now: string): void {
  const status = (crd.status ??= {});
  const conditions = (status.conditions ??= []);
  const existing = conditions.find((c) => c.type === condition.type);
  if (!existing) {
    conditions.push({ type: condition.type, status: condition.status, lastTransitionTime: now, reason: condition.reason, message: condition.message });
    return;
  }
  if (existing.status !== condition.status || !existing.lastTransitionTime) existing.lastTransitionTime = now;
  existing.status = condition.status;
  existing.reason = condition.reason;
  existing.message = condition.message;
}

/** isEquivalent compares type, status, reason and message (not the transition time). */
export function isEquivalent(a: CrdCondition | CustomResourceDefinitionCondition | undefined, b: CustomResourceDefinitionCondition | undefined): boolean {
  if (!a || !b) return a === b;
  return a.type === b.type && a.status === b.status && a.reason === b.reason && a.message === b.message;
}
