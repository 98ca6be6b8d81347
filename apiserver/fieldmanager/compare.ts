/**
 * compareValues: which fields one write added, modified and removed — structured-merge-diff's
 * TypedValue.Compare. Leaves that differ are modified; positions present on one side only are
 * added or removed, together with everything below them.
 *
 * One deliberate difference: Kubernetes also reports a struct-valued field that appears or
 * disappears (because Go's zero values make `spec` always present but a nil
 * `rollingUpdate` absent); here struct fields only count through their contents, so an
 * Update never owns `.spec.strategy.rollingUpdate` itself, only its members. Map entries
 * and list items are reported as Kubernetes does.
 */
import { deepEqual } from '../api/deep-equal.js';
import { FieldSet } from './field-set.js';
import type { FieldType } from './field-type.js';
import { fieldElement, type Path } from './path-element.js';
import { indexItems, isEmptyValue, isJsonMap, type JsonMap, walkOf } from './values.js';

/** Comparison holds disjoint sets; all empty means the values are equal field by field. */
export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/** compareValues compares `lhs` (before) with `rhs` (after); undefined means absent. Pure. */
export function compareValues(lhs: unknown, rhs: unknown, type: FieldType): Comparison {
  const out: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  walk({ lhs, rhs, type, path: [], isStructField: true }, out);
  return out;
}

interface Position {
  lhs: unknown;
  rhs: unknown;
  type: FieldType;
  path: Path;
  /** The position is a declared field of a struct (or the root). */
  isStructField: boolean;
}

function walk(at: Position, out: Comparison): void {
  const { lhs, rhs, type, path } = at;
  const how = walkOf(type, lhs, rhs);
  // Two empty values (or an empty one and an absent one) compare as leaves, which keeps
  // the difference between `{}`, `null` and nothing.
  if (how === 'leaf' || (isEmptyValue(lhs) && isEmptyValue(rhs))) {
    compareLeaf(at, out);
    return;
  }
  if (how === 'map') walkMap(lhs as JsonMap | undefined, rhs as JsonMap | undefined, at, out);
  else walkList(lhs as unknown[] | undefined, rhs as unknown[] | undefined, at, out);
  if (at.isStructField && type.shape === 'struct') return;
  if (lhs === undefined) out.added.insert(path);
  else if (rhs === undefined) out.removed.insert(path);
}

function compareLeaf(at: Position, out: Comparison): void {
  const { lhs, rhs, path } = at;
  if (lhs === undefined) out.added.insert(path);
  else if (rhs === undefined) out.removed.insert(path);
  else if (!deepEqual(lhs, rhs)) {
    out.modified.insert(path);
    // A map replaced by a scalar (or the reverse) also loses (or gains) what it held.
    if (isJsonMap(lhs) && !isJsonMap(rhs)) walkMap(lhs, undefined, at, out);
    if (isJsonMap(rhs) && !isJsonMap(lhs)) walkMap(undefined, rhs, at, out);
  }
}

function walkMap(lhs: JsonMap | undefined, rhs: JsonMap | undefined, at: Position, out: Comparison): void {
  const keys = new Set([...Object.keys(lhs ?? {}), ...Object.keys(rhs ?? {})]);
  for (const key of keys) {
    const [l, r] = [lhs?.[key], rhs?.[key]];
    if (l === undefined && r === undefined) continue;
    const isStructField = at.type.shape === 'struct' && at.type.isDeclaredField(key);
    walk({ lhs: l, rhs: r, type: at.type.field(key), path: [...at.path, fieldElement(key)], isStructField }, out);
  }
}

function walkList(lhs: unknown[] | undefined, rhs: unknown[] | undefined, at: Position, out: Comparison): void {
  const left = indexItems(at.type, lhs);
  const right = indexItems(at.type, rhs);
  const keys = [...left.order, ...right.order.filter((k) => !left.byKey.has(k))];
  for (const key of keys) {
    const l = left.byKey.get(key);
    const r = right.byKey.get(key);
    const element = (l ?? r)!.element;
    const path = [...at.path, element];
    const [lItems, rItems] = [l?.items ?? [], r?.items ?? []];
    const item = (lv: unknown, rv: unknown) => walk({ lhs: lv, rhs: rv, type: at.type.item(), path, isStructField: false }, out);
    if (lItems.length <= 1 && rItems.length <= 1) item(lItems[0], rItems[0]);
    else if (lItems.length > 1 && rItems.length > 1) {
      // Duplicates on both sides are compared as one atomic value.
      if (!deepEqual(lItems, rItems)) out.modified.insert(path);
    } else if (lItems.length > 1) {
      if (rItems.length === 1) item(undefined, rItems[0]);
      out.removed.insert(path);
    } else {
      if (lItems.length === 1) item(lItems[0], undefined);
      out.added.insert(path);
    }
  }
}
