import { describe, expect, it } from 'vitest';
import { FieldSet } from './field-set.js';
import { decodeFieldsV1, encodeFieldsV1 } from './fields-v1.js';
import {
  comparePathElements,
  fieldElement,
  fieldPath,
  indexElement,
  keyElement,
  type Path,
  parsePathElement,
  pathToString,
  serializePathElement,
  valueElement,
} from './path-element.js';

const f = fieldElement;
const nginx = keyElement([['name', 'nginx']]);
const port80 = keyElement([
  ['protocol', 'TCP'],
  ['containerPort', 80],
]);

describe('path elements', () => {
  it('serialize as FieldsV1 keys, key fields sorted by name, and parse back', () => {
    const elements = [f('replicas'), port80, valueElement('foregroundDeletion'), valueElement(3), indexElement(2)];
    const serialized = elements.map(serializePathElement);
    expect(serialized).toEqual(['f:replicas', 'k:{"containerPort":80,"protocol":"TCP"}', 'v:"foregroundDeletion"', 'v:3', 'i:2']);
    expect(serialized.map(parsePathElement)).toEqual(elements);
  });

  it('escape <, > and & as Go does', () => {
    expect(serializePathElement(valueElement('a<b>&c'))).toBe('v:"a\\u003cb\\u003e\\u0026c"');
    expect(parsePathElement('v:"a\\u003cb"')).toEqual(valueElement('a<b'));
  });

  it('reject malformed keys', () => {
    expect(() => parsePathElement('x:foo')).toThrow('unknown path element type');
    expect(() => parsePathElement('f')).toThrow('missing colon');
    expect(() => parsePathElement('i:one')).toThrow('invalid index element');
  });

  it('order fields before keys before values before indexes', () => {
    const sorted = [indexElement(0), valueElement('a'), nginx, f('b'), f('a')].sort(comparePathElements);
    expect(sorted.map(serializePathElement)).toEqual(['f:a', 'f:b', 'k:{"name":"nginx"}', 'v:"a"', 'i:0']);
  });

  it('print as kube-apiserver conflict messages do', () => {
    const path: Path = [...fieldPath('spec', 'template', 'spec', 'containers'), nginx, f('ports'), port80, f('hostPort')];
    expect(pathToString(path)).toBe('.spec.template.spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"].hostPort');
    expect(pathToString([f('metadata'), f('finalizers'), valueElement('x')])).toBe('.metadata.finalizers[="x"]');
    expect(pathToString([f('args'), indexElement(1)])).toBe('.args[1]');
  });
});

describe('FieldsV1', () => {
  // The example in Kubernetes' "Server-Side Apply" documentation (Field management).
  it('encodes the ConfigMap example of the Kubernetes documentation', () => {
    const set = FieldSet.of(fieldPath('metadata', 'labels', 'test-label'), fieldPath('data', 'key'));
    expect(encodeFieldsV1(set)).toEqual({ 'f:metadata': { 'f:labels': { 'f:test-label': {} } }, 'f:data': { 'f:key': {} } });
    expect(Object.keys(encodeFieldsV1(set))).toEqual(['f:data', 'f:metadata']);
  });

  it('marks a member that also has children with "."', () => {
    const containers = fieldPath('spec', 'template', 'spec', 'containers');
    const set = FieldSet.of(
      fieldPath('metadata', 'labels'),
      fieldPath('metadata', 'labels', 'app'),
      [...containers, nginx],
      [...containers, nginx, f('image')],
      [...containers, nginx, f('name')],
    );
    const encoded = encodeFieldsV1(set);
    expect(encoded).toEqual({
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } },
    });
    expect(Object.keys(encoded['f:metadata']!['f:labels']!)).toEqual(['.', 'f:app']);
    expect(decodeFieldsV1(encoded).equals(set)).toBe(true);
  });

  it('decodes what it encodes, and rejects what is not a map of path elements', () => {
    const set = FieldSet.of(fieldPath('spec', 'replicas'), [f('spec'), f('ports'), port80], [f('spec'), f('ports'), port80, f('port')]);
    expect(decodeFieldsV1(JSON.parse(JSON.stringify(encodeFieldsV1(set)))).paths()).toEqual(set.paths());
    expect(() => decodeFieldsV1({ 'f:spec': 3 })).toThrow('expected a map of path elements');
    expect(() => decodeFieldsV1({ 'q:spec': {} })).toThrow('unknown path element type');
  });
});

describe('FieldSet', () => {
  const a = FieldSet.of(fieldPath('spec', 'replicas'), fieldPath('spec', 'paused'), fieldPath('metadata', 'labels', 'app'));
  const b = FieldSet.of(fieldPath('spec', 'replicas'), fieldPath('metadata', 'labels', 'tier'));

  it('unions, intersects and subtracts without sharing structure', () => {
    expect(a.union(b).paths().map(pathToString)).toEqual(['.metadata.labels.app', '.metadata.labels.tier', '.spec.paused', '.spec.replicas']);
    expect(a.intersection(b).paths().map(pathToString)).toEqual(['.spec.replicas']);
    expect(a.difference(b).paths().map(pathToString)).toEqual(['.metadata.labels.app', '.spec.paused']);
    expect(b.difference(b).isEmpty()).toBe(true);
    expect(a.paths()).toHaveLength(3);
  });

  it('knows members from prefixes', () => {
    expect(a.has(fieldPath('spec'))).toBe(false);
    expect(a.hasAtOrBelow(fieldPath('spec'))).toBe(true);
    expect(a.has(fieldPath('spec', 'replicas'))).toBe(true);
    expect(a.hasAtOrBelow(fieldPath('status'))).toBe(false);
  });

  it("lists a node's members before its children, as Kubernetes iterates a set", () => {
    const set = FieldSet.of(fieldPath('a', 'z'), fieldPath('b'));
    expect(set.paths().map(pathToString)).toEqual(['.b', '.a.z']);
  });
});
