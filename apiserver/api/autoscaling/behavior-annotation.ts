/**
 * The `autoscaling.alpha.kubernetes.io/behavior` annotation that carries an HPA's behavior
 * through autoscaling/v1. Kubernetes writes it as JSON of its internal Go type, which has
 * no json tags, so keys are Go field names (`ScaleUp`, `StabilizationWindowSeconds`, ...)
 * and are read back case-insensitively, as Go's encoding/json does.
 */
import { type HorizontalPodAutoscalerBehavior, HorizontalPodAutoscalerBehaviorSchema } from './horizontal-pod-autoscaler-behavior.js';

// Every field name that can occur in a behavior, by its lower-cased spelling.
const FIELD_NAMES = new Map(
  ['scaleUp', 'scaleDown', 'stabilizationWindowSeconds', 'selectPolicy', 'policies', 'tolerance', 'type', 'value', 'periodSeconds'].map((name) => [
    name.toLowerCase(),
    name,
  ]),
);

/** encodeBehavior renders a behavior the way Kubernetes stores it in the annotation. */
export function encodeBehavior(behavior: HorizontalPodAutoscalerBehavior): string {
  return JSON.stringify(renameKeys(behavior, (key) => key.charAt(0).toUpperCase() + key.slice(1)));
}

/** decodeBehavior reads the annotation back. Like Kubernetes it yields undefined, rather
 * than failing, for an absent, malformed or empty behavior. */
export function decodeBehavior(text: string | undefined): HorizontalPodAutoscalerBehavior | undefined {
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined; // Kubernetes ignores an unreadable behavior annotation too
  }
  const parsed = HorizontalPodAutoscalerBehaviorSchema.safeParse(renameKeys(raw, (key) => FIELD_NAMES.get(key.toLowerCase()) ?? key));
  if (!parsed.success || (!parsed.data.scaleUp && !parsed.data.scaleDown)) return undefined;
  return parsed.data;
}

// renameKeys copies a JSON value with every object key renamed and nulls dropped (Go
// writes null for unset pointers).
function renameKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => renameKeys(item, rename));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item !== null && item !== undefined) out[rename(key)] = renameKeys(item, rename);
  }
  return out;
}
