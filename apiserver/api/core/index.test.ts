import { describe, expect, it } from 'vitest';
import { toSchemaDocument } from '../schema-node.js';
import { coreDefinitions } from './index.js';

describe('coreDefinitions', () => {
  it('lists the core kinds in registration order', () => {
    expect(coreDefinitions.map((d) => d.plural)).toEqual([
      'namespaces',
      'pods',
      'nodes',
      'events',
      'configmaps',
      'secrets',
      'services',
      'endpoints',
      'serviceaccounts',
      'persistentvolumeclaims',
      'persistentvolumes',
      'replicationcontrollers',
      'podtemplates',
      'limitranges',
      'resourcequotas',
      'componentstatuses',
    ]);
  });

  it.each(coreDefinitions.map((d) => [d.kind, d] as const))('%s is a well-formed core/v1 definition', (kind, def) => {
    expect(def).toMatchObject({ group: '', version: 'v1', storage: { resource: def.plural } });
    expect(def.printColumns[0]?.name === 'Name' || kind === 'Event').toBe(true);
    const doc = toSchemaDocument(def.schema);
    expect(doc.definitions[`io.k8s.api.core.v1.${kind}`]?.description).toBeTruthy();
  });
});
