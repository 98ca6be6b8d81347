/**
 * Field ownership rules (structured-merge-diff's Updater, in kubesim's words):
 *
 * - every write compares the object before and after; a field another manager owns that the
 *   write adds or changes is a conflict. Updates (create, PUT, non-apply PATCH) always win
 *   and take such fields over; an Apply stops with the conflicts unless forced;
 * - a removed field is owned by nobody afterwards;
 * - an Update adds what it added or changed to its manager's entry; an Apply's entry becomes
 *   exactly the set of fields its configuration sets;
 * - fields an applier applied last time and omits now are removed from the object, unless
 *   some manager (the applier included) still owns them or something below them.
 */
import type { Comparison } from './compare.js';
import { FieldSet } from './field-set.js';
import type { FieldType } from './field-type.js';
import { type ManagerEntry, type ManagerIdentity, type Managers, managerId, Operations } from './managed-fields.js';
import type { Path } from './path-element.js';
import { removeFields } from './remove-fields.js';

/** Conflict is one field of the object, owned by another manager, that an apply changes. */
export interface Conflict {
  owner: ManagerEntry;
  path: Path;
}

/** ApplyConflictError carries the conflicts an unforced apply ran into. */
export class ApplyConflictError extends Error {
  constructor(readonly conflicts: Conflict[]) {
    super(`apply conflicts with ${conflicts.length} field(s)`);
    this.name = 'ApplyConflictError';
  }
}

/** ComparisonAt returns the comparison of the write as seen at one apiVersion, or
 * undefined when the kind is not served at that version any more. */
export type ComparisonAt = (apiVersion: string) => Comparison | undefined;

export interface TakeOwnershipOptions {
  managers: Managers;
  /** The acting manager's id (its own entry is left alone); '' when none. */
  actorId: string;
  comparisonAt: ComparisonAt;
  /** Take conflicting fields instead of failing. */
  force: boolean;
}

/**
 * takeOwnership returns new Managers after a write: other managers lose what it removed and,
 * when forced, what it changed; entries left empty (or at an unserved version) are dropped.
 * Throws ApplyConflictError when not forced and some other manager owns a changed field.
 */
export function takeOwnership(options: TakeOwnershipOptions): Managers {
  const out: Managers = new Map();
  const conflicts: Conflict[] = [];
  for (const [id, entry] of options.managers) {
    if (id === options.actorId) {
      out.set(id, entry);
      continue;
    }
    const comparison = options.comparisonAt(entry.apiVersion);
    if (!comparison) continue;
    const taken = entry.fields.intersection(comparison.modified.union(comparison.added));
    for (const path of taken.paths()) conflicts.push({ owner: entry, path });
    const kept = entry.fields.difference(taken).difference(comparison.removed);
    if (!kept.isEmpty()) out.set(id, kept.equals(entry.fields) ? entry : { ...entry, fields: kept });
  }
  if (!options.force && conflicts.length > 0) throw new ApplyConflictError(conflicts);
  return out;
}

export interface RecordUpdateOptions {
  managers: Managers;
  actor: ManagerIdentity;
  comparisonAt: ComparisonAt;
  /** The comparison at the actor's own apiVersion. */
  comparison: Comparison;
  time: string;
}

/** recordUpdate applies an Update's ownership: others lose what it removed or changed, and
 * the actor's entry gains what it added or changed (with a new time) — or stays as it was
 * when the write changed nothing. */
export function recordUpdate(options: RecordUpdateOptions): Managers {
  const managers = takeOwnership({ managers: options.managers, actorId: '', comparisonAt: options.comparisonAt, force: true });
  const changed = options.comparison.modified.union(options.comparison.added);
  if (changed.isEmpty()) return managers;
  const id = managerId(options.actor);
  const previous = managers.get(id)?.fields ?? new FieldSet();
  managers.set(id, { ...options.actor, operation: Operations.Update, time: options.time, fields: previous.union(changed) });
  return managers;
}

export interface PruneOptions {
  merged: unknown;
  type: FieldType;
  /** What the applier owned before this apply. */
  lastApplied: FieldSet | undefined;
  /** What it applies now. */
  applied: FieldSet;
  /** What every other manager (at this apiVersion) owns. */
  ownedByOthers: FieldSet;
}

/** pruneDropped removes from `merged` the fields the applier applied before and not now,
 * unless they (or something below them) are still owned — by others or by this apply. */
export function pruneDropped(options: PruneOptions): unknown {
  const { lastApplied, applied, ownedByOthers } = options;
  if (!lastApplied) return options.merged;
  const owned = applied.union(ownedByOthers);
  const dropped = new FieldSet();
  for (const path of lastApplied.difference(applied).paths()) {
    if (!owned.hasAtOrBelow(path) && !isKeyOfItem(path)) dropped.insert(path);
  }
  return dropped.isEmpty() ? options.merged : (removeFields(options.merged, dropped, options.type) ?? {});
}

/** isKeyOfItem: a key field of an associative list item goes with its item, never alone. */
function isKeyOfItem(path: Path): boolean {
  const last = path[path.length - 1];
  const parent = path[path.length - 2];
  return last?.kind === 'field' && parent?.kind === 'key' && parent.fields.some(([name]) => name === last.name);
}
