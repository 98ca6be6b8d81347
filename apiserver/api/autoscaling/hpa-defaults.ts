/**
 * The HPA defaults both the API server (SetDefaults_HorizontalPodAutoscaler) and the HPA
 * controller apply: scaling rules per direction and the implicit CPU metric. Kept apart from
 * the schemas, without zod, so the controller's process loads none.
 */
import type { HorizontalPodAutoscalerBehavior, HPAScalingRules } from './horizontal-pod-autoscaler-behavior.js';
import type { MetricSpec } from './metric-spec.js';

/** DEFAULT_CPU_UTILIZATION is the target of the implicit metric of an HPA without metrics. */
export const DEFAULT_CPU_UTILIZATION = 80;

/** cpuUtilizationMetric is a Resource metric targeting `percent`% average CPU utilization. */
export function cpuUtilizationMetric(percent: number): MetricSpec {
  return { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: percent } } };
}

const scaleUpDefaults = (): HPAScalingRules => ({
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
});

// The scale-down window stays unset: it comes from the controller's flag, which the API
// server cannot know, exactly as in Kubernetes.
const scaleDownDefaults = (): HPAScalingRules => ({
  selectPolicy: 'Max',
  policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }],
});

/** scaleUpRules returns fully defaulted scale-up rules: the given fields win, unset ones
 * come from the defaults. Does not mutate `rules`. */
export function scaleUpRules(rules: HPAScalingRules | undefined): HPAScalingRules {
  return withDefaults(rules, scaleUpDefaults());
}

/** scaleDownRules is scaleUpRules for scale down (stabilizationWindowSeconds may stay unset). */
export function scaleDownRules(rules: HPAScalingRules | undefined): HPAScalingRules {
  return withDefaults(rules, scaleDownDefaults());
}

// An explicit empty `policies` list is kept (and rejected by validation), as Kubernetes
// only fills a nil list.
function withDefaults(from: HPAScalingRules | undefined, to: HPAScalingRules): HPAScalingRules {
  if (!from) return to;
  if (from.stabilizationWindowSeconds !== undefined) to.stabilizationWindowSeconds = from.stabilizationWindowSeconds;
  if (from.selectPolicy !== undefined) to.selectPolicy = from.selectPolicy;
  if (from.policies !== undefined) to.policies = from.policies;
  if (from.tolerance !== undefined) to.tolerance = from.tolerance;
  return to;
}

/** defaultBehavior fills both directions of a present behavior; an absent one stays absent. */
export function defaultBehavior(behavior: HorizontalPodAutoscalerBehavior | undefined): void {
  if (!behavior) return;
  behavior.scaleUp = scaleUpRules(behavior.scaleUp);
  behavior.scaleDown = scaleDownRules(behavior.scaleDown);
}
