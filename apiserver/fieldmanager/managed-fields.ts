/**
 * managedFields on the wire (metav1.ManagedFieldsEntry) and in memory (Managers): one entry
 * per manager identity — manager name, operation, subresource and, for Update entries, the
 * apiVersion used — with the set of fields it owns and when it last changed something.
 * An Apply entry keeps one identity across versions, as in Kubernetes, so re-applying with
 * another version replaces it instead of adding a second one.
 */
import type { ManagedFieldsEntry } from '../api/meta.js';
import type { FieldSet } from './field-set.js';
import { decodeFieldsV1, encodeFieldsV1 } from './fields-v1.js';
import { compareStrings } from './path-element.js';

/** Operations are the two kinds of managedFields entries: server-side apply, and every other write. */
export const Operations = { Apply: 'Apply', Update: 'Update' } as const;
export type Operation = (typeof Operations)[keyof typeof Operations];

/** ManagerIdentity names a manager entry; subresource is '' for the main resource. */
export interface ManagerIdentity {
  manager: string;
  operation: Operation;
  apiVersion: string;
  subresource: string;
}

/** ManagerEntry is one decoded managedFields entry. `original` is the wire entry it came
 * from, reused when nothing about it changed so a no-op write stays byte-identical. */
export interface ManagerEntry extends ManagerIdentity {
  time: string | undefined;
  fields: FieldSet;
  original?: { wire: ManagedFieldsEntry; fields: FieldSet };
}

/** Managers maps managerId() to its entry. */
export type Managers = Map<string, ManagerEntry>;

/** managerId is Kubernetes' manager identifier: the JSON of the entry without its fields
 * and time, and without the apiVersion for appliers. Conflict messages sort by it. */
export function managerId(identity: ManagerIdentity): string {
  const { manager, operation, apiVersion, subresource } = identity;
  const id: Record<string, string> = { manager, operation };
  if (operation === Operations.Update && apiVersion) id['apiVersion'] = apiVersion;
  if (subresource) id['subresource'] = subresource;
  return JSON.stringify(id);
}

/** decodeManagedFields reads wire entries; throws an Error naming a malformed entry. */
export function decodeManagedFields(entries: readonly ManagedFieldsEntry[] | undefined): Managers {
  const managers: Managers = new Map();
  for (const entry of entries ?? []) {
    if (entry.fieldsType !== undefined && entry.fieldsType !== 'FieldsV1') throw new Error(`invalid fieldsType ${JSON.stringify(entry.fieldsType)}`);
    if (entry.operation !== Operations.Apply && entry.operation !== Operations.Update) {
      throw new Error(`invalid operation ${JSON.stringify(entry.operation)} in managedFields entry of ${JSON.stringify(entry.manager ?? '')}`);
    }
    const fields = decodeFieldsV1(entry.fieldsV1 ?? {});
    const decoded: ManagerEntry = {
      manager: entry.manager ?? '',
      operation: entry.operation,
      apiVersion: entry.apiVersion ?? '',
      subresource: entry.subresource ?? '',
      time: entry.time,
      fields,
      original: { wire: entry, fields },
    };
    managers.set(managerId(decoded), decoded);
  }
  return managers;
}

/** encodeManagedFields renders entries in Kubernetes' order: Apply before Update, then by
 * time, manager, apiVersion and subresource. Empty entries are dropped. */
export function encodeManagedFields(managers: Managers): ManagedFieldsEntry[] {
  const entries = [...managers.values()].filter((entry) => !entry.fields.isEmpty());
  entries.sort(compareEntries);
  return entries.map(encodeEntry);
}

function encodeEntry(entry: ManagerEntry): ManagedFieldsEntry {
  const { original } = entry;
  const wireUnchanged = original && original.wire.time === entry.time && original.wire.apiVersion === entry.apiVersion;
  if (wireUnchanged && (original.fields === entry.fields || original.fields.equals(entry.fields))) return original.wire;
  // Key order of Go's metav1.ManagedFieldsEntry, so `-o json` reads like kube-apiserver's.
  const wire: ManagedFieldsEntry = { manager: entry.manager, operation: entry.operation, apiVersion: entry.apiVersion };
  if (entry.time !== undefined) wire.time = entry.time;
  wire.fieldsType = 'FieldsV1';
  wire.fieldsV1 = encodeFieldsV1(entry.fields);
  if (entry.subresource) wire.subresource = entry.subresource;
  return wire;
}

function compareEntries(a: ManagerEntry, b: ManagerEntry): number {
  if (a.operation !== b.operation) return compareStrings(a.operation, b.operation);
  const byTime = secondsOf(a.time) - secondsOf(b.time);
  if (byTime !== 0) return byTime;
  return compareStrings(a.manager, b.manager) || compareStrings(a.apiVersion, b.apiVersion) || compareStrings(a.subresource, b.subresource);
}

function secondsOf(time: string | undefined): number {
  const ms = time === undefined ? 0 : Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}
