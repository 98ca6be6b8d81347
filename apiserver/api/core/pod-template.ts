/** core/v1 PodTemplate: a stored pod template, for tools that keep templates apart from the
 * workloads stamping pods out of them. Nothing in the cluster acts on it. */
import { z } from 'zod';
import { typeMetaFields } from '../meta.js';
import { ObjectMetaMessage } from '../meta-protobuf.js';
import { column, formatLabels, nameColumn } from '../printing.js';
import { field, message } from '../protobuf/message-type.js';
import type { ResourceDefinition } from '../resource-definition.js';
import { type PodTemplateSpec, PodTemplateSpecSchema } from './pod-spec.js';
import { defaultPodSpec } from './pod-spec-defaults.js';
import { PodTemplateSpecMessage } from './pod-spec-protobuf.js';
import { validatePodTemplateSpec } from './pod-spec-validation.js';
import { K8S_CORE } from './schema-helpers.js';

export const PodTemplateSchema = z
  .object({
    ...typeMetaFields('v1', 'PodTemplate'),
    template: PodTemplateSpecSchema.optional().describe('template defines the pods that will be created from this pod template.'),
  })
  .meta({ id: `${K8S_CORE}.PodTemplate`, description: 'PodTemplate describes a template for creating copies of a predefined pod.' });

export type PodTemplate = z.infer<typeof PodTemplateSchema>;

const PodTemplateMessage = message(`${K8S_CORE}.PodTemplate`, {
  1: field.message('metadata', ObjectMetaMessage),
  2: field.message('template', PodTemplateSpecMessage),
});

const containersOf = (pt: PodTemplate) => pt.template?.spec?.containers ?? [];

export const podTemplateDefinition: ResourceDefinition<PodTemplate> = {
  group: '',
  version: 'v1',
  kind: 'PodTemplate',
  plural: 'podtemplates',
  singular: 'podtemplate',
  shortNames: [],
  categories: [],
  namespaced: true,
  schema: PodTemplateSchema,
  defaults: (pt) => {
    if (pt.template) defaultPodSpec(pt.template.spec);
  },
  // A missing template is an empty one, as in Go (a struct, not a pointer): its containers are required.
  validate: (pt) => validatePodTemplateSpec(pt.template ?? ({ spec: { containers: [] } } as unknown as PodTemplateSpec), 'template'),
  tracksGeneration: false,
  subresources: {},
  printColumns: [
    nameColumn,
    column(
      'Containers',
      (pt: PodTemplate) =>
        containersOf(pt)
          .map((c) => c.name)
          .join(','),
      { description: 'Names of each container in the template.' },
    ),
    column(
      'Images',
      (pt: PodTemplate) =>
        containersOf(pt)
          .map((c) => c.image ?? '')
          .join(','),
      {
        description: 'Images referenced by each container in the template.',
      },
    ),
    column('Pod Labels', (pt: PodTemplate) => formatLabels(pt.template?.metadata?.labels), { description: 'The labels for the pod template.' }),
  ],
  protobuf: PodTemplateMessage,
  storage: { resource: 'podtemplates' },
};
