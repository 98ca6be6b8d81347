/**
 * apps/v1 ControllerRevision: an immutable snapshot of a workload's state. The StatefulSet
 * controller records one per distinct pod template (`data` holds the strategic merge patch
 * `{spec: {template: {..., $patch: replace}}}` that restores it), numbered by `revision`;
 * `kubectl rollout history/undo statefulset` read and apply them.
 */
import { z } from 'zod';
import { KIND_IDS } from '../kind-refs.js';
import { controllerRefOf } from '../machinery/owner-references.js';
import { typeMetaFields } from '../meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { invalid } from '../validation.js';
import { APPS_V1 } from './apps-v1.js';

export const ControllerRevisionSchema = z
  .object({
    ...typeMetaFields('apps/v1', 'ControllerRevision'),
    data: z.looseObject({}).optional().meta({ 'x-kubernetes-preserve-unknown-fields': true }).describe('data is the serialized state of the revision.'),
    revision: z.number().int().describe('revision is the revision number of the state in data.'),
  })
  .meta({ id: `${APPS_V1}.ControllerRevision`, description: 'ControllerRevision implements an immutable snapshot of state data.' });

export type ControllerRevision = z.infer<typeof ControllerRevisionSchema>;

/** validateControllerRevision keeps `data` immutable (ValidateControllerRevisionUpdate) and
 * the revision number non-negative. Pure. */
export function validateControllerRevision(revision: ControllerRevision, old?: ControllerRevision): FieldError[] {
  const errors: FieldError[] = [];
  if (revision.revision < 0) errors.push(invalid('revision', revision.revision, 'must be greater than or equal to 0'));
  if (old && JSON.stringify(old.data) !== JSON.stringify(revision.data)) errors.push(invalid('data', '', 'field is immutable'));
  return errors;
}

const controllerText = (revision: ControllerRevision) => {
  const owner = controllerRefOf(revision);
  if (!owner) return '<none>';
  const group = owner.apiVersion.includes('/') ? `.${owner.apiVersion.split('/')[0]}` : '';
  return `${owner.kind.toLowerCase()}${group}/${owner.name}`;
};

/** controllerRevisionDefinition serves apps/v1 controllerrevisions. */
export const controllerRevisionDefinition: ResourceDefinition<ControllerRevision> = {
  ...KIND_IDS.controllerRevision,
  singular: 'controllerrevision',
  shortNames: [],
  categories: [],
  schema: ControllerRevisionSchema,
  validate: validateControllerRevision,
  tracksGeneration: false,
  subresources: {},
  printColumns: [
    nameColumn,
    column('Controller', controllerText, { description: 'The controller owning the revision.' }),
    column('Revision', (revision: ControllerRevision) => revision.revision ?? 0, { type: 'integer', description: 'The revision number.' }),
    ageColumn,
  ],
  storage: { resource: 'controllerrevisions.apps' },
};
