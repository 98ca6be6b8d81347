/** toFieldSet, compareValues, mergeValues and removeFields on real kinds' schemas. */
import { describe, expect, it } from 'vitest';
import { builtinDefinitions } from '../api/builtin.js';
import { schemaDocumentOf } from '../api/schema-node.js';
import { compareValues } from './compare.js';
import { FieldSet } from './field-set.js';
import { FieldType } from './field-type.js';
import { encodeFieldsV1 } from './fields-v1.js';
import { mergeValues } from './merge.js';
import { fieldPath, keyElement, pathToString } from './path-element.js';
import { removeFields } from './remove-fields.js';
import { toFieldSet } from './to-field-set.js';

const typeOf = (kind: string) => FieldType.root(schemaDocumentOf(builtinDefinitions().find((d) => d.kind === kind)!.schema));
const deploymentType = typeOf('Deployment');
const paths = (set: FieldSet) => set.paths().map(pathToString);

const applied = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [{ name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }], args: ['-g', 'daemon off;'] }],
      },
    },
  },
};

describe('toFieldSet', () => {
  it('owns leaves, map entries and list items with their keys, as Kubernetes records an apply', () => {
    const container = { 'k:{"name":"nginx"}': expect.anything() };
    const fields = encodeFieldsV1(toFieldSet(applied, deploymentType));
    expect(fields['f:metadata']).toEqual({ 'f:name': {}, 'f:labels': { 'f:app': {} } });
    // LabelSelector is an atomic struct: owned whole.
    expect(fields['f:spec']!['f:selector']).toEqual({});
    expect(fields['f:spec']!['f:template']!['f:spec']!['f:containers']).toEqual(container);
    expect(fields['f:spec']!['f:template']!['f:spec']!['f:containers']!['k:{"name":"nginx"}']).toEqual({
      '.': {},
      'f:name': {},
      'f:image': {},
      // args is an atomic list; ports keyed by containerPort and the defaulted protocol.
      'f:args': {},
      'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
      'f:env': { 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
    });
  });

  it('owns an explicit {} or null, and every entry of a map', () => {
    const set = toFieldSet({ data: { a: '1', b: '2' }, metadata: { annotations: {} } }, typeOf('ConfigMap'));
    expect(paths(set)).toEqual(['.data.a', '.data.b', '.metadata.annotations']);
  });

  it('owns a set list by its values', () => {
    const set = toFieldSet({ metadata: { finalizers: ['a', 'b'] } }, typeOf('ConfigMap'));
    expect(paths(set)).toEqual(['.metadata.finalizers[="a"]', '.metadata.finalizers[="b"]']);
  });
});

describe('compareValues', () => {
  it('reports modified leaves, added and removed list items with everything below them', () => {
    const after = structuredClone(applied);
    after.spec.replicas = 3;
    after.spec.template.spec.containers[0]!.env = [{ name: 'B', value: '2' }];
    const { added, modified, removed } = compareValues(applied, after, deploymentType);
    expect(paths(modified)).toEqual(['.spec.replicas']);
    const env = '.spec.template.spec.containers[name="nginx"].env';
    expect(paths(added)).toEqual([`${env}[name="B"]`, `${env}[name="B"].name`, `${env}[name="B"].value`]);
    expect(paths(removed)).toEqual([`${env}[name="A"]`, `${env}[name="A"].name`, `${env}[name="A"].value`]);
  });

  it('counts a struct field only through its contents, but a map as a member of its own', () => {
    const { added } = compareValues({}, { metadata: { labels: { app: 'x' } }, spec: { strategy: { type: 'Recreate' } } }, deploymentType);
    expect(paths(added)).toEqual(['.metadata.labels', '.metadata.labels.app', '.spec.strategy.type']);
  });

  it('finds nothing between equal objects, whatever their key order', () => {
    const reordered = { spec: applied.spec, metadata: applied.metadata, kind: 'Deployment', apiVersion: 'apps/v1' };
    const { added, modified, removed } = compareValues(applied, reordered, deploymentType);
    expect([added, modified, removed].every((s) => s.isEmpty())).toBe(true);
  });
});

describe('mergeValues', () => {
  const live = {
    spec: {
      replicas: 5,
      template: {
        spec: {
          containers: [
            {
              name: 'nginx',
              image: 'nginx:1.25',
              imagePullPolicy: 'IfNotPresent',
              ports: [{ containerPort: 80, protocol: 'TCP' }],
              env: [{ name: 'A', value: '1' }],
            },
            { name: 'sidecar', image: 'busybox' },
          ],
        },
      },
    },
  };

  it('merges containers by name, ports by containerPort/protocol and env by name', () => {
    const config = {
      spec: {
        template: {
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.26', ports: [{ containerPort: 80, name: 'http' }], env: [{ name: 'B', value: '2' }] }] },
        },
      },
    };
    const merged = mergeValues(live, config, deploymentType) as typeof live;
    expect(merged.spec.replicas).toBe(5);
    expect(merged.spec.template.spec.containers).toEqual([
      {
        name: 'nginx',
        image: 'nginx:1.26',
        imagePullPolicy: 'IfNotPresent',
        ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }],
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
      },
      { name: 'sidecar', image: 'busybox' },
    ]);
  });

  it("replaces atomic values and keeps the configuration's order for shared items", () => {
    const config = {
      spec: {
        selector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] },
        template: { spec: { containers: [{ name: 'sidecar' }, { name: 'nginx' }] } },
      },
    };
    const withSelector = { ...live, spec: { ...live.spec, selector: { matchLabels: { app: 'web' } } } };
    const merged = mergeValues(withSelector, config, deploymentType) as any;
    expect(merged.spec.selector).toEqual({ matchExpressions: [{ key: 'app', operator: 'Exists' }] });
    expect(merged.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['sidecar', 'nginx']);
  });

  it('keeps live-only items where they were', () => {
    const list = (names: string[]) => ({ spec: { template: { spec: { containers: names.map((name) => ({ name })) } } } });
    const merged = mergeValues(list(['a', 'b', 'c']), list(['c', 'd']), deploymentType) as any;
    expect(merged.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['a', 'b', 'c', 'd']);
    const merged2 = mergeValues(list(['a', 'b', 'c']), list(['b', 'x']), deploymentType) as any;
    expect(merged2.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['a', 'b', 'c', 'x']);
  });

  it('unions set lists', () => {
    const merged = mergeValues({ metadata: { finalizers: ['a', 'b'] } }, { metadata: { finalizers: ['c', 'a'] } }, deploymentType) as any;
    expect(merged.metadata.finalizers).toEqual(['c', 'a', 'b']);
  });
});

describe('removeFields', () => {
  it('removes list items and leaves, and maps they leave empty', () => {
    const containers = [...fieldPath('spec', 'template', 'spec', 'containers')];
    const set = FieldSet.of([...containers, keyElement([['name', 'sidecar']])], fieldPath('metadata', 'labels', 'app'), fieldPath('spec', 'replicas'));
    const object = {
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: { replicas: 2, template: { spec: { containers: [{ name: 'nginx' }, { name: 'sidecar' }] } } },
    };
    expect(removeFields(object, set, deploymentType)).toEqual({ metadata: { name: 'web' }, spec: { template: { spec: { containers: [{ name: 'nginx' }] } } } });
  });
});
