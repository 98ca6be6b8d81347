/**
 * FieldsV1: the JSON form of a FieldSet in `metadata.managedFields[].fieldsV1`. Each key is
 * a serialized path element (`f:`, `k:`, `v:`, `i:`); a value `{}` marks a member with no
 * children, and a `".": {}` entry marks a node that is a member and also has children:
 *
 *   f:metadata:                 # metadata itself is not a member
 *     f:labels:
 *       .: {}                   # labels is a member (the map was set) ...
 *       f:app: {}               # ... and so is labels.app
 */
import { FieldSet } from './field-set.js';
import { type Path, parsePathElement, serializePathElement } from './path-element.js';

/** FieldsV1 is the decoded JSON of one managedFields entry's fieldsV1. */
export type FieldsV1 = { [key: string]: FieldsV1 };

const SELF = '.';

/** encodeFieldsV1 renders a set, keys in Kubernetes' order (fields, keys, values, indexes). */
export function encodeFieldsV1(set: FieldSet): FieldsV1 {
  const out: FieldsV1 = {};
  for (const { element, isMember, child } of set.entries()) {
    const key = serializePathElement(element);
    if (!child) out[key] = {};
    else out[key] = isMember ? { [SELF]: {}, ...encodeFieldsV1(child) } : encodeFieldsV1(child);
  }
  return out;
}

/** decodeFieldsV1 parses fieldsV1 JSON; throws an Error naming the first malformed key. */
export function decodeFieldsV1(fields: unknown): FieldSet {
  const set = new FieldSet();
  decodeInto(set, [], fields);
  return set;
}

function decodeInto(set: FieldSet, prefix: Path, fields: unknown): void {
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) {
    throw new Error(`expected a map of path elements at ${JSON.stringify(prefix.map(serializePathElement))}`);
  }
  const entries = Object.entries(fields);
  if (entries.length === 0) {
    set.insert(prefix);
    return;
  }
  for (const [key, value] of entries) {
    if (key === SELF) set.insert(prefix);
    else decodeInto(set, [...prefix, parsePathElement(key)], value);
  }
}
