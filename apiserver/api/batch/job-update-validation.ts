/**
 * What may change in a Job after creation (Kubernetes' ValidateJobSpecUpdate): its template,
 * selector, completion mode and failure/success policies are fixed once the Job exists —
 * pods already made from them must stay what the Job describes. Only a suspended Job that
 * never started may still move its pods (the scheduling directives of its template).
 */
import { validateImmutableSelector } from '../apps/pod-template-validation.js';
import type { PodTemplateSpec } from '../core/pod-spec.js';
import type { FieldError } from '../resource-definition.js';
import { invalid, validateImmutableField } from '../validation.js';
import type { JobSpec, JobStatus } from './job-spec.js';

/** The parts of a Job its update validation reads (job.ts imports this file: no import back). */
interface Job {
  spec: JobSpec;
  status?: JobStatus | undefined;
}

/** validateJobSpecUpdate lists the immutable fields of `job` that differ from `old`. Pure. */
export function validateJobSpecUpdate(job: Job, old: Job): FieldError[] {
  const spec = job.spec;
  const oldSpec = old.spec;
  return [
    ...validateCompletionsUpdate(spec, oldSpec),
    ...validateImmutableSelector(spec.selector, oldSpec.selector, 'spec.selector'),
    ...validateImmutableField(spec.template, comparableOldTemplate(job, old), 'spec.template'),
    ...validateImmutableField(spec.completionMode, oldSpec.completionMode, 'spec.completionMode'),
    ...validateImmutableField(spec.podFailurePolicy, oldSpec.podFailurePolicy, 'spec.podFailurePolicy'),
    ...validateImmutableField(spec.backoffLimitPerIndex, oldSpec.backoffLimitPerIndex, 'spec.backoffLimitPerIndex'),
    ...validateImmutableField(spec.managedBy, oldSpec.managedBy, 'spec.managedBy'),
    ...validateImmutableField(spec.successPolicy, oldSpec.successPolicy, 'spec.successPolicy'),
  ];
}

/** validateCompletionsUpdate: completions are fixed, except that an Indexed Job may scale
 * (elastic Indexed Jobs) by changing completions and parallelism together. */
function validateCompletionsUpdate(spec: JobSpec, oldSpec: JobSpec): FieldError[] {
  if (spec.completionMode !== 'Indexed') return validateImmutableField(spec.completions, oldSpec.completions, 'spec.completions');
  // An Indexed Job without completions is already reported by validateJobSpec.
  if (spec.completions === oldSpec.completions || spec.completions === undefined) return [];
  if (spec.completions === spec.parallelism) return [];
  return [invalid('spec.completions', spec.completions, 'can only be modified in tandem with spec.parallelism')];
}

/** comparableOldTemplate is the old template the new one must equal: the old one itself, or —
 * for a Job suspended before it ever started — the old one with the new scheduling directives
 * (node selector, tolerations, node affinity, scheduling gates, labels, annotations). */
function comparableOldTemplate(job: Job, old: Job): PodTemplateSpec {
  const oldTemplate = old.spec.template;
  if (!old.spec.suspend || old.status?.startTime) return oldTemplate;
  const template = job.spec.template;
  return {
    ...oldTemplate,
    metadata: { ...oldTemplate.metadata, labels: template.metadata?.labels, annotations: template.metadata?.annotations },
    spec: {
      ...oldTemplate.spec,
      nodeSelector: template.spec.nodeSelector,
      tolerations: template.spec.tolerations,
      schedulingGates: template.spec.schedulingGates,
      affinity: withNodeAffinityOf(oldTemplate.spec.affinity, template.spec.affinity),
    },
  };
}

type Affinity = PodTemplateSpec['spec']['affinity'];

/** withNodeAffinityOf is `old` with the node affinity of `next`; absent when nothing else is left. */
function withNodeAffinityOf(old: Affinity, next: Affinity): Affinity {
  const merged = { ...old, nodeAffinity: next?.nodeAffinity };
  return Object.values(merged).some((v) => v !== undefined) ? merged : next && {};
}
