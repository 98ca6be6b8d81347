/**
 * mergeValues: server-side apply's merge of an applied configuration into the live object
 * (structured-merge-diff's TypedValue.Merge). The configuration wins on every leaf it sets;
 * maps and structs merge member by member; granular lists merge item by item — associative
 * lists by their key fields (containers by name, ports by containerPort and protocol), sets
 * by value — and atomic values are replaced whole.
 *
 * Item order: items of both lists keep the configuration's relative order; live-only items
 * stay where they were relative to their neighbours (Kubernetes' ordering rule).
 */
import type { FieldType } from './field-type.js';
import { serializePathElement } from './path-element.js';
import { indexItems, isEmptyValue, itemElement, type JsonMap, walkOf } from './values.js';

/** mergeValues merges `rhs` (the configuration) into `lhs` (the live value); undefined means
 * absent. Pure: returns new maps and lists; leaves are shared with the inputs. */
export function mergeValues(lhs: unknown, rhs: unknown, type: FieldType): unknown {
  if (rhs === undefined) return lhs;
  if (lhs === undefined) return rhs;
  const how = walkOf(type, lhs, rhs);
  if (how === 'leaf' || (isEmptyValue(lhs) && isEmptyValue(rhs))) return rhs;
  return how === 'map' ? mergeMaps(lhs as JsonMap, rhs as JsonMap, type) : mergeLists(lhs as unknown[], rhs as unknown[], type);
}

function mergeMaps(lhs: JsonMap, rhs: JsonMap, type: FieldType): JsonMap {
  const out: JsonMap = {};
  for (const [key, value] of Object.entries(lhs)) out[key] = mergeValues(value, rhs[key], type.field(key));
  for (const [key, value] of Object.entries(rhs)) if (!(key in lhs)) out[key] = value;
  return out;
}

interface Item {
  key: string;
  value: unknown;
}

/** Placed is an item of the merged list: from the configuration (merged with its live
 * counterpart) or a live item the configuration does not mention (kept as it is). */
interface Placed extends Item {
  fromConfig: boolean;
}

function mergeLists(lhs: unknown[], rhs: unknown[], type: FieldType): unknown[] {
  const keyed = (list: unknown[]) => list.map((value, i): Item => ({ key: serializePathElement(itemElement(type, value, i)), value }));
  const liveByKey = uniqueItems(type, lhs);
  return mergedOrder(keyed(lhs), keyed(rhs), liveByKey).map(({ key, value, fromConfig }) =>
    fromConfig ? mergeValues(liveByKey.get(key), value, type.item()) : value,
  );
}

/**
 * mergedOrder interleaves live and applied items as structured-merge-diff does: walk both
 * lists; items in both follow the configuration's order (a live one met early waits for
 * its turn), live-only items stay between the neighbours they had.
 */
function mergedOrder(left: Item[], right: Item[], liveByKey: Map<string, unknown>): Placed[] {
  const appliedKeys = new Set(right.map((item) => item.key));
  const shared = right.filter((item) => liveByKey.has(item.key)).map((item) => item.key);
  const placed = new Set<string>();
  const out: Placed[] = [];
  let nextShared = shared.shift();
  let [l, r] = [0, 0];
  while (l < left.length || r < right.length) {
    const live = left[l];
    const applied = right[r];
    if (live && applied && live.key !== applied.key && appliedKeys.has(live.key) && nextShared !== undefined && nextShared !== live.key) {
      l++;
      continue;
    }
    if (live && !appliedKeys.has(live.key)) {
      out.push({ ...live, fromConfig: false });
      l++;
      continue;
    }
    if (live && placed.has(live.key)) l++;
    if (!applied) continue;
    const same = live?.key === applied.key;
    out.push({ ...applied, fromConfig: true });
    placed.add(applied.key);
    r++;
    if (same) l++;
    if (same || nextShared === applied.key) nextShared = shared.shift();
  }
  return out;
}

/** uniqueItems maps each element key to its live item; duplicated keys map to undefined
 * (Kubernetes merges the configuration's item over nothing in that case). */
function uniqueItems(type: FieldType, list: unknown[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const { byKey } = indexItems(type, list);
  for (const [key, { items }] of byKey) out.set(key, items.length === 1 ? items[0] : undefined);
  return out;
}
