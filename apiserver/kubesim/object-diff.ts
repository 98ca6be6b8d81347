/**
 * diffObjects: the field-level difference between two states of an object, as the history
 * API reports it (docs/history.md). Pure.
 */
import { deepEqual } from '../api/deep-equal.js';
import type { FieldChange } from '../api/kubesim/history.js';

/** NOISE are paths the server keeps as bookkeeping of the write itself: every write moves
 * resourceVersion and managedFields, every spec change generation. */
const NOISE = new Set(['metadata.resourceVersion', 'metadata.managedFields', 'metadata.generation']);

/** LIST_KEYS are the fields that identify list items (conditions, containers, ports...). */
const LIST_KEYS = ['type', 'name'] as const;

/**
 * diffObjects lists the leaf fields that differ between `before` and `after`, in the order of
 * `after`'s fields (then fields only `before` has). Objects are compared field by field, also
 * when one side lacks them (an added `status` lists each new field); lists whose items all
 * have a distinct `type` or `name` are compared item by item (`conditions[type=Ready]`),
 * other lists as a whole. resourceVersion, managedFields and generation are left out.
 */
export function diffObjects(before: unknown, after: unknown): FieldChange[] {
  const changes: FieldChange[] = [];
  diffValue(before, after, '', changes);
  return changes;
}

function diffValue(before: unknown, after: unknown, path: string, out: FieldChange[]): void {
  if (NOISE.has(path) || deepEqual(before, after)) return;
  if (isRecord(before) || isRecord(after)) {
    if ((before === undefined || isRecord(before)) && (after === undefined || isRecord(after))) {
      return diffRecords(before ?? {}, after ?? {}, path, out);
    }
  }
  const key = listKeyOf(before, after);
  if (key !== undefined) return diffKeyedLists(asList(before), asList(after), { key, path }, out);
  out.push(change(path, before, after));
}

function diffRecords(before: Record<string, unknown>, after: Record<string, unknown>, path: string, out: FieldChange[]): void {
  const keys = [...Object.keys(after), ...Object.keys(before).filter((k) => !(k in after))];
  for (const key of keys) diffValue(before[key], after[key], join(path, key), out);
}

function diffKeyedLists(before: Record<string, unknown>[], after: Record<string, unknown>[], list: { key: string; path: string }, out: FieldChange[]): void {
  const byKey = (items: Record<string, unknown>[]) => new Map(items.map((item) => [String(item[list.key]), item]));
  const old = byKey(before);
  const next = byKey(after);
  const ids = [...next.keys(), ...[...old.keys()].filter((id) => !next.has(id))];
  for (const id of ids) diffValue(old.get(id), next.get(id), `${list.path}[${list.key}=${id}]`, out);
}

/** listKeyOf is the key both lists' items share (absent lists count as empty), or undefined
 * when they are not keyed lists of objects. */
function listKeyOf(before: unknown, after: unknown): string | undefined {
  if (!(before === undefined || Array.isArray(before)) || !(after === undefined || Array.isArray(after))) return undefined;
  const items = [...asList(before), ...asList(after)];
  if (items.length === 0 || !items.every(isRecord)) return undefined;
  return LIST_KEYS.find((key) => isKeyedBy(asList(before), key) && isKeyedBy(asList(after), key));
}

function isKeyedBy(items: unknown[], key: string): boolean {
  const ids = items.map((item) => (isRecord(item) ? item[key] : undefined));
  return ids.every((id) => typeof id === 'string' && id !== '') && new Set(ids).size === ids.length;
}

function asList(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
}

function change(path: string, before: unknown, after: unknown): FieldChange {
  const out: FieldChange = { path };
  if (before !== undefined) out.old = before;
  if (after !== undefined) out.new = after;
  return out;
}

/** join appends a field to a path: `.name`, or `["a.b/c"]` for keys that are not plain words. */
function join(path: string, key: string): string {
  if (/^[A-Za-z_$][\w$-]*$/.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
