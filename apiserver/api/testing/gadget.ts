/**
 * examples.kubesim.io/v1 Gadget: the worked example of docs/adding-a-kind.md, served by
 * test/integration/adding-a-kind.test.ts exactly as written here. A Gadget asks for a number
 * of copies and reports how many exist; it has a table, a status and a scale subresource.
 */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, KindStrategy, ResourceDefinition } from '../resource-definition.js';
import { notSupported, validateNonnegativeField } from '../validation.js';

const COLORS = ['red', 'green', 'blue'] as const;

export const GadgetSchema = z
  .object({
    ...typeMetaFields('examples.kubesim.io/v1', 'Gadget'),
    spec: z
      .object({
        replicas: z.int32().optional().describe('How many copies are wanted (default 1).'),
        color: z.string().optional().describe('red, green or blue.'),
      })
      .describe('What the gadget should be.'),
    status: z
      .object({ replicas: z.int32().optional().describe('How many copies exist.') })
      .optional()
      .describe('What the gadget is. Written through /status.'),
  })
  .meta({ id: 'io.kubesim.examples.v1.Gadget', description: 'Gadget is the worked example of adding a kind.' });

export type Gadget = z.infer<typeof GadgetSchema>;

function validateGadget(gadget: Gadget): FieldError[] {
  const { color, replicas } = gadget.spec;
  const errors = validateNonnegativeField(replicas, 'spec.replicas');
  if (color !== undefined && !(COLORS as readonly string[]).includes(color)) errors.push(notSupported('spec.color', color, COLORS));
  return errors;
}

/** A strategy hook: a new Gadget starts with no copies, whatever its body says. */
const gadgetStrategy: KindStrategy = {
  beforeCreate(object) {
    object['status'] = { replicas: 0 };
  },
};

export const gadgetDefinition: ResourceDefinition<Gadget> = {
  group: 'examples.kubesim.io',
  version: 'v1',
  kind: 'Gadget',
  plural: 'gadgets',
  singular: 'gadget',
  shortNames: ['gd'],
  categories: [],
  namespaced: true,
  schema: GadgetSchema,
  defaults: (gadget) => {
    gadget.spec.replicas ??= 1;
  },
  validate: validateGadget,
  strategy: gadgetStrategy,
  tracksGeneration: true,
  subresources: { status: true, scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: 'status.replicas' } },
  printColumns: [
    nameColumn,
    column('Color', (gadget: Gadget) => gadget.spec.color ?? '', { description: 'The color of the gadget.' }),
    column('Desired', (gadget: Gadget) => gadget.spec.replicas ?? 0, { type: 'integer', description: 'Copies wanted.' }),
    column('Current', (gadget: Gadget) => gadget.status?.replicas ?? 0, { type: 'integer', description: 'Copies that exist.' }),
    ageColumn,
  ],
  fieldSelectors: { 'spec.color': (gadget) => gadget.spec.color ?? '' },
  storage: { resource: 'gadgets.examples.kubesim.io' },
};
