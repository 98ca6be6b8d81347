/**
 * apps/v1 DaemonSet: runs one copy of a pod on every eligible node (nodeSelector, required
 * node affinity, taints the pod tolerates). The DaemonSet controller picks the nodes, creates
 * one pod per node pinned to it by node affinity, lets the default scheduler bind it, and
 * replaces pods on template changes with `spec.updateStrategy` (RollingUpdate or OnDelete).
 * It is the only writer of `status`; `kubectl rollout status daemonset/x` reads that status.
 */
import { z } from 'zod';
import { PodTemplateSpecSchema } from '../core/pod-spec.js';
import { defaultPodSpec } from '../core/pod-spec-defaults.js';
import { enumOf } from '../core/schema-helpers.js';
import { KIND_IDS } from '../kind-refs.js';
import { formatLabelSelector } from '../labels.js';
import { IntOrStringSchema, kindConditionSchema, LabelSelectorSchema, typeMetaFields } from '../meta.js';
import { mergeByKey, retainKeys } from '../patch-meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { forbidden, invalid, notSupported, validateNonnegativeField } from '../validation.js';
import { APPS_V1 } from './apps-v1.js';
import { type IntOrString, intOrPercentValue, percentValue, validateIntOrPercent } from './int-or-percent.js';
import { validateImmutableSelector, validateSelectorAndTemplate } from './pod-template-validation.js';
import { workloadWideColumns } from './workload-columns.js';

export const RollingUpdateDaemonSetSchema = z
  .object({
    maxUnavailable: IntOrStringSchema.optional().describe(
      'maxUnavailable is how many nodes (a number, or a percentage of desired nodes rounded up) may lack an available pod during the update. Defaults to 1.',
    ),
    maxSurge: IntOrStringSchema.optional().describe(
      'maxSurge is how many nodes (a number, or a percentage rounded up) may run an updated pod next to the old one during the update. Defaults to 0.',
    ),
  })
  .meta({ id: `${APPS_V1}.RollingUpdateDaemonSet`, description: 'RollingUpdateDaemonSet controls the pace of a DaemonSet rolling update.' });

export const DaemonSetUpdateStrategySchema = z
  .object({
    type: enumOf(['RollingUpdate', 'OnDelete'])
      .optional()
      .describe('type of the update strategy: "RollingUpdate" (default) replaces pods node by node; "OnDelete" replaces a pod only when it is deleted.'),
    rollingUpdate: RollingUpdateDaemonSetSchema.optional().describe('rollingUpdate holds the rolling update parameters; only with type RollingUpdate.'),
  })
  .meta({ id: `${APPS_V1}.DaemonSetUpdateStrategy`, description: 'DaemonSetUpdateStrategy says how pods are replaced when the template changes.' });

export const DaemonSetSpecSchema = z
  .object({
    selector: LabelSelectorSchema.describe("selector is a label query over the pods the DaemonSet owns. It must match the template's labels and is immutable."),
    template: PodTemplateSpecSchema.describe('template describes the pod run on every eligible node.'),
    updateStrategy: DaemonSetUpdateStrategySchema.optional()
      .meta(retainKeys)
      .describe('updateStrategy is how pods are replaced when the template changes. Defaults to RollingUpdate with maxUnavailable 1.'),
    minReadySeconds: z.int32().optional().describe('minReadySeconds is how long a new pod must be ready to count as available. Defaults to 0.'),
    revisionHistoryLimit: z.int32().optional().describe('revisionHistoryLimit is how many old revisions to keep. Defaults to 10.'),
  })
  .meta({ id: `${APPS_V1}.DaemonSetSpec`, description: 'DaemonSetSpec is the specification of a daemon set.' });

export const DaemonSetConditionSchema = kindConditionSchema(
  `${APPS_V1}.DaemonSetCondition`,
  'DaemonSetCondition describes the state of a DaemonSet at a certain point.',
);

/** The four counts Kubernetes always serves (int32 without omitempty): 0 until the controller counts. */
const count = (description: string) => z.int32().default(0).describe(description);

export const DaemonSetStatusSchema = z
  .object({
    currentNumberScheduled: count('currentNumberScheduled is the number of eligible nodes running at least one daemon pod.'),
    numberMisscheduled: count('numberMisscheduled is the number of nodes running the daemon pod that should not.'),
    desiredNumberScheduled: count('desiredNumberScheduled is the number of nodes that should run the daemon pod.'),
    numberReady: count('numberReady is the number of eligible nodes whose daemon pod is Ready.'),
    observedGeneration: z.number().int().optional().describe('observedGeneration is the generation of the DaemonSet the status reflects.'),
    updatedNumberScheduled: z.int32().optional().describe('updatedNumberScheduled is the number of nodes running the updated daemon pod.'),
    numberAvailable: z.int32().optional().describe('numberAvailable is the number of nodes whose daemon pod is ready for at least minReadySeconds.'),
    numberUnavailable: z.int32().optional().describe('numberUnavailable is the number of nodes that should run the pod but have none available.'),
    collisionCount: z.int32().optional().describe('collisionCount is bumped when a revision name collides, to vary the hash.'),
    conditions: z
      .array(DaemonSetConditionSchema)
      .optional()
      .meta(mergeByKey('type'))
      .describe("conditions are the latest observations of the DaemonSet's state."),
  })
  .meta({ id: `${APPS_V1}.DaemonSetStatus`, description: 'DaemonSetStatus is the most recently observed status of a DaemonSet.' });

export const DaemonSetSchema = z
  .object({
    ...typeMetaFields('apps/v1', 'DaemonSet'),
    spec: DaemonSetSpecSchema.describe('spec is the desired behaviour of the DaemonSet.'),
    status: DaemonSetStatusSchema.optional().describe('status is the most recently observed state of the DaemonSet. Read-only.'),
  })
  .meta({ id: `${APPS_V1}.DaemonSet`, description: 'DaemonSet represents the configuration of a daemon set.' });

export type DaemonSet = z.infer<typeof DaemonSetSchema>;
export type DaemonSetStatus = z.infer<typeof DaemonSetStatusSchema>;

/** defaultDaemonSet applies SetDefaults_DaemonSet in place: updateStrategy RollingUpdate with
 * maxUnavailable 1 and maxSurge 0, revisionHistoryLimit 10, and the template's pod spec
 * defaults. Idempotent. */
export function defaultDaemonSet(ds: DaemonSet): void {
  const spec = ds.spec;
  const strategy = (spec.updateStrategy ??= {});
  strategy.type ??= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const rollingUpdate = (strategy.rollingUpdate ??= {});
    rollingUpdate.maxUnavailable ??= 1;
    rollingUpdate.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  defaultPodSpec(spec.template.spec);
}

// kube prints the template's nodeSelector as a label selector string, `<none>` when empty.
function nodeSelectorText(ds: DaemonSet): string {
  const selector = ds.spec?.template?.spec?.nodeSelector ?? {};
  const text = Object.keys(selector)
    .sort()
    .map((key) => `${key}=${selector[key]}`)
    .join(',');
  return text === '' ? '<none>' : text;
}

const statusColumn = (name: string, read: (s: Partial<DaemonSetStatus>) => number | undefined, description: string) =>
  column(name, (ds: DaemonSet) => read(ds.status ?? {}) ?? 0, { type: 'integer', description });

/*
 * DaemonSet validation after Kubernetes' ValidateDaemonSetSpec: the selector and template a
 * ReplicaSet's must satisfy, the update strategy (RollingUpdate's maxUnavailable/maxSurge or
 * OnDelete), minReadySeconds and revisionHistoryLimit. Messages and paths are Kubernetes'.
 */

type UpdateStrategy = NonNullable<DaemonSet['spec']['updateStrategy']>;

/** validateDaemonSet checks a defaulted DaemonSet (pure); `old` is set on update, where the
 * selector must not change. */
export function validateDaemonSet(ds: DaemonSet, old?: DaemonSet): FieldError[] {
  const { spec } = ds;
  return [
    ...validateSelectorAndTemplate(spec),
    ...validateUpdateStrategy(spec.updateStrategy ?? {}, 'spec.updateStrategy'),
    ...validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...validateNonnegativeField(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'),
    ...(old ? validateImmutableSelector(spec.selector, old.spec.selector, 'spec.selector') : []),
  ];
}

function validateUpdateStrategy(strategy: UpdateStrategy, field: string): FieldError[] {
  switch (strategy.type) {
    case 'OnDelete':
      return strategy.rollingUpdate ? [forbidden(`${field}.rollingUpdate`, "may not be specified when strategy `type` is 'OnDelete'")] : [];
    case 'RollingUpdate':
      if (!strategy.rollingUpdate)
        return [{ type: 'FieldValueRequired', field: `${field}.rollingUpdate`, detail: 'this should be defaulted and never be nil' }];
      return validateRollingUpdate(strategy.rollingUpdate, `${field}.rollingUpdate`);
    case undefined:
      return [notSupported(`${field}.type`, '', ['OnDelete', 'RollingUpdate'])];
    default: {
      const unreachable: never = strategy.type;
      return [notSupported(`${field}.type`, unreachable, ['OnDelete', 'RollingUpdate'])];
    }
  }
}

function validateRollingUpdate(rollingUpdate: { maxUnavailable?: IntOrString; maxSurge?: IntOrString }, field: string): FieldError[] {
  const maxUnavailable = rollingUpdate.maxUnavailable ?? 0;
  const maxSurge = rollingUpdate.maxSurge ?? 0;
  const errors = [...validateIntOrPercent(maxUnavailable, `${field}.maxUnavailable`), ...validateIntOrPercent(maxSurge, `${field}.maxSurge`)];
  if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
    errors.push(invalid(`${field}.maxUnavailable`, maxUnavailable, 'may not be 0 when `maxSurge` is 0'));
  }
  for (const [name, value] of [
    ['maxUnavailable', maxUnavailable],
    ['maxSurge', maxSurge],
  ] as const) {
    const percent = percentValue(value);
    if (percent !== undefined && percent > 100) errors.push(invalid(`${field}.${name}`, value, 'must not be greater than 100%'));
  }
  return errors;
}

/** daemonSetDefinition serves apps/v1 daemonsets (ds), with /status. */
export const daemonSetDefinition: ResourceDefinition<DaemonSet> = {
  ...KIND_IDS.daemonSet,
  singular: 'daemonset',
  shortNames: ['ds'],
  categories: ['all'],
  schema: DaemonSetSchema,
  defaults: defaultDaemonSet,
  validate: validateDaemonSet,
  tracksGeneration: true,
  subresources: { status: true },
  printColumns: [
    nameColumn,
    statusColumn('Desired', (s) => s.desiredNumberScheduled, 'The desired number of pods.'),
    statusColumn('Current', (s) => s.currentNumberScheduled, 'The current number of pods.'),
    statusColumn('Ready', (s) => s.numberReady, 'The number of pods ready.'),
    statusColumn('Up-to-date', (s) => s.updatedNumberScheduled, 'The number of pods updated.'),
    statusColumn('Available', (s) => s.numberAvailable, 'The number of pods available.'),
    column('Node Selector', nodeSelectorText, { description: 'Which nodes should run the pod.' }),
    ageColumn,
    ...workloadWideColumns(formatLabelSelector, 'A label query over pods that are managed by the daemon set.'),
  ],
  storage: { resource: 'daemonsets.apps' },
};
