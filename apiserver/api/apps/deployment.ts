/**
 * apps/v1 Deployment: declarative updates for pods. The Deployment controller turns each
 * distinct pod template into a ReplicaSet and moves replicas from the old ones to the new
 * one, following `spec.strategy`. It is the only writer of `status`; `kubectl rollout`
 * reads that status (see docs/kubectl-wire.md, "Deployment controller contract").
 */
import { z } from 'zod';
import { PodTemplateSpecSchema } from '../core/pod-spec.js';
import { defaultPodSpec } from '../core/pod-spec-defaults.js';
import { enumOf } from '../core/schema-helpers.js';
import { KIND_IDS } from '../kind-refs.js';
import { isSelectorParseError, labelSelectorFromStructured } from '../labels.js';
import { IntOrStringSchema, type LabelSelector, LabelSelectorSchema, TimeSchema, typeMetaFields } from '../meta.js';
import { mergeByKey, retainKeys } from '../patch-meta.js';
import { ageColumn, column, nameColumn } from '../printing.js';
import type { FieldError, ResourceDefinition } from '../resource-definition.js';
import { forbidden, invalid, validateNonnegativeField } from '../validation.js';
import { APPS_V1 } from './apps-v1.js';
import { DeploymentMessage } from './deployment-protobuf.js';
import { type IntOrString, intOrPercentValue, percentValue, validateIntOrPercent } from './int-or-percent.js';
import { validateImmutableSelector, validateSelectorAndTemplate } from './pod-template-validation.js';
import { workloadWideColumns } from './workload-columns.js';

export const RollingUpdateDeploymentSchema = z
  .object({
    maxUnavailable: IntOrStringSchema.optional().describe(
      'maxUnavailable is how many pods (a number, or a percentage of desired pods rounded down) may be unavailable during the update. Defaults to 25%; cannot be 0 if maxSurge is 0.',
    ),
    maxSurge: IntOrStringSchema.optional().describe(
      'maxSurge is how many pods (a number, or a percentage of desired pods rounded up) may be created above the desired count during the update. Defaults to 25%; cannot be 0 if maxUnavailable is 0.',
    ),
  })
  .meta({ id: `${APPS_V1}.RollingUpdateDeployment`, description: 'RollingUpdateDeployment controls the pace of a rolling update.' });

export const DeploymentStrategySchema = z
  .object({
    type: enumOf(['Recreate', 'RollingUpdate'])
      .optional()
      .describe('type of the deployment strategy: "Recreate" kills all old pods before creating new ones; "RollingUpdate" (default) replaces them gradually.'),
    rollingUpdate: RollingUpdateDeploymentSchema.optional().describe(
      'rollingUpdate holds the rolling update parameters; only allowed when type is RollingUpdate.',
    ),
  })
  .meta({
    id: `${APPS_V1}.DeploymentStrategy`,
    description: 'DeploymentStrategy describes how to replace existing pods with new ones when the pod template changes.',
  });

export const DeploymentSpecSchema = z
  .object({
    replicas: z.int32().optional().describe('replicas is the number of desired pods. Defaults to 1.'),
    selector: LabelSelectorSchema.describe(
      "selector is a label query over the pods the Deployment manages (through its ReplicaSets). It must match the template's labels and is immutable.",
    ),
    template: PodTemplateSpecSchema.describe('template describes the pods that will be created. Changing it starts a rollout.'),
    strategy: DeploymentStrategySchema.optional()
      .meta(retainKeys)
      .describe('strategy is how old pods are replaced by new ones: Recreate, or RollingUpdate (the default, 25% surge and 25% unavailable).'),
    minReadySeconds: z
      .int32()
      .optional()
      .describe('minReadySeconds is how long a new pod must be ready, without any container crashing, to count as available. Defaults to 0.'),
    revisionHistoryLimit: z.int32().optional().describe('revisionHistoryLimit is how many old ReplicaSets to keep for rollback. Defaults to 10.'),
    paused: z.boolean().optional().describe('paused stops the controller from rolling out template changes until it is unpaused.'),
    progressDeadlineSeconds: z
      .int32()
      .optional()
      .describe(
        'progressDeadlineSeconds is how long a rollout may make no progress before the Progressing condition turns False with reason ProgressDeadlineExceeded. Defaults to 600; must exceed minReadySeconds.',
      ),
  })
  .meta({ id: `${APPS_V1}.DeploymentSpec`, description: 'DeploymentSpec is the specification of the desired behavior of the Deployment.' });

export const DeploymentConditionSchema = z
  .object({
    type: z.string().describe('type of the condition: Available, Progressing or ReplicaFailure.'),
    status: z.enum(['True', 'False', 'Unknown']).describe('status of the condition: True, False or Unknown.'),
    lastUpdateTime: TimeSchema.optional().describe('lastUpdateTime is the last time this condition was updated.'),
    lastTransitionTime: TimeSchema.optional().describe('lastTransitionTime is the last time the condition changed status.'),
    reason: z.string().optional().describe('reason is a CamelCase word for the last transition, e.g. NewReplicaSetAvailable.'),
    message: z.string().optional().describe('message is a human-readable explanation of the last transition.'),
  })
  .meta({ id: `${APPS_V1}.DeploymentCondition`, description: 'DeploymentCondition describes the state of a Deployment at a certain point.' });

export type DeploymentCondition = z.infer<typeof DeploymentConditionSchema>;

export const DeploymentStatusSchema = z
  .object({
    observedGeneration: z.number().int().optional().describe('observedGeneration is the generation of the Deployment the status reflects.'),
    replicas: z.int32().optional().describe('replicas is the number of non-terminating pods of all its ReplicaSets.'),
    updatedReplicas: z.int32().optional().describe('updatedReplicas is the number of non-terminating pods with the current template.'),
    readyReplicas: z.int32().optional().describe('readyReplicas is the number of non-terminating pods with a Ready condition.'),
    availableReplicas: z.int32().optional().describe('availableReplicas is the number of non-terminating pods ready for at least minReadySeconds.'),
    unavailableReplicas: z
      .int32()
      .optional()
      .describe('unavailableReplicas is the number of pods still needed for 100% availability: desired minus available.'),
    terminatingReplicas: z.int32().optional().describe('terminatingReplicas is the number of pods being deleted (deletionTimestamp set).'),
    conditions: z
      .array(DeploymentConditionSchema)
      .optional()
      .meta(mergeByKey('type'))
      .describe("conditions are the latest observations of the Deployment's state (Available, Progressing)."),
    collisionCount: z.int32().optional().describe("collisionCount is bumped when a new ReplicaSet's name collides, to vary the pod-template-hash."),
  })
  .meta({ id: `${APPS_V1}.DeploymentStatus`, description: 'DeploymentStatus is the most recently observed status of the Deployment.' });

export const DeploymentSchema = z
  .object({
    ...typeMetaFields('apps/v1', 'Deployment'),
    spec: DeploymentSpecSchema.describe('spec is the desired behaviour of the Deployment.'),
    status: DeploymentStatusSchema.optional().describe('status is the most recently observed state of the Deployment. Read-only.'),
  })
  .meta({ id: `${APPS_V1}.Deployment`, description: 'Deployment enables declarative updates for Pods and ReplicaSets.' });

export type Deployment = z.infer<typeof DeploymentSchema>;

/** defaultDeployment applies SetDefaults_Deployment and the template's pod spec defaults in
 * place: replicas 1, strategy RollingUpdate with 25%/25%, revisionHistoryLimit 10,
 * progressDeadlineSeconds 600. A Recreate strategy keeps any rollingUpdate given (validation
 * rejects it), as in Kubernetes. Idempotent. */
export function defaultDeployment(deployment: Deployment): void {
  const spec = deployment.spec;
  spec.replicas ??= 1;
  const strategy = (spec.strategy ??= {});
  strategy.type ??= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const rollingUpdate = (strategy.rollingUpdate ??= {});
    rollingUpdate.maxUnavailable ??= '25%';
    rollingUpdate.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  defaultPodSpec(spec.template.spec);
}

/*
 * Deployment validation after Kubernetes' ValidateDeploymentSpec: everything a ReplicaSet
 * checks (selector, template, replicas), plus the rollout strategy, history limit and
 * progress deadline. Messages and field paths are Kubernetes' own.
 */

type DeploymentStrategy = NonNullable<Deployment['spec']['strategy']>;

/** validateDeployment checks a defaulted Deployment (pure); `old` is set on update, where
 * the selector must not change. */
export function validateDeployment(deployment: Deployment, old?: Deployment): FieldError[] {
  const { spec } = deployment;
  const errors = [
    ...validateNonnegativeField(spec.replicas, 'spec.replicas'),
    ...validateSelectorAndTemplate(spec),
    ...validateStrategy(spec.strategy ?? {}, 'spec.strategy'),
    ...validateNonnegativeField(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...validateNonnegativeField(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'),
  ];
  const deadline = spec.progressDeadlineSeconds;
  if (deadline !== undefined) {
    errors.push(...validateNonnegativeField(deadline, 'spec.progressDeadlineSeconds'));
    if (deadline <= (spec.minReadySeconds ?? 0)) {
      errors.push(invalid('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds'));
    }
  }
  if (old) errors.push(...validateImmutableSelector(spec.selector, old.spec.selector, 'spec.selector'));
  return errors;
}

function validateStrategy(strategy: DeploymentStrategy, field: string): FieldError[] {
  switch (strategy.type) {
    case 'Recreate':
      return strategy.rollingUpdate ? [forbidden(`${field}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate':
    case undefined:
      // Defaulting always fills rollingUpdate for RollingUpdate; absent means defaults were skipped.
      if (!strategy.rollingUpdate)
        return [{ type: 'FieldValueRequired', field: `${field}.rollingUpdate`, detail: 'this should be defaulted and never be nil' }];
      return validateRollingUpdate(strategy.rollingUpdate, `${field}.rollingUpdate`);
    default:
      return assertNever(strategy.type);
  }
}

function validateRollingUpdate(rollingUpdate: { maxUnavailable?: IntOrString; maxSurge?: IntOrString }, field: string): FieldError[] {
  const maxUnavailable = rollingUpdate.maxUnavailable ?? 0;
  const maxSurge = rollingUpdate.maxSurge ?? 0;
  const errors = [...validateIntOrPercent(maxUnavailable, `${field}.maxUnavailable`), ...validateIntOrPercent(maxSurge, `${field}.maxSurge`)];
  if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
    errors.push(invalid(`${field}.maxUnavailable`, maxUnavailable, 'may not be 0 when `maxSurge` is 0'));
  }
  // Only maxUnavailable is capped: surging by more than 100% is allowed.
  const percent = percentValue(maxUnavailable);
  if (percent !== undefined && percent > 100) errors.push(invalid(`${field}.maxUnavailable`, maxUnavailable, 'must not be greater than 100%'));
  return errors;
}

function assertNever(value: never): never {
  throw new Error(`unexpected deployment strategy ${String(value)}`);
}

/** deploymentDefinition serves apps/v1 deployments (deploy), with /status and /scale. */
export const deploymentDefinition: ResourceDefinition<Deployment> = {
  ...KIND_IDS.deployment,
  singular: 'deployment',
  shortNames: ['deploy'],
  categories: ['all'],
  schema: DeploymentSchema,
  defaults: defaultDeployment,
  validate: validateDeployment,
  tracksGeneration: true,
  // labelSelectorPath names the structured spec.selector: the Scale's status.selector is its
  // canonical string (labelSelectorFromStructured(...).toString()), as kube-apiserver
  // computes it for built-in workloads.
  subresources: { status: true, scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: 'status.replicas', labelSelectorPath: 'spec.selector' } },
  printColumns: [
    nameColumn,
    column('Ready', (d: Deployment) => `${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 0}`, {
      description: 'Number of the pod with ready state',
    }),
    column('Up-to-date', (d: Deployment) => d.status?.updatedReplicas ?? 0, {
      description: 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
    }),
    column('Available', (d: Deployment) => d.status?.availableReplicas ?? 0, {
      description: 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
    }),
    ageColumn,
    ...workloadWideColumns(
      selectorString,
      'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.',
    ),
  ],
  protobuf: DeploymentMessage,
  liveView: 'deployments',
  storage: { resource: 'deployments.apps' },
};

// The Deployment printer shows the selector's canonical string as is ('' when empty) and
// `<invalid>` when it cannot be evaluated, unlike ReplicaSet's `<none>`/`<error>`.
function selectorString(selector: LabelSelector | undefined): string {
  try {
    return labelSelectorFromStructured(selector).toString();
  } catch (err) {
    if (isSelectorParseError(err)) return '<invalid>';
    throw err;
  }
}
