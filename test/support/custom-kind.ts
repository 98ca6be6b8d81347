/** A kind the API server starts serving while it runs, standing in for a CustomResourceDefinition
 * until CRDs exist: tests use it to check that discovery-driven controllers pick up new kinds. */
import { z } from 'zod';
import { typeMetaFields } from '../../apiserver/api/meta.js';
import { ageColumn, nameColumn } from '../../apiserver/api/printing.js';
import type { ResourceDefinition } from '../../apiserver/api/resource-definition.js';
import type { TestCluster } from './test-cluster.js';

const WidgetSchema = z
  .object({ ...typeMetaFields('example.com/v1', 'Widget'), spec: z.record(z.string(), z.unknown()).optional() })
  .meta({ id: 'com.example.v1.Widget', description: 'Widget is a test-only custom kind.' });

/** widgetDefinition serves example.com/v1 widgets (namespaced, every verb). */
export const widgetDefinition: ResourceDefinition<z.infer<typeof WidgetSchema>> = {
  group: 'example.com',
  version: 'v1',
  kind: 'Widget',
  plural: 'widgets',
  singular: 'widget',
  shortNames: [],
  categories: [],
  namespaced: true,
  schema: WidgetSchema,
  tracksGeneration: false,
  subresources: {},
  printColumns: [nameColumn, ageColumn],
  storage: { resource: 'widgets.example.com' },
};

/** serveWidgets makes the running test cluster serve widgetDefinition from now on. */
export function serveWidgets(cluster: TestCluster): void {
  cluster.server.context.registry.add(widgetDefinition);
}
