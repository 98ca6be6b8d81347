import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SchemaDocument } from '../api/schema-node.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';

const cases = JSON.parse(readFileSync('/tmp/harness/cases.json', 'utf8'));
const item = (extra: object) => ({ $ref: '#/definitions/mergeItem', ...extra });
const doc: SchemaDocument = {
  root: { $ref: '#/definitions/mergeItem' },
  definitions: {
    mergeItem: {
      type: 'object',
      properties: {
        name: {}, value: {}, other: {},
        mergingList: { type: 'array', items: item({}), 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' },
        nonMergingList: { type: 'array', items: item({}) },
        mergingIntList: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-patch-strategy': 'merge' },
        nonMergingIntList: { type: 'array', items: { type: 'integer' } },
        mergeItemPtr: item({ 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' }),
        simpleMap: { type: 'object', additionalProperties: { type: 'string' } },
        replacingItem: { 'x-kubernetes-patch-strategy': 'replace', 'x-kubernetes-preserve-unknown-fields': true },
        retainKeysMap: { $ref: '#/definitions/retainKeysMergeItem', 'x-kubernetes-patch-strategy': 'retainKeys' },
        retainKeysMergingList: { type: 'array', items: item({}), 'x-kubernetes-patch-strategy': 'merge,retainKeys', 'x-kubernetes-patch-merge-key': 'name' },
      },
    },
    retainKeysMergeItem: {
      type: 'object',
      properties: {
        name: {}, value: {}, other: {},
        simpleMap: { type: 'object', additionalProperties: { type: 'string' } },
        mergingIntList: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-patch-strategy': 'merge' },
        mergingList: { type: 'array', items: item({}), 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' },
        nonMergingList: { type: 'array', items: item({}) },
      },
    },
  },
};
const schema = { node: doc.root, doc };
const apply = (o: unknown, p: unknown) => applyStrategicMergePatch(o ?? {}, p ?? {}, schema);
const lex = (a: unknown, b: unknown) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);
function sortLists(v: any): any {
  if (Array.isArray(v)) return v.map(sortLists);
  if (v === null || typeof v !== 'object') return v;
  const out: any = {};
  for (const [k, x] of Object.entries(v)) {
    let y: any = sortLists(x);
    if ((k === 'mergingList' || k === 'retainKeysMergingList') && Array.isArray(y)) y = [...y].sort((a, b) => lex(a?.name, b?.name));
    if ((k === 'mergingIntList' || k === '$retainKeys' || k.startsWith('$deleteFromPrimitiveList')) && Array.isArray(y)) y = [...new Set(y)].sort(lex);
    out[k] = y;
  }
  return out;
}

describe('kube raw custom', () => {
  for (const c of cases.customRaw) it(c.description, () => {
    if (c.ExpectedError) expect(() => apply(c.Original, c.TwoWay)).toThrow(new RegExp(c.ExpectedError.replace(/[$]/g, '\\$')));
    else expect(apply(c.Original, c.TwoWay)).toEqual(c.TwoWayResult ?? c.Modified ?? {});
  });
});
describe('kube raw', () => {
  for (const c of cases.raw) {
    if (c.ExpectedError) continue;
    if (c.TwoWay !== undefined) it(c.description + ' twoWay', () => expect(apply(c.Original, c.TwoWay)).toEqual(c.TwoWayResult ?? c.Modified ?? {}));
    if (c.ThreeWay !== undefined && c.Result !== undefined) it(c.description + ' threeWay', () => expect(apply(c.Current, c.ThreeWay)).toEqual(c.Result ?? {}));
  }
});
describe('kube yaml', () => {
  for (const c of [...cases.customYaml, ...cases.createYaml]) {
    if (c.twoWay !== undefined) it(c.description + ' twoWay', () => expect(sortLists(apply(sortLists(c.original), sortLists(c.twoWay)))).toEqual(sortLists(c.twoWayResult ?? c.modified ?? {})));
    if (c.threeWay !== undefined && c.result !== undefined) it(c.description + ' threeWay', () => expect(sortLists(apply(sortLists(c.current), sortLists(c.threeWay)))).toEqual(sortLists(c.result)));
  }
});
