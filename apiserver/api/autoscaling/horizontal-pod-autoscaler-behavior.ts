/**
 * autoscaling/v2 HorizontalPodAutoscalerBehavior: how fast an HPA may scale up and down
 * (policies), how long it smooths recommendations (stabilization window), and how it picks
 * between policies. Defaults follow SetDefaults_HorizontalPodAutoscalerBehavior: they are
 * written into the object only when `spec.behavior` is present at all.
 */
import { z } from 'zod';
import { QuantitySchema } from '../meta.js';
import { AUTOSCALING_V2 } from './metric-spec.js';

/** ScalingPolicySelects are the valid `selectPolicy` values. */
export const ScalingPolicySelects = ['Disabled', 'Max', 'Min'] as const;
/** HPAScalingPolicyTypes are the valid policy `type` values. */
export const HPAScalingPolicyTypes = ['Percent', 'Pods'] as const;

export const HPAScalingPolicySchema = z
  .object({
    type: z.string().describe('type is the kind of change the policy limits: Pods (an absolute number) or Percent (of the current replicas).'),
    value: z.int32().describe('value is the amount of change the policy permits; must be greater than zero.'),
    periodSeconds: z.int32().describe('periodSeconds is the window over which the policy must hold; greater than zero and at most 1800 (30 minutes).'),
  })
  .meta({ id: `${AUTOSCALING_V2}.HPAScalingPolicy`, description: 'HPAScalingPolicy is a single policy which must hold true for a specified past interval.' });

export type HPAScalingPolicy = z.infer<typeof HPAScalingPolicySchema>;

export const HPAScalingRulesSchema = z
  .object({
    stabilizationWindowSeconds: z
      .int32()
      .optional()
      .describe(
        "stabilizationWindowSeconds is how many seconds of past recommendations are considered (0 to 3600). Defaults: 0 for scale up; for scale down the controller's --horizontal-pod-autoscaler-downscale-stabilization (300s).",
      ),
    selectPolicy: z
      .string()
      .optional()
      .describe('selectPolicy picks the policy allowing the largest (Max, default) or smallest (Min) change, or Disabled to forbid scaling in this direction.'),
    policies: z
      .array(HPAScalingPolicySchema)
      .optional()
      .meta({ 'x-kubernetes-list-type': 'atomic' })
      .describe('policies limit the change per period. Defaults: scale up by 4 pods or 100% per 15s, whichever is more; scale down by 100% per 15s.'),
    tolerance: QuantitySchema.optional().describe(
      'tolerance is the relative difference between current and desired metric values below which no scaling happens (e.g. 0.05 for 5%). Unset means the cluster-wide default (10%).',
    ),
  })
  .meta({
    id: `${AUTOSCALING_V2}.HPAScalingRules`,
    description: 'HPAScalingRules configures scaling in one direction: rate-limiting policies, a stabilization window and a tolerance.',
  });

export type HPAScalingRules = z.infer<typeof HPAScalingRulesSchema>;

export const HorizontalPodAutoscalerBehaviorSchema = z
  .object({
    scaleUp: HPAScalingRulesSchema.optional().describe(
      'scaleUp is the policy for scaling up. If not set: the larger of 4 pods or doubling per 15 seconds, no stabilization.',
    ),
    scaleDown: HPAScalingRulesSchema.optional().describe(
      'scaleDown is the policy for scaling down. If not set: down to minReplicas at once, after a 300 second stabilization window.',
    ),
  })
  .meta({
    id: `${AUTOSCALING_V2}.HorizontalPodAutoscalerBehavior`,
    description: 'HorizontalPodAutoscalerBehavior configures the scaling behavior of the target in both directions.',
  });

export type HorizontalPodAutoscalerBehavior = z.infer<typeof HorizontalPodAutoscalerBehaviorSchema>;
